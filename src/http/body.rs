//! Reading request bodies within their bound, with `Content-Encoding` honoured.
//!
//! Every endpoint with a body reads it here, so they all behave the same: a body over the
//! bound is 413 (one of at most [`DRAIN_MAX`] bytes is read to its end first, so that the
//! connection stays usable; a larger declared length is refused before anything is read); a body sent with `Content-Encoding: gzip`, `x-gzip`, `deflate`, `br` or `zstd`
//! (or a list of them) is decoded with its decoded size bounded by the same limit (413, saying
//! that the *decoded* body is too large); any other encoding is refused with 415
//! `unsupported-content-encoding`, never read as plain text. Decoding is engine work
//! ([`decode_as_work`]): a large body is decoded on the engine pool, not on the I/O worker.

use std::io::Read;

use actix_web::dev::Payload;
use actix_web::http::header;
use actix_web::web::Bytes;
use actix_web::{web, FromRequest, HttpRequest};
use arbiter_rules::Budget;

use crate::engine::{Engine, Work};
use crate::http::coding::Coding;
use crate::problem::{clip, ApiError, ProblemCode};

/// The content codings a request body may use.
pub const SUPPORTED_ENCODINGS: &str = "gzip, x-gzip, deflate, br, zstd, identity";

/// Most content codings applied to one body.
const MAX_CODINGS: usize = 3;

/// The codings of the `Content-Encoding` header, in the order they were applied (`identity`
/// dropped), or the 415 problem for one this service does not know.
pub fn codings(req: &HttpRequest) -> Result<Vec<Coding>, ApiError> {
    let mut out = Vec::new();
    for value in req.headers().get_all(header::CONTENT_ENCODING) {
        let text = String::from_utf8_lossy(value.as_bytes());
        for token in text.split(',') {
            let token = token.trim();
            if token.is_empty() || token.eq_ignore_ascii_case("identity") {
                continue;
            }
            let coding = Coding::from_token(token)
                .ok_or_else(|| unsupported_encoding(&token.to_ascii_lowercase()))?;
            out.push(coding);
        }
    }
    if out.len() > MAX_CODINGS {
        return Err(unsupported_encoding(&format!(
            "{} codings applied one over the other (at most {MAX_CODINGS})",
            out.len()
        )));
    }
    Ok(out)
}

/// 415: a `Content-Encoding` this service does not decode.
pub fn unsupported_encoding(what: &str) -> ApiError {
    ApiError::new(
        415,
        ProblemCode::UnsupportedContentEncoding,
        "Unsupported content encoding",
        format!(
            "the request body's Content-Encoding '{}' is not supported; use one of: \
             {SUPPORTED_ENCODINGS}",
            clip(what)
        ),
    )
    .with_field("Content-Encoding")
}

/// The length the client declared, if any.
pub fn declared_length(req: &HttpRequest) -> Option<usize> {
    req.headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<usize>().ok())
}

/// How a body was too large: sent (`decoded == false`) or once decoded.
pub type TooLarge = fn(length: Option<usize>, limit: usize, decoded: bool) -> ApiError;

/// Reads the raw body (at most `limit` bytes) of a request whose codings were checked with
/// [`codings`].
pub async fn read_raw(
    req: &HttpRequest,
    payload: &mut Payload,
    limit: usize,
    too_large: TooLarge,
) -> Result<Bytes, ApiError> {
    let declared = declared_length(req);
    let stream = actix_web::web::Payload::from_request(req, payload)
        .await
        .map_err(|e| ApiError::invalid_body(format!("the request body could not be read: {e}")))?;
    read_stream(stream, declared, limit, too_large).await
}

/// Bodies over the limit but no larger than this are read to their end (and dropped) before
/// the 413 is answered, so that the connection stays usable: a proxy still sending the body
/// when the answer comes would otherwise see the connection closed under it (and answer 502).
/// Larger ones are answered at once and the connection is closed.
pub const DRAIN_MAX: usize = 2 * 1024 * 1024;

/// Reads a body stream (at most `limit` bytes).
pub async fn read_stream(
    mut stream: actix_web::web::Payload,
    declared: Option<usize>,
    limit: usize,
    too_large: TooLarge,
) -> Result<Bytes, ApiError> {
    use futures_util::StreamExt;
    let mut over = false;
    if let Some(n) = declared {
        if n > DRAIN_MAX {
            return Err(too_large(Some(n), limit, false));
        }
        over = n > limit;
    }
    // A body that comes in one chunk (the usual small one) is kept as it came; only a second
    // chunk starts a buffer of their concatenation.
    let mut first: Option<Bytes> = None;
    let mut body = actix_web::web::BytesMut::new();
    let mut seen = 0usize;
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|e| {
            ApiError::invalid_body(format!("the request body could not be read: {e}"))
        })?;
        seen += chunk.len();
        if seen > DRAIN_MAX {
            break;
        }
        if seen > limit {
            over = true;
        }
        if over {
            continue;
        }
        if let Some(earlier) = first.take() {
            body.extend_from_slice(&earlier);
        }
        if body.is_empty() {
            first = Some(chunk);
        } else {
            body.extend_from_slice(&chunk);
        }
    }
    if over || seen > limit {
        return Err(too_large(declared, limit, false));
    }
    Ok(first.unwrap_or_else(|| body.freeze()))
}

