//! HTTP resources, one file each, with their request and response types next to the handlers.
//! Handlers only translate between JSON and the engine (`arbiter-rules`).

pub mod body;
pub mod diagram;
pub mod endgame;
pub mod health;
pub mod judge;
pub mod moves;
pub mod pdn;
pub mod pdn_stream;
pub mod perft;
pub mod play;
pub mod variants;

use std::future::Future;
use std::pin::Pin;

use actix_web::dev::Payload;
use actix_web::http::{header, Method};
use actix_web::{web, FromRequest, HttpRequest};
use arbiter_rules::{Color, Counters, Position, Status, Variant};
use serde::de::DeserializeOwned;
use serde::Serialize;
use utoipa::ToSchema;

use crate::engine::Work;
use crate::errors::ApiError;

/// `Allow` of a resource read with GET (HEAD is answered on every GET resource).
pub const GET: &str = "GET, HEAD";

/// A route of the API: a path pattern and, for each method it answers, the registration of
/// its handler.
pub struct Route {
    pub pattern: &'static str,
    pub methods: &'static [(Method, Handler)],
}

/// Gives a route (already guarded by its method) its handler: `|r| r.to(handler)`.
pub type Handler = fn(actix_web::Route) -> actix_web::Route;

/// Declares the routes once: [`ROUTES`], which [`configure`] registers with the router (and
/// the metrics read: `metrics::route_of_path`), and [`Paths`], the derived OpenAPI paths of
/// the same handlers, which `crate::openapi` puts in the API document. Each handler's
/// `#[utoipa::path]` repeats its path and method, as utoipa needs; a test checks that the two
/// agree.
macro_rules! routes {
    ($($pattern:literal => [$($method:ident $module:ident :: $handler:ident),+]),+ $(,)?) => {
        /// Every route of the API, in the order the router tries them.
        pub static ROUTES: &[Route] = &[$(Route {
            pattern: $pattern,
            methods: &[$((Method::$method, |r: actix_web::Route| r.to($module::$handler))),+],
        }),+];

        /// The OpenAPI paths of every handler of [`ROUTES`].
        #[derive(utoipa::OpenApi)]
        #[openapi(paths($($($module::$handler),+),+))]
        pub struct Paths;
    };
}

routes! {
    "/v1/variants" => [GET variants::list_variants],
    // The moves first: the most asked; every pattern with a `{variant}` is matched by a
    // regular expression, in this order, until one matches (they cannot overlap).
    "/v1/variants/{variant}/moves" => [GET moves::get_moves, POST moves::post_moves],
    "/v1/variants/{variant}" => [GET variants::get_variant],
    "/v1/variants/{variant}/diagram" => [GET diagram::get_diagram],
    "/v1/variants/{variant}/perft" => [GET perft::get_perft],
    "/v1/variants/{variant}/endgame" => [GET endgame::get_endgame],
    "/v1/variants/{variant}/play" => [POST play::play],
    "/v1/variants/{variant}/judge" => [POST judge::judge],
    "/v1/judge/pdn" => [POST pdn::judge_pdn],
    "/healthz" => [GET health::healthz],
    "/readyz" => [GET health::readyz],
}

/// The patterns of [`ROUTES`].
pub fn patterns() -> impl Iterator<Item = &'static str> {
    ROUTES.iter().map(|r| r.pattern)
}

/// The `Allow` header of each route of [`ROUTES`] (HEAD with GET: see `http::frame`).
static ALLOW: std::sync::LazyLock<Vec<String>> = std::sync::LazyLock::new(|| {
    ROUTES
        .iter()
        .map(|r| {
            let mut names = Vec::new();
            for (m, _) in r.methods {
                names.push(m.as_str());
                if *m == Method::GET {
                    names.push("HEAD");
                }
            }
            names.join(", ")
        })
        .collect()
});

/// Registers every route of [`ROUTES`]. Each path is a `web::resource` whose default service
/// answers 405 with an `Allow` header.
pub fn configure(cfg: &mut web::ServiceConfig) {
    register(cfg, |_| true);
}

/// Registers the probes of [`ROUTES`] only (`/healthz`, `/readyz`: the admin listener).
pub fn configure_probes(cfg: &mut web::ServiceConfig) {
    register(cfg, crate::http::is_probe);
}

fn register(cfg: &mut web::ServiceConfig, keep: fn(&str) -> bool) {
    for (route, allow) in ROUTES.iter().zip(ALLOW.iter()) {
        if keep(route.pattern) {
            let mut resource = web::resource(route.pattern);
            for (method, handler) in route.methods {
                resource = resource.route(handler(on(method.clone())));
            }
            cfg.service(resource.default_service(not_allowed(allow)));
        }
    }
}

