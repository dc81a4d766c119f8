//! The OpenAPI document, generated from the handlers and their types, and where it is
//! served: `/api-docs/openapi.json` and Swagger UI.
//!
//! The committed copy is `openapi/openapi.json` (the output of `arbiter openapi`); a test fails
//! when the two differ.

use actix_web::{web, HttpResponse};
use utoipa::OpenApi;
use utoipa_swagger_ui::SwaggerUi;

use crate::http::routing::GET;
use crate::problem::{ApiError, Problem};

/// The path of the API document.
pub const DOCUMENT: &str = "/api-docs/openapi.json";

/// Swagger UI's path (redirected to its files).
pub const SWAGGER_UI: &str = "/swagger-ui";

/// The route pattern of Swagger UI's files.
pub const SWAGGER_UI_FILES: &str = "/swagger-ui/{_:.*}";

/// What the paths of Swagger UI's files start with.
pub const SWAGGER_UI_FILES_PREFIX: &str = "/swagger-ui/";

/// The route patterns of the documentation.
pub const PATTERNS: [&str; 3] = [SWAGGER_UI_FILES, DOCUMENT, SWAGGER_UI];

/// The API document's description, tags and shared schemas; its paths are those of the route
/// table ([`crate::api::Paths`]).
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
`type` and `code`. Bounds: request bodies up to 256 KiB, at most 1000 moves per request.\n\n\
**[A board in the browser](/board)** plays every variant on this API alone: legal moves, \
why a move is illegal, the judge's status and draw counters, endgame values, perft.",
        license(name = "MIT OR Apache-2.0")
    ),
    components(schemas(Problem)),
    tags(
        (name = "variants", description = "The catalogue of variants and their rules"),
        (name = "moves", description = "Legal moves of a position, and its diagram"),
        (name = "play", description = "Play moves"),
        (name = "judge", description = "Judge a game and check its declared result"),
        (name = "endgame", description = "Endgame tables: the value of positions with few pieces under best play"),
        (name = "health", description = "Liveness and readiness probes"),
    )
)]
pub struct ApiDoc;

/// The document as a value: the derived document, its description completed with the
/// catalogue (every variant id, from the engine's catalogue itself).
pub fn document() -> utoipa::openapi::OpenApi {
    let mut doc = ApiDoc::openapi();
    doc.merge(crate::api::Paths::openapi());
    let ids: Vec<String> = arbiter_rules::variants()
        .iter()
        .map(|v| format!("`{}`", v.id()))
        .collect();
    let extra = format!(
        "\n\nVariants ({}; `GET /v1/variants` describes each): {}.\n\n\
         Squares are numbers or algebraic names (`c3`); point-and-line boards name their \
         points the same way (`board.points` in a variant's description). Drop games add the \
         stones still in hand to the FEN (`W:Wc2:Ba1:S3,3`) and write a drop `*c2`; a blocked \
         side in Hageby plays `pass`; BrainKing's Alquerque keeps each side's last move \
         (`:Lb3-c3,e5-e4`); Frisian and Frysk! keep each side's king run, the king's square \
         and its non-capturing moves in a row, White's then Black's (`:R46/2,-`, lidraughts' \
         `:+0+246` read too); Konane's opening removals are `xd5`, Dameo's line moves go from \
         tail to the square in front of the head (`c1-c4`).",
        ids.len(),
        ids.join(", ")
    );
    if let Some(d) = doc.info.description.as_mut() {
        d.push_str(&extra);
    }
    doc
}

/// The document as pretty-printed JSON (what `arbiter openapi` prints).
pub fn document_json() -> String {
    document()
        .to_pretty_json()
        .unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}

/// Registers the API document and Swagger UI (which serves `doc` at [`DOCUMENT`]).
pub fn configure(cfg: &mut web::ServiceConfig, doc: utoipa::openapi::OpenApi) {
    cfg.service(
        SwaggerUi::new(SWAGGER_UI_FILES).url(DOCUMENT, doc).config(
            utoipa_swagger_ui::Config::from(DOCUMENT)
                .validator_url("none")
                .try_it_out_enabled(true),
        ),
    )
    .service(web::resource(SWAGGER_UI).route(web::get().to(|| async {
        HttpResponse::PermanentRedirect()
            .insert_header(("Location", SWAGGER_UI_FILES_PREFIX))
            .finish()
    })));
}

/// What answers a request no resource took: 405 for the documentation's own paths (the API
/// document and Swagger UI, read with GET and HEAD only), 404 for any other path.
pub async fn fallback(req: actix_web::HttpRequest) -> Result<actix_web::HttpResponse, ApiError> {
    let path = req.path();
    let docs = path == DOCUMENT || path == SWAGGER_UI || path.starts_with(SWAGGER_UI_FILES_PREFIX);
    if docs && req.method() != actix_web::http::Method::GET {
        return Err(ApiError::method_not_allowed(req.method().as_str(), GET));
    }
    Err(ApiError::not_found(path))
}
