//! Problem documents on the wire: [`ApiError`] as an actix-web error (status, headers and the
//! `application/problem+json` body), the handlers of actix's own extractor errors, and the last
//! line of defence that turns any other 4xx/5xx answer into a problem document.

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::ServiceResponse;
use actix_web::error::{PathError, QueryPayloadError};
use actix_web::http::header::{self, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::middleware::ErrorHandlerResponse;
use actix_web::{HttpRequest, HttpResponse, ResponseError};

use crate::problem::{ApiError, ProblemCode, PROBLEM_JSON};

/// A problem for a status produced outside the handlers. Its title is the status's reason
/// phrase written like every other title ("Not found", "Request header fields too large").
pub fn from_status(status: StatusCode) -> ApiError {
    ApiError::from_status_code(
        status.as_u16(),
        status.canonical_reason().unwrap_or("Error"),
    )
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        StatusCode::from_u16(self.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
    }

    fn error_response(&self) -> HttpResponse<BoxBody> {
        let mut res = HttpResponse::build(self.status_code());
        res.insert_header((header::CONTENT_TYPE, PROBLEM_JSON));
        if let Some(allow) = self.allow() {
            res.insert_header((header::ALLOW, allow));
        }
        if let Some(secs) = self.retry_after() {
            res.insert_header((header::RETRY_AFTER, secs.to_string()));
        }
        for (name, value) in self.headers() {
            res.insert_header((*name, value.as_str()));
        }
        let body = serde_json::to_vec(self.problem()).unwrap_or_else(|_| b"{}".to_vec());
        res.body(body)
    }
}

/// Error handler of actix's `QueryConfig`.
pub fn query_config_error(err: QueryPayloadError, _req: &HttpRequest) -> actix_web::Error {
    let message = err
        .to_string()
        .replace("Query deserialize error: ", "")
        .replace("unknown field", "unknown parameter")
        .replace(
            ", there are no fields",
            "; this resource takes no query parameters",
        )
        .replace(", expected one of", "; the parameters are")
        .replace("unknown variant", "unknown value");
    ApiError::invalid_query(message).into()
}

/// Error handler of actix's `PathConfig`.
pub fn path_config_error(err: PathError, _req: &HttpRequest) -> actix_web::Error {
    ApiError::new(
        400,
        ProblemCode::InvalidPath,
        "Invalid path parameter",
        err.to_string(),
    )
    .into()
}

/// Last line of defence: any 4xx/5xx response that is not already a problem document
/// (produced by actix itself or a library) is rewritten as one.
pub fn ensure_problem<B: MessageBody + 'static>(
    res: ServiceResponse<B>,
) -> actix_web::Result<ErrorHandlerResponse<B>> {
    let is_problem = res
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with(PROBLEM_JSON));
    if is_problem {
        return Ok(ErrorHandlerResponse::Response(res.map_into_left_body()));
    }
    let status = res.status();
    let allow: Option<HeaderValue> = res.headers().get(header::ALLOW).cloned();
    let (req, _old) = res.into_parts();
    let mut new = from_status(status).error_response();
    if let Some(allow) = allow {
        new.headers_mut().insert(header::ALLOW, allow);
    }
    Ok(ErrorHandlerResponse::Response(
        ServiceResponse::new(req, new).map_into_right_body(),
    ))
}