/// Work units charged per this many decoded bytes. Inflating text that is mostly literals
/// (the slowest to decode) runs at about 200 MB/s, ten bytes per unit at the engine's rate
/// of about twenty million units a second; sixteen is a little more generous.
pub const DECODED_BYTES_PER_UNIT: u64 = 16;

/// Bytes decoded between two charges to the budget.
const DECODE_CHUNK: u64 = 64 * 1024;

/// Undoes the `codings` of a raw body (see [`decode`]) as engine work of `work`: a body of a
/// few hundred KiB is decoded on the I/O worker within the engine's inline slice; a larger one
/// (a 1 MiB PDN file of literal-heavy text takes about 5 ms per coding) moves to the engine
/// pool, bounded by its slots (503 `overloaded` when every one is busy) like any engine work.
/// A body without codings is returned as it is.
pub async fn decode_as_work(
    req: &HttpRequest,
    work: Work,
    raw: Bytes,
    codings: Vec<Coding>,
    limit: usize,
    too_large: TooLarge,
) -> Result<Bytes, ApiError> {
    if codings.is_empty() {
        return Ok(raw);
    }
    match req.app_data::<web::Data<Engine>>() {
        Some(engine) => {
            engine
                .run(work, move |budget| {
                    decode(raw.clone(), &codings, limit, too_large, budget)
                })
                .await
        }
        None => decode(raw, &codings, limit, too_large, &Budget::unlimited()),
    }
}

/// Undoes `codings` (applied in that order) with the decoded size bounded by `limit`,
/// charging [`DECODED_BYTES_PER_UNIT`] to `budget` as it goes.
pub fn decode(
    raw: Bytes,
    codings: &[Coding],
    limit: usize,
    too_large: TooLarge,
    budget: &Budget,
) -> Result<Bytes, ApiError> {
    let mut body = raw;
    for coding in codings.iter().rev() {
        let input: &[u8] = &body;
        let reader: Box<dyn Read + '_> = match coding {
            Coding::Gzip => Box::new(flate2::read::MultiGzDecoder::new(input)),
            Coding::Deflate => Box::new(flate2::read::ZlibDecoder::new(input)),
            Coding::Brotli => Box::new(brotli::Decompressor::new(input, 4096)),
            Coding::Zstd => {
                let mut d = zstd::stream::read::Decoder::new(input).map_err(corrupt)?;
                // A frame may ask for a window of up to 2 GiB; 8 MiB covers every body this
                // service accepts.
                d.window_log_max(23).map_err(corrupt)?;
                Box::new(d)
            }
        };
        let mut reader = reader.take(limit as u64 + 1);
        let mut out = Vec::new();
        loop {
            let n = (&mut reader)
                .take(DECODE_CHUNK)
                .read_to_end(&mut out)
                .map_err(corrupt)?;
            if n == 0 {
                break;
            }
            budget
                .charge((n as u64).div_ceil(DECODED_BYTES_PER_UNIT))
                .map_err(|e| ApiError::engine(&e))?;
        }
        drop(reader);
        if out.len() > limit {
            return Err(too_large(None, limit, true));
        }
        body = Bytes::from(out);
    }
    Ok(body)
}

fn corrupt(e: std::io::Error) -> ApiError {
    ApiError::new(
        400,
        ProblemCode::InvalidEncoding,
        "Body does not match its content encoding",
        format!("the request body could not be decoded as its Content-Encoding says: {e}"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn gzip(bytes: &[u8]) -> Bytes {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(6));
        e.write_all(bytes).unwrap();
        Bytes::from(e.finish().unwrap())
    }

    #[test]
    fn decoding_is_charged_to_the_budget() {
        let body = b"1. 32-28 19-23 2. 28x19 14x23 ".repeat(20_000);
        let raw = gzip(&body);
        let limit = 1024 * 1024;
        let codings = [Coding::Gzip, Coding::Gzip];
        let twice = gzip(&raw);
        // Every decoded byte is paid for, on each coding undone.
        let budget = Budget::unlimited();
        let out = decode(
            twice.clone(),
            &codings,
            limit,
            ApiError::body_too_large,
            &budget,
        );
        assert_eq!(out.unwrap(), body.as_slice());
        let per_byte = (body.len() + raw.len()) as u64 / DECODED_BYTES_PER_UNIT;
        assert!(
            (per_byte..per_byte + 100).contains(&budget.used()),
            "{}",
            budget.used()
        );
        // The engine's inline slice is not enough for it: it goes to the pool.
        let slice = Budget::new(crate::config::DEFAULT_INLINE_UNITS);
        let err = decode(twice, &codings, limit, ApiError::body_too_large, &slice).unwrap_err();
        assert_eq!(err.problem().code, ProblemCode::BudgetExceeded);
        assert_eq!(slice.left(), 0);
    }
}
