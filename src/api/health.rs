//! `GET /healthz` (liveness) and `GET /readyz` (readiness).

use actix_web::HttpResponse;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Health of the process.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct Health {
    /// Always `ok` when the process answers.
    #[schema(example = "ok")]
    pub status: String,
}

/// Liveness: the process answers.
#[utoipa::path(
    get,
    path = "/healthz",
    tag = "health",
    responses((status = 200, description = "The process is alive", body = Health))
)]
pub async fn healthz() -> HttpResponse {
    HttpResponse::Ok().json(Health {
        status: "ok".into(),
    })
}

/// Readiness: the rules catalogue is loaded and the server is not shutting down (503 once
/// SIGTERM or SIGINT has been received).
#[utoipa::path(
    get,
    path = "/readyz",
    tag = "health",
    responses(
        (status = 200, description = "Ready to serve", body = Health),
        (status = 503, description = "Not ready", body = crate::problem::Problem, content_type = "application/problem+json"),
    )
)]
pub async fn readyz(req: actix_web::HttpRequest) -> Result<HttpResponse, crate::problem::ApiError> {
    let shutting_down = req
        .app_data::<actix_web::web::Data<crate::config::ShutdownFlag>>()
        .is_some_and(|f| f.is_shutting_down());
    if shutting_down {
        return Err(crate::problem::ApiError::new(
            503,
            crate::problem::ProblemCode::ShuttingDown,
            "Shutting down",
            "the server is shutting down; in-flight requests finish, new ones go elsewhere",
        ));
    }
    if arbiter_rules::variants().is_empty() {
        return Err(crate::problem::ApiError::new(
            503,
            crate::problem::ProblemCode::NotReady,
            "Not ready",
            "the rules catalogue is empty",
        ));
    }
    Ok(HttpResponse::Ok().json(Health {
        status: "ok".into(),
    }))
}
