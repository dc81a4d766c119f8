//! JSON request bodies, read by Arbiter itself so that every failure is a problem document.

use std::future::Future;
use std::pin::Pin;

use actix_web::dev::Payload;
use actix_web::http::header;
use actix_web::{FromRequest, HttpRequest};
use serde::de::DeserializeOwned;

use crate::config::{BodyLimit, MAX_BODY_BYTES};
use crate::engine::Work;
use crate::http::body;
use crate::problem::ApiError;

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
            let limit = req.app_data::<BodyLimit>().map_or(MAX_BODY_BYTES, |l| l.0);
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
    let value: T = serde_path_to_error::deserialize(&mut de).map_err(crate::problem::json_error)?;
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
