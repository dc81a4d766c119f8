//! The HTTP conventions every answer follows, as middleware: request ids and the access log
//! ([`frame`]), HEAD on every GET resource, the version header, conditional GET with strong
//! ETags and compression ([`representation`]), and CORS ([`cors`]).
//!
//! Every answer of Arbiter is a pure function of its request and the service version, so a GET
//! answer's ETag is a hash of its body: equal bodies, equal tags, on every replica of a
//! version. A compressed body is a different representation, so its tag gets a suffix
//! (`"…-br"`, `"…-gz"`); `If-None-Match` is compared on the part before it (the weak
//! comparison RFC 9110 asks for), so a cache holding either representation revalidates.

use std::collections::HashMap;
use std::io::Write as _;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use actix_web::body::{BodySize, BoxBody, EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{
    self, AcceptEncoding, Encoding, Header, HeaderName, HeaderValue, IfNoneMatch, Preference,
};
use actix_web::http::{Method, StatusCode};
use actix_web::middleware::Next;
use actix_web::{web, HttpMessage, HttpResponse};

use crate::config::HttpConfig;
use crate::http::coding::Coding;
use crate::http::routing::route_of_path;
use crate::metrics::tags::RoutePattern;
use crate::metrics::{method_label, route_pattern, Metrics};
use crate::problem::ApiError;

/// The service version, sent on every answer in [`VERSION_HEADER`].
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The response header carrying the service version.
pub const VERSION_HEADER: &str = "x-arbiter-version";

/// The request and response header carrying the request id.
pub const REQUEST_ID_HEADER: &str = "x-request-id";

/// Longest request id taken from a client; a longer one (or one with other characters than
/// letters, digits and `-_.:@/+=`) is replaced by a new id.
pub const MAX_REQUEST_ID: usize = 128;

/// Bodies at least this long are compressed when the client accepts it.
pub const COMPRESS_MIN_BYTES: usize = 1024;

/// `Cache-Control` of GET answers of the API, the API document and Swagger UI: any cache may
/// keep them an hour, and revalidate them with their ETag after that.
pub const CACHE_CONTROL: &str = "public, max-age=3600";

/// The request id of a request, set by [`frame`] (taken from `X-Request-Id` or made anew).
#[derive(Clone, Debug)]
pub struct RequestId(pub String);

/// Whether `path` is a probe or the metrics (left out of the access log by default).
pub fn is_probe(path: &str) -> bool {
    matches!(path, "/healthz" | "/readyz" | "/metrics")
}

/// The id a client sent, if it is one we may echo.
fn incoming_id(req: &ServiceRequest) -> Option<String> {
    let v = req.headers().get(REQUEST_ID_HEADER)?.to_str().ok()?.trim();
    let ok = !v.is_empty()
        && v.len() <= MAX_REQUEST_ID
        && v.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.:@/+=".contains(&b));
    ok.then(|| v.to_string())
}

/// A new request id: a random UUID (version 4).
pub fn new_request_id() -> String {
    uuid::Uuid::new_v4().to_string()
}

/// The outermost middleware: gives the request its id (the client's `X-Request-Id` when it
/// is a sensible one), reads HEAD as GET (the HTTP layer then sends the headers of the GET
/// answer without its body), applies the request timeout ([`HttpConfig::request_timeout`]:
/// 503 `request-timeout`, and the handler, with its engine job, is dropped), puts the id and
/// the version on every answer, and writes the access log line: one structured INFO event
/// per request (target `arbiter::access`), the probes left out unless
/// [`HttpConfig::log_probes`].
pub async fn frame(
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody + 'static>, actix_web::Error> {
    let started = Instant::now();
    let id = incoming_id(&req).unwrap_or_else(new_request_id);
    let head = req.method() == Method::HEAD;
    if head {
        req.head_mut().method = Method::GET;
    }
    let config = req.app_data::<web::Data<HttpConfig>>().cloned();
    let log_probes = config.as_ref().is_some_and(|c| c.log_probes);
    let logged = (log_probes || !is_probe(req.path()))
        && tracing::enabled!(target: "arbiter::access", tracing::Level::INFO);
    // A standard method is a constant (its clone allocates nothing).
    let method = if head {
        Method::HEAD
    } else {
        req.method().clone()
    };
    let target = logged.then(|| target_text(req.uri()));
    req.extensions_mut().insert(RequestId(id.clone()));
    let timeout = config.as_ref().and_then(|c| c.request_timeout);
    // Only needed if the request times out: what its answer needs from the request.
    let on_timeout = timeout.map(|_| {
        (
            req.uri().clone(),
            req.headers().get(header::ORIGIN).cloned(),
            req.app_data::<web::Data<Metrics>>().cloned(),
        )
    });
    // Whatever is logged while the request is handled carries its id when DEBUG is on: at
    // the default level nothing is logged there, and the span costs a few percent of a
    // small request.
    let span = tracing::debug_span!("request", request_id = %id);
    let call = tracing::Instrument::instrument(next.call(req), span);
    let result = match timeout {
        Some(limit) => match actix_web::rt::time::timeout(limit, call).await {
            Ok(r) => r,
            Err(_) => {
                let (uri, origin, metrics) = on_timeout.expect("set with the timeout");
                let route = route_of_path(uri.path());
                tracing::warn!(
                    request_id = %id,
                    route = %route,
                    timeout_seconds = limit.as_secs(),
                    "request timed out"
                );
                if let Some(m) = metrics {
                    m.observe(
                        method_label(method.as_str()),
                        route,
                        503,
                        started.elapsed().as_secs_f64(),
                    );
                }
                let mut e = ApiError::request_timeout(limit)
                    .with_header(REQUEST_ID_HEADER, &id)
                    .with_header(VERSION_HEADER, VERSION);
                if let Some(allow) = config
                    .as_ref()
                    .and_then(|c| cors_allow_origin(c, origin.as_ref()))
                {
                    e = e
                        .with_header("access-control-allow-origin", &allow)
                        .with_header(
                            "access-control-expose-headers",
                            "etag, retry-after, allow, location, x-request-id, x-arbiter-version",
                        );
                }
                return Err(e.into());
            }
        },
        None => call.await,
    };
    let mut res = result?;
    let headers = res.headers_mut();
    if let Ok(value) = HeaderValue::from_str(&id) {
        headers.insert(HeaderName::from_static(REQUEST_ID_HEADER), value);
    }
    headers.insert(
        HeaderName::from_static(VERSION_HEADER),
        HeaderValue::from_static(VERSION),
    );
    if let Some(target) = target {
        // Found by the metrics middleware, unless the answer was made past it.
        let found = res.response().extensions().get::<RoutePattern>().cloned();
        let route = match found {
            Some(RoutePattern(p)) => p,
            None => route_pattern(res.request()),
        };
        tracing::info!(
            target: "arbiter::access",
            request_id = %id,
            method = %method,
            route = route.as_deref().unwrap_or("unmatched"),
            target = %clip_target(&target),
            status = res.status().as_u16(),
            latency_ms = started.elapsed().as_secs_f64() * 1000.0,
            "request"
        );
    }
    Ok(res)
}

/// The `Access-Control-Allow-Origin` value for a request from `origin` (for answers made
/// outside the CORS middleware: the request timeout).
fn cors_allow_origin(config: &HttpConfig, origin: Option<&HeaderValue>) -> Option<String> {
    match &config.cors_origins {
        None => Some("*".to_string()),
        Some(list) => {
            let origin = origin?.to_str().ok()?;
            list.iter().any(|o| o == origin).then(|| origin.to_string())
        }
    }
}

/// The request target as the client sent it: its path and query (`Uri`'s text, without
/// going through `fmt` for the usual origin form).
fn target_text(uri: &actix_web::http::Uri) -> String {
    match uri.path_and_query() {
        Some(pq) if uri.scheme().is_none() && uri.authority().is_none() => pq.as_str().to_string(),
        _ => uri.to_string(),
    }
}

/// The request target as logged: at most 256 bytes (a FEN in a query string can be long).
fn clip_target(t: &str) -> &str {
    if t.len() <= 256 {
        return t;
    }
    let mut end = 256;
    while !t.is_char_boundary(end) {
        end -= 1;
    }
    &t[..end]
}

/// The coding to answer in, from `Accept-Encoding` (actix-web's typed header and its
/// negotiation): the accepted one of brotli and gzip with the highest q-value (brotli at equal
/// values), none when neither is accepted or the header is absent or empty. `*` stands for
/// the codings the header does not name: when neither is accepted by name and `*` is the
/// client's first choice, brotli (else gzip) unless refused by name.
pub fn negotiate(accept: &AcceptEncoding) -> Option<Coding> {
    const SUPPORTED: [Encoding; 3] = [Encoding::brotli(), Encoding::gzip(), Encoding::identity()];
    if accept.0.is_empty() {
        return None;
    }
    match accept.negotiate(SUPPORTED.iter())? {
        e if e == Encoding::brotli() => Some(Coding::Brotli),
        e if e == Encoding::gzip() => Some(Coding::Gzip),
        _ if accept.preference() == Some(Preference::Any) => {
            [Coding::Brotli, Coding::Gzip].into_iter().find(|c| {
                let named = Preference::Specific(c.encoding());
                !accept.0.iter().any(|q| q.item == named)
            })
        }
        _ => None,
    }
}

fn compressible(content_type: Option<&HeaderValue>) -> bool {
    let Some(ct) = content_type.and_then(|v| v.to_str().ok()) else {
        return false;
    };
    let ct = ct.split(';').next().unwrap_or("").trim();
    ct.starts_with("text/")
        || ct == "application/json"
        || ct == "application/problem+json"
        || ct == "application/javascript"
        || ct == "image/svg+xml"
        || ct.ends_with("+json")
}

/// Compresses `body` in `coding` (brotli quality 5, gzip and deflate level 6, zstd level 3:
/// fast, and most of the gain). Answers are negotiated in brotli or gzip only ([`negotiate`]).
pub fn compress(body: &[u8], coding: Coding) -> Vec<u8> {
    match coding {
        Coding::Brotli => {
            let mut out = Vec::with_capacity(body.len() / 4 + 64);
            let params = brotli::enc::BrotliEncoderParams {
                quality: 5,
                lgwin: 20,
                ..Default::default()
            };
            let mut input = body;
            let _ = brotli::BrotliCompress(&mut input, &mut out, &params);
            out
        }
        Coding::Gzip => {
            let mut e = flate2::write::GzEncoder::new(
                Vec::with_capacity(body.len() / 4 + 64),
                flate2::Compression::new(6),
            );
            let _ = e.write_all(body);
            e.finish().unwrap_or_default()
        }
        Coding::Deflate => {
            let mut e = flate2::write::ZlibEncoder::new(
                Vec::with_capacity(body.len() / 4 + 64),
                flate2::Compression::new(6),
            );
            let _ = e.write_all(body);
            e.finish().unwrap_or_default()
        }
        Coding::Zstd => zstd::encode_all(body, 3).unwrap_or_default(),
    }
}

/// The hash of a body (XXH3, 64 bits, its fixed default seed): the strong ETag of a GET
/// answer, the same on every replica for the same body.
pub fn body_hash(body: &[u8]) -> u64 {
    xxhash_rust::xxh3::xxh3_64(body)
}

/// Whether an `If-None-Match` header (actix-web's typed header) matches the ETag base `tag`:
/// `*`, or one of its entity tags, weak or strong (the weak comparison RFC 9110 asks for),
/// with or without a coding suffix.
pub fn none_match(header: &IfNoneMatch, tag: &str) -> bool {
    match header {
        IfNoneMatch::Any => true,
        IfNoneMatch::Items(tags) => tags.iter().any(|t| {
            let t = t.tag();
            let base = Coding::ALL
                .iter()
                .find_map(|c| t.strip_suffix(c.etag_suffix()))
                .unwrap_or(t);
            base == tag
        }),
    }
}

/// Compressed bodies of large, often asked answers (Swagger UI's files, the variant
/// descriptions), by body hash and coding; bounded in bytes, emptied when full.
#[derive(Default)]
pub struct CompressCache {
    /// The compressed bodies, and their total size in bytes.
    inner: Mutex<(CompressedBodies, usize)>,
}

type CompressedBodies = HashMap<(u64, Coding), Arc<Vec<u8>>>;

/// Bodies at least this long have their compressed form kept in the [`CompressCache`].
pub const CACHE_MIN_BYTES: usize = 16 * 1024;

/// Most bytes of compressed bodies the [`CompressCache`] keeps.
pub const CACHE_MAX_BYTES: usize = 8 * 1024 * 1024;

impl CompressCache {
    fn get_or_compress(&self, hash: u64, coding: Coding, body: &[u8]) -> Arc<Vec<u8>> {
        if body.len() < CACHE_MIN_BYTES {
            return Arc::new(compress(body, coding));
        }
        if let Some(hit) = self
            .inner
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .0
            .get(&(hash, coding))
        {
            return hit.clone();
        }
        let out = Arc::new(compress(body, coding));
        let mut guard = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        let (map, bytes) = &mut *guard;
        if *bytes + out.len() > CACHE_MAX_BYTES {
            map.clear();
            *bytes = 0;
        }
        if out.len() <= CACHE_MAX_BYTES && map.insert((hash, coding), out.clone()).is_none() {
            *bytes += out.len();
        }
        out
    }
}

/// Conditional GET and compression. A 200 answer to a GET (or HEAD) gets a strong `ETag`
/// (see the module doc) and `Cache-Control` ([`CACHE_CONTROL`]; the probes and the metrics
/// get `no-store`), and `If-None-Match` naming its tag is answered 304. Any answer of at least
/// [`COMPRESS_MIN_BYTES`] whose type is text or JSON or SVG is compressed when
/// `Accept-Encoding` allows (brotli, else gzip), with `Vary: Accept-Encoding`.
pub async fn representation(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<EitherBody<BoxBody>>, actix_web::Error> {
    let get = req.method() == Method::GET;
    // A header that is not a list of entity tags (nor `*`) matches nothing.
    let if_none_match = if req.headers().contains_key(header::IF_NONE_MATCH) {
        IfNoneMatch::parse(&req).ok()
    } else {
        None
    };
    let probe = is_probe(req.path());
    let cache = req.app_data::<web::Data<CompressCache>>().cloned();
    let mut res = next.call(req).await?.map_into_boxed_body();
    if get && probe {
        res.headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    let status = res.status();
    let cacheable = get && status == StatusCode::OK && !probe;
    let may_compress = compressible(res.headers().get(header::CONTENT_TYPE))
        && !res.headers().contains_key(header::CONTENT_ENCODING);
    // Negotiated only for a body worth compressing (one streamed, of unknown size, is not).
    let coding = match res.response().body().size() {
        BodySize::Sized(n) if may_compress && n >= COMPRESS_MIN_BYTES as u64 => {
            AcceptEncoding::parse(res.request())
                .ok()
                .and_then(|accept| negotiate(&accept))
        }
        _ => None,
    };
    if !cacheable && (!may_compress || coding.is_none()) {
        // Nothing to hash or compress: only say that the answer depends on Accept-Encoding.
        if may_compress {
            res.headers_mut()
                .append(header::VARY, HeaderValue::from_static("accept-encoding"));
        }
        return Ok(res.map_into_left_body());
    }
    let (req, res) = res.into_parts();
    let (head, body) = res.into_parts();
    let body = match body.try_into_bytes() {
        Ok(bytes) => bytes,
        Err(body) => {
            // A streamed body: leave it as it is.
            let res = head.set_body(body);
            return Ok(ServiceResponse::new(req, res).map_into_left_body());
        }
    };
    let mut head = head;
    let coding = coding.filter(|_| may_compress && body.len() >= COMPRESS_MIN_BYTES);
    if may_compress {
        head.headers_mut()
            .append(header::VARY, HeaderValue::from_static("accept-encoding"));
    }
    let hash = if cacheable || (coding.is_some() && body.len() >= CACHE_MIN_BYTES) {
        Some(body_hash(&body))
    } else {
        None
    };
    if cacheable {
        let hash = hash.expect("hashed");
        let base = format!("{hash:016x}");
        let tag = format!("\"{base}{}\"", coding.map_or("", Coding::etag_suffix));
        let headers = head.headers_mut();
        if let Ok(v) = HeaderValue::from_str(&tag) {
            headers.insert(header::ETAG, v);
        }
        headers.insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static(CACHE_CONTROL),
        );
        if if_none_match.is_some_and(|h| none_match(&h, &base)) {
            let mut not_modified = HttpResponse::NotModified().finish();
            for (name, value) in head.headers().iter() {
                if matches!(*name, header::ETAG | header::CACHE_CONTROL | header::VARY) {
                    not_modified
                        .headers_mut()
                        .append(name.clone(), value.clone());
                }
            }
            return Ok(ServiceResponse::new(req, not_modified).map_into_right_body());
        }
    }
    let Some(coding) = coding else {
        let res = head.set_body(body).map_into_boxed_body();
        return Ok(ServiceResponse::new(req, res).map_into_left_body());
    };
    let compressed: Vec<u8> = match (&cache, hash) {
        (Some(cache), Some(hash)) => cache.get_or_compress(hash, coding, &body).to_vec(),
        _ => compress(&body, coding),
    };
    head.headers_mut().insert(
        header::CONTENT_ENCODING,
        HeaderValue::from_static(coding.name()),
    );
    head.headers_mut().remove(header::CONTENT_LENGTH);
    let res = head.set_body(compressed).map_into_boxed_body();
    Ok(ServiceResponse::new(req, res).map_into_left_body())
}

/// The CORS middleware for `config`: simple requests and preflights from the allowed origins
/// (any by default: every answer is public and no credentials are used) get the
/// `Access-Control-*` headers; the response headers a page may read are exposed. A request
/// from another origin is still answered, without those headers (the browser enforces).
pub fn cors(config: &HttpConfig) -> actix_cors::Cors {
    let base = actix_cors::Cors::default()
        .allowed_methods(["GET", "HEAD", "POST", "OPTIONS"])
        .allow_any_header()
        .expose_headers([
            header::ETAG,
            header::RETRY_AFTER,
            header::ALLOW,
            header::LOCATION,
            HeaderName::from_static(REQUEST_ID_HEADER),
            HeaderName::from_static(VERSION_HEADER),
        ])
        .max_age(86_400)
        .block_on_origin_mismatch(false);
    match &config.cors_origins {
        // The same answer for every origin: nothing to vary on.
        None => base
            .allow_any_origin()
            .send_wildcard()
            .disable_vary_header(),
        Some(list) => list
            .iter()
            .fold(base, |cors, origin| cors.allowed_origin(origin)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_ids_are_version_4_uuids() {
        let id = new_request_id();
        let parsed = uuid::Uuid::parse_str(&id).unwrap();
        assert_eq!(parsed.get_version_num(), 4, "{id}");
        assert_eq!(id, parsed.hyphenated().to_string());
        assert_ne!(new_request_id(), id);
    }

    #[test]
    fn codings_are_negotiated_by_q_value() {
        let coding = |text: &str| {
            let req = actix_web::test::TestRequest::default()
                .insert_header((header::ACCEPT_ENCODING, text))
                .to_http_request();
            negotiate(&AcceptEncoding::parse(&req).unwrap())
        };
        use Coding::{Brotli, Gzip};
        for (text, expected) in [
            ("", None),
            ("identity", None),
            ("deflate, zstd", None),
            ("gzip", Some(Gzip)),
            ("GZIP", Some(Gzip)),
            ("br", Some(Brotli)),
            ("gzip, deflate, br", Some(Brotli)),
            ("gzip, deflate, br, zstd", Some(Brotli)),
            ("zstd, gzip", Some(Gzip)),
            ("br;q=0, gzip", Some(Gzip)),
            ("br;q=0.5, gzip", Some(Gzip)),
            ("br;q=0.5, gzip;q=0.4", Some(Brotli)),
            ("br;q=0, gzip;q=0", None),
            ("*", Some(Brotli)),
            ("*;q=0", None),
            ("br;q=0, *", Some(Gzip)),
            ("br;q=0, gzip;q=0, *", None),
            ("*;q=0.5, identity", None),
            // A coding named is chosen over one `*` stands for.
            ("gzip;q=0.5, *", Some(Gzip)),
        ] {
            assert_eq!(coding(text), expected, "{text:?}");
        }
        let none = actix_web::test::TestRequest::default().to_http_request();
        assert_eq!(negotiate(&AcceptEncoding::parse(&none).unwrap()), None);
    }
}
