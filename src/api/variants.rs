//! `GET /v1/variants` and `GET /v1/variants/{variant}`: the catalogue.

use actix_web::{web, HttpResponse};

use super::NoParams;
use crate::ops::find_variant;
use crate::ops::variants::{catalogue, VariantInfo, VariantList};
use crate::problem::{ApiError, Problem};

/// List every variant.
#[utoipa::path(
    get,
    path = "/v1/variants",
    tag = "variants",
    responses(
        (status = 200, description = "Every variant of the catalogue", body = VariantList),
    )
)]
pub async fn list_variants(_: web::Query<NoParams>) -> HttpResponse {
    HttpResponse::Ok().json(catalogue())
}

/// Describe one variant: board, start position, rules, sources.
#[utoipa::path(
    get,
    path = "/v1/variants/{variant}",
    tag = "variants",
    params(("variant" = String, Path, description = "Variant id (see `GET /v1/variants`)", example = "international")),
    responses(
        (status = 200, description = "The variant", body = VariantInfo),
        (status = 404, description = "Unknown variant (the problem lists the known ids)", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn get_variant(
    path: web::Path<String>,
    _: web::Query<NoParams>,
) -> Result<HttpResponse, ApiError> {
    let v = find_variant(&path)?;
    Ok(HttpResponse::Ok().json(VariantInfo::of(v)))
}