/// A route for requests of `method` (HEAD comes as GET: see `http::frame`). Its guard only
/// compares the method: actix-web's own method guards (`web::get()`...) also record, in every
/// request, each method they were checked against, for an `Allow` header that the resources'
/// default services ([`not_allowed`]) write themselves.
pub fn on(method: Method) -> actix_web::Route {
    web::route().guard(actix_web::guard::fn_guard(move |ctx| {
        ctx.head().method == method
    }))
}

/// A default service answering 405 with `Allow: allow`.
pub fn not_allowed(allow: &'static str) -> actix_web::Route {
    web::route().to(move |req: HttpRequest| async move {
        Err::<actix_web::HttpResponse, ApiError>(ApiError::method_not_allowed(
            req.method().as_str(),
            allow,
        ))
    })
}

/// What answers a request no resource took: 405 for the documentation's own paths (the API
/// document and Swagger UI, read with GET and HEAD only), 404 for any other path.
pub async fn fallback(req: HttpRequest) -> Result<actix_web::HttpResponse, ApiError> {
    let path = req.path();
    let docs = path == crate::openapi::DOCUMENT
        || path == crate::openapi::SWAGGER_UI
        || path.starts_with(crate::openapi::SWAGGER_UI_FILES_PREFIX);
    if docs && req.method() != actix_web::http::Method::GET {
        return Err(ApiError::method_not_allowed(req.method().as_str(), GET));
    }
    Err(ApiError::not_found(path))
}

/// The query string of a resource that takes no query parameters: any parameter is refused
/// with 400 `invalid-query`, the rule for unknown parameters on every endpoint.
#[derive(Clone, Copy, Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoParams {}

/// The variant with this id (in any case) or alias (`standard`, `Frysk!`: the names
/// lidraughts, PlayStrategy and pydraughts use), or the 404 problem listing the known ids.
pub fn find_variant(id: &str) -> Result<&'static Variant, ApiError> {
    arbiter_rules::variant_named(id).ok_or_else(|| ApiError::unknown_variant(id))
}

/// Parses an optional FEN (`None` = the start position) sent in `field`.
pub fn parse_position(
    variant: &Variant,
    field: &str,
    fen: Option<&str>,
) -> Result<Position, ApiError> {
    parse_position_counters(variant, field, fen).map(|(pos, _)| pos)
}

/// [`parse_position`], with lidraughts' move counters (`:H<n>:F<n>`) when the FEN has them;
/// answers write them back in the FENs they give ([`arbiter_rules::Variant::fen_counters`]).
pub fn parse_position_counters(
    variant: &Variant,
    field: &str,
    fen: Option<&str>,
) -> Result<(Position, Option<Counters>), ApiError> {
    match fen {
        None => Ok((variant.start(), None)),
        Some(text) => variant
            .parse_fen_counters(text)
            .map_err(|e| ApiError::invalid_position(field, &e)),
    }
}

/// The counters after the moves `moves` played from a position where `first` was to move.
pub fn counters_after<'a>(
    variant: &Variant,
    counters: Option<Counters>,
    first: Color,
    moves: impl IntoIterator<Item = &'a arbiter_rules::Move>,
) -> Option<Counters> {
    let mut c = counters?;
    let mut side = first;
    for m in moves {
        c = c.after(variant, side, m);
        side = side.opponent();
    }
    Some(c)
}

/// A side. Sides are always "white" and "black", whatever the colours of a given set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    White,
    Black,
}

