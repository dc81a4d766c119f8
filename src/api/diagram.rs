//! `GET /v1/variants/{variant}/diagram`: an SVG picture of a position.

use actix_web::{web, HttpResponse};
use serde::Deserialize;
use utoipa::IntoParams;

use crate::engine::{Engine, Work};
use crate::ops::diagram::{diagram_svg, DiagramInput};
use crate::ops::find_variant;
use crate::problem::{ApiError, Problem};

/// The query string of the diagram.
#[derive(Clone, Debug, Default, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct DiagramQuery {
    /// FEN of the position; omitted = the variant's start position.
    #[param(example = "W:W31-50:B1-20", min_length = 1, max_length = 4096)]
    pub position: Option<String>,
    /// A legal move of the position to show (its route, the pieces it captures), in any
    /// notation `/play` reads.
    #[param(example = "32-28", min_length = 1, max_length = 512)]
    pub r#move: Option<String>,
    /// Turn the board round: Black's side at the bottom.
    #[param(example = false)]
    pub flip: Option<bool>,
    /// Write the square names (numbers in each playable square, or files and ranks along
    /// the edges; point names beside the points). On by default.
    #[param(example = true)]
    pub coordinates: Option<bool>,
}

impl DiagramQuery {
    /// What to draw.
    pub fn input(self) -> DiagramInput {
        DiagramInput {
            position: self.position,
            mv: self.r#move,
            flip: self.flip.unwrap_or(false),
            coordinates: self.coordinates.unwrap_or(true),
        }
    }
}

/// An SVG diagram of a position, optionally with a move marked.
#[utoipa::path(
    get,
    path = "/v1/variants/{variant}/diagram",
    tag = "moves",
    params(
        ("variant" = String, Path, description = "Variant id", example = "international"),
        DiagramQuery,
    ),
    responses(
        (status = 200, description = "The diagram (one `<g class=\"piece …\">` element per piece)", content_type = "image/svg+xml", body = String),
        (status = 400, description = "Invalid FEN or query string", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "Unknown variant", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The move is not a legal move of the position (`illegal-move` with its `violation`, `ambiguous-move`, `unparsable-move`), or the engine's work bounds", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn get_diagram(
    engine: web::Data<Engine>,
    path: web::Path<String>,
    query: web::Query<DiagramQuery>,
) -> Result<HttpResponse, ApiError> {
    let v = find_variant(&path)?;
    let input = query.into_inner().input();
    let svg = engine
        .run(Work::Request, move |b| diagram_svg(v, &input, b))
        .await?;
    Ok(HttpResponse::Ok().content_type("image/svg+xml").body(svg))
}
