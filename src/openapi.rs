//! The OpenAPI document, generated from the handlers and their types.
//!
//! The committed copy is `openapi/openapi.json` (the output of `arbiter openapi`); a test fails
//! when the two differ.

use utoipa::OpenApi;

use crate::api::{health, judge, moves, pdn, play, variants};
use crate::errors::Problem;

/// The API document.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "Arbiter",
        description = "A stateless rules referee for draughts, checkers and their cousins. \
Every answer is a pure function of the request, so any request can be retried on any replica.\n\n\
Sides are always `white` and `black`. Positions are FEN strings as in PDN 3.0 \
(`W:W31-50:B1-20`); moves are PDN move text in short (`32-28`, `28x19`) or long form \
(`47x38x24x13x36`).\n\n\
Every error is an RFC 9457 problem document (`application/problem+json`) with a stable \
`type` and `code`. Bounds: request bodies up to 256 KiB, at most 1000 moves per request.",
        license(name = "MIT OR Apache-2.0")
    ),
    paths(
        variants::list_variants,
        variants::get_variant,
        moves::get_moves,
        moves::post_moves,
        play::play,
        judge::judge,
        pdn::judge_pdn,
        health::healthz,
        health::readyz,
    ),
    components(schemas(Problem)),
    tags(
        (name = "variants", description = "The catalogue of variants and their rules"),
        (name = "moves", description = "Legal moves of a position"),
        (name = "play", description = "Play moves"),
        (name = "judge", description = "Judge a game and check a claimed result"),
        (name = "health", description = "Liveness and readiness probes"),
    )
)]
pub struct ApiDoc;

/// The document as a value.
pub fn document() -> utoipa::openapi::OpenApi {
    ApiDoc::openapi()
}

/// The document as pretty-printed JSON (what `arbiter openapi` prints).
pub fn document_json() -> String {
    document()
        .to_pretty_json()
        .unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}
