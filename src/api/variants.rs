//! `GET /v1/variants` and `GET /v1/variants/{variant}`: the catalogue.

use actix_web::{web, HttpResponse};
use arbiter_rules::Variant;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{find_variant, Side};
use crate::errors::{ApiError, Problem};

/// How squares are named.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum SquareNames {
    /// Squares are numbered (PDN numeric notation, `32-28`).
    Numeric,
    /// Squares are named by file and rank (`c3-d4`).
    Algebraic,
}

/// The board of a variant.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct BoardInfo {
    /// Number of files.
    #[schema(example = 10)]
    pub width: u8,
    /// Number of ranks.
    #[schema(example = 10)]
    pub height: u8,
    /// How squares are written in moves and FENs.
    #[schema(example = "numeric")]
    pub squares: SquareNames,
    /// Which squares are played on: `checkered` (the dark squares of the grid), `full`
    /// (every square) or `graph` (the points of a point-and-line board).
    #[schema(example = "checkered")]
    pub layout: String,
    /// Number of playable squares (or points).
    #[schema(example = 50)]
    pub cells: usize,
}

/// A variant of the catalogue and its rules.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct VariantInfo {
    /// The id used in URLs.
    #[schema(example = "international")]
    pub id: String,
    /// Full name.
    #[schema(example = "International draughts (FMJD), 10×10")]
    pub name: String,
    pub board: BoardInfo,
    /// The side that moves first from the start position.
    #[schema(example = "white")]
    pub first_mover: Side,
    /// The start position as FEN.
    #[schema(example = "W:W31-50:B1-20")]
    pub start_position: String,
    /// The PDN `GameType` tag value, if the variant has a standard number.
    #[schema(example = "20,W,10,10,N2,0")]
    pub pdn_game_type: Option<String>,
    /// The rule parameters in readable form (name → description).
    #[schema(example = json!({"end_of_game": "the side to move with no legal move loses"}))]
    pub rules: serde_json::Map<String, serde_json::Value>,
    /// Rule decisions worth stating (readings chosen where sources disagree).
    pub notes: Vec<String>,
    /// Where the rules come from.
    pub sources: Vec<String>,
    /// Whether the rules are provisional (not yet confirmed by a primary source).
    #[schema(example = false)]
    pub provisional: bool,
    /// Why the variant is provisional; null when it is not.
    #[schema(example = json!(null))]
    pub provisional_reason: Option<String>,
}

impl VariantInfo {
    /// Describes a variant of the engine's catalogue.
    pub fn of(v: &Variant) -> VariantInfo {
        let spec = v.spec();
        VariantInfo {
            id: v.id().to_string(),
            name: v.name().to_string(),
            board: BoardInfo {
                width: spec.width,
                height: spec.height,
                squares: if spec.algebraic {
                    SquareNames::Algebraic
                } else {
                    SquareNames::Numeric
                },
                layout: spec.board.layout().to_string(),
                cells: v.board().len(),
            },
            first_mover: spec.first.into(),
            start_position: v.fen(&v.start()),
            pdn_game_type: spec.game_type.map(String::from),
            rules: v
                .parameters()
                .into_iter()
                .map(|(k, val)| (k.to_string(), serde_json::Value::String(val)))
                .collect(),
            notes: spec.notes.iter().map(|s| s.to_string()).collect(),
            sources: spec.sources.iter().map(|s| s.to_string()).collect(),
            provisional: spec.provisional.is_some(),
            provisional_reason: spec.provisional.map(String::from),
        }
    }
}

/// The catalogue.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct VariantList {
    /// Every variant, in a stable order.
    pub variants: Vec<VariantInfo>,
}

/// List every variant.
#[utoipa::path(
    get,
    path = "/v1/variants",
    tag = "variants",
    responses(
        (status = 200, description = "Every variant of the catalogue", body = VariantList),
    )
)]
pub async fn list_variants() -> HttpResponse {
    HttpResponse::Ok().json(VariantList {
        variants: arbiter_rules::variants()
            .iter()
            .map(VariantInfo::of)
            .collect(),
    })
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
pub async fn get_variant(path: web::Path<String>) -> Result<HttpResponse, ApiError> {
    let v = find_variant(&path)?;
    Ok(HttpResponse::Ok().json(VariantInfo::of(v)))
}