impl From<Color> for Side {
    fn from(c: Color) -> Side {
        match c {
            Color::White => Side::White,
            Color::Black => Side::Black,
        }
    }
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum GameState {
    Ongoing,
    WhiteWins,
    BlackWins,
    Draw,
}

/// The state of a position judged on its own (repetition needs the game's history: use
/// `/judge` for that).
#[derive(Clone, Debug, Serialize, serde::Deserialize, ToSchema)]
pub struct PositionStatus {
    /// `ongoing`, `white_wins`, `black_wins` or `draw`.
    #[schema(example = "ongoing")]
    pub state: GameState,
    /// Why the game is over (`NO_LEGAL_MOVES`, `KING_CROWNED`, `REPETITION`...); null while it
    /// goes on.
    #[schema(example = json!(null))]
    pub reason: Option<String>,
}

impl From<Status> for PositionStatus {
    fn from(s: Status) -> PositionStatus {
        match s {
            Status::Ongoing => PositionStatus {
                state: GameState::Ongoing,
                reason: None,
            },
            Status::Won { winner, reason } => PositionStatus {
                state: match winner {
                    Color::White => GameState::WhiteWins,
                    Color::Black => GameState::BlackWins,
                },
                reason: Some(reason.code().to_string()),
            },
            Status::Drawn { reason } => PositionStatus {
                state: GameState::Draw,
                reason: Some(reason.code().to_string()),
            },
        }
    }
}

/// The status of `pos` (charged to `budget`), or the engine's problem.
pub fn position_status(
    variant: &Variant,
    pos: &Position,
    budget: &arbiter_rules::Budget,
) -> Result<PositionStatus, ApiError> {
    arbiter_rules::status(variant, pos, budget)
        .map(PositionStatus::from)
        .map_err(|e| ApiError::engine(&e))
}

/// A JSON request body read by Arbiter itself, so that every failure is a problem document:
/// `None` when the body is empty (or JSON `null`), 413 above the body limit, 415 when a Content-Type other than
/// JSON is given, 400 for malformed JSON or the wrong shape (naming the field).
pub struct JsonBody<T>(pub Option<T>);

impl<T: DeserializeOwned + 'static> FromRequest for JsonBody<T> {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, ApiError>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let req = req.clone();
        let mut payload = payload.take();
        Box::pin(async move {
            let limit = req
                .app_data::<crate::config::BodyLimit>()
                .map_or(crate::config::MAX_BODY_BYTES, |l| l.0);
            let codings = body::codings(&req)?;
            let raw = body::read_raw(&req, &mut payload, limit, ApiError::body_too_large).await?;
            let bytes = body::decode_as_work(
                &req,
                Work::Request,
                raw,
                codings,
                limit,
                ApiError::body_too_large,
            )
            .await?;
            if bytes.iter().all(u8::is_ascii_whitespace) {
                return Ok(JsonBody(None));
            }
            // JSON `null` where the body is optional (an OpenAPI `oneOf: [null, ...]`): no body.
            if std::str::from_utf8(&bytes).is_ok_and(|t| t.trim() == "null") {
                return Ok(JsonBody(None));
            }
            if let Some(ct) = req.headers().get(header::CONTENT_TYPE) {
                let ct = String::from_utf8_lossy(ct.as_bytes());
                if !is_json(&ct) {
                    return Err(ApiError::unsupported_media_type(&ct));
                }
            }
            Ok(JsonBody(Some(parse_json_object(&bytes)?)))
        })
    }
}

/// Parses a JSON object body into `T`: anything but an object (an array, a string...) is 400
/// `invalid-body`, even where serde would read a struct from an array.
pub fn parse_json_object<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
    if first != Some(&b'{') {
        // Still report malformed JSON as such.
        if let Err(e) = serde_json::from_slice::<serde::de::IgnoredAny>(bytes) {
            return Err(ApiError::malformed_json(e));
        }
        return Err(ApiError::invalid_body(
            "the request body must be a JSON object ({...})",
        ));
    }
    // Read without tracking the path first: only a body that fails is read again, with the
    // path, for the error to name the field at fault.
    let mut de = serde_json::Deserializer::from_slice(bytes);
    if let Ok(value) = T::deserialize(&mut de) {
        if de.end().is_ok() {
            return Ok(value);
        }
    }
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value: T = serde_path_to_error::deserialize(&mut de).map_err(crate::errors::json_error)?;
    de.end().map_err(ApiError::malformed_json)?;
    Ok(value)
}

/// Whether a `Content-Type` (its parameters, if any, ignored; any case) is JSON:
/// `application/json` or `application/<anything>+json`. The one test of the JSON bodies of
/// every endpoint.
pub(crate) fn is_json(content_type: &str) -> bool {
    // What nearly every client sends.
    if content_type.eq_ignore_ascii_case("application/json") {
        return true;
    }
    let essence = content_type.split(';').next().unwrap_or("").trim();
    let (kind, subtype) = essence.split_once('/').unwrap_or((essence, ""));
    kind.eq_ignore_ascii_case("application")
        && (subtype.eq_ignore_ascii_case("json")
            || subtype
                .len()
                .checked_sub(5)
                .and_then(|at| subtype.get(at..))
                .is_some_and(|tail| tail.eq_ignore_ascii_case("+json")))
}

/// Checks the number of moves of a request against [`crate::config::MAX_MOVES`].
pub fn check_move_count(n: usize) -> Result<(), ApiError> {
    if n > crate::config::MAX_MOVES {
        Err(ApiError::too_many_moves(n))
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::is_json;

    #[test]
    fn json_media_types() {
        for yes in [
            "application/json",
            "Application/JSON",
            "application/json; charset=utf-8",
            " application/json ;q=1",
            "application/problem+json",
            "APPLICATION/Vnd.Api+JSON",
            "application/+json",
        ] {
            assert!(is_json(yes), "{yes}");
        }
        for no in [
            "",
            "text/json",
            "application/json5",
            "application/xml",
            "application / json",
            "applicationjson",
            "application/jsonx",
            "application/é+jsonx",
            "application",
        ] {
            assert!(!is_json(no), "{no}");
        }
    }
}
