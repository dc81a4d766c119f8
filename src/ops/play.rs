//! Play moves from a position.

use arbiter_rules::{Budget, Variant};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{parse_position_counters, position_status, PositionStatus, Side};
use crate::problem::ApiError;

/// The position after the moves.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct PlayResponse {
    /// The variant id.
    #[schema(example = "international")]
    pub variant: String,
    /// FEN of the position after the moves.
    #[schema(
        example = "B:W28,31,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20"
    )]
    pub position: String,
    /// Canonical notation of each move played.
    #[schema(example = json!(["32-28"]))]
    pub moves: Vec<String>,
    /// The side to move in the new position.
    #[schema(example = "black")]
    pub side_to_move: Side,
    /// Whether the game is over in the new position (judged on its own; send the whole game
    /// to `/judge` for draws by repetition).
    pub status: PositionStatus,
}

/// Plays `texts` from `fen` (`None` = the start position), charged to `budget`: the work of
/// the play endpoint.
pub fn play_moves(
    v: &'static Variant,
    fen: Option<&str>,
    texts: &[String],
    budget: &Budget,
) -> Result<PlayResponse, ApiError> {
    let (mut pos, start_counters) = parse_position_counters(v, "position", fen)?;
    let mut counters = start_counters;
    let mut played = Vec::with_capacity(texts.len());
    for (index, text) in texts.iter().enumerate() {
        let d = v
            .parse_move(&pos, text, budget)
            .map_err(|e| ApiError::bad_move(index + 1, text, e))
            .map_err(|e| match v.describe_moves(&pos, budget) {
                Ok(ds) => e.with_legal_moves(ds.into_iter().map(|d| d.notation).collect()),
                Err(_) => e,
            })?;
        counters = counters.map(|c| c.after(v, pos.side(), &d.mv));
        pos = v.play(&pos, &d.mv);
        played.push(d.notation);
    }
    Ok(PlayResponse {
        variant: v.id().to_string(),
        position: v.fen_counters(&pos, counters),
        moves: played,
        side_to_move: pos.side().into(),
        status: position_status(v, &pos, budget)?,
    })
}
