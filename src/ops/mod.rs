//! The operations of Arbiter, shared by every front end: HTTP (`api`), the command line, and
//! whatever comes next. Each takes typed inputs and the [`Budget`](arbiter_rules::Budget) its
//! work is charged to, and gives a typed answer (the JSON of the HTTP answer and of the
//! command line) or an [`ApiError`] (a problem document). Nothing here knows HTTP: a front end
//! reads its input, calls one operation, and writes the answer.
//!
//! | operation | module |
//! |---|---|
//! | the catalogue, one variant's rules | [`variants`] |
//! | the legal moves of a position | [`moves`] |
//! | play moves | [`play`] |
//! | judge a game | [`judge`] |
//! | judge a PDN file, or a stream of records of any size | [`records`] |
//! | the endgame tables: a position's value and its moves' | [`endgame`] |
//! | perft and divide | [`perft`] |
//! | build endgame table files: a set's plan, one material, a whole set | [`build`] |
//! | a diagram (SVG) | [`diagram`] |

pub mod build;
pub mod diagram;
pub mod endgame;
pub mod judge;
pub mod moves;
pub mod perft;
pub mod play;
pub mod records;
pub mod variants;

use arbiter_rules::{Color, Counters, Position, Status, Variant};
use serde::Serialize;
use utoipa::ToSchema;

use crate::config::MAX_MOVES;
use crate::problem::ApiError;

/// The variant with this id (in any case) or alias (`standard`, `Frysk!`: the names
/// lidraughts, PlayStrategy and pydraughts use), or the 404 problem listing the known ids.
pub fn find_variant(id: &str) -> Result<&'static Variant, ApiError> {
    arbiter_rules::variant_named(id).ok_or_else(|| ApiError::unknown_variant(id))
}

/// Parses an optional FEN (`None` = the start position) sent in `field`.
pub fn parse_position(
    variant: &Variant,
    field: &str,
    fen: Option<&str>,
) -> Result<Position, ApiError> {
    parse_position_counters(variant, field, fen).map(|(pos, _)| pos)
}

/// [`parse_position`], with lidraughts' move counters (`:H<n>:F<n>`) when the FEN has them;
/// answers write them back in the FENs they give ([`arbiter_rules::Variant::fen_counters`]).
pub fn parse_position_counters(
    variant: &Variant,
    field: &str,
    fen: Option<&str>,
) -> Result<(Position, Option<Counters>), ApiError> {
    match fen {
        None => Ok((variant.start(), None)),
        Some(text) => variant
            .parse_fen_counters(text)
            .map_err(|e| ApiError::invalid_position(field, &e)),
    }
}

/// The counters after the moves `moves` played from a position where `first` was to move.
pub fn counters_after<'a>(
    variant: &Variant,
    counters: Option<Counters>,
    first: Color,
    moves: impl IntoIterator<Item = &'a arbiter_rules::Move>,
) -> Option<Counters> {
    let mut c = counters?;
    let mut side = first;
    for m in moves {
        c = c.after(variant, side, m);
        side = side.opponent();
    }
    Some(c)
}

/// A side. Sides are always "white" and "black", whatever the colours of a given set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    White,
    Black,
}

impl From<Color> for Side {
    fn from(c: Color) -> Side {
        match c {
            Color::White => Side::White,
            Color::Black => Side::Black,
        }
    }
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum GameState {
    Ongoing,
    WhiteWins,
    BlackWins,
    Draw,
}

/// The state of a position judged on its own (repetition needs the game's history: use
/// `/judge` for that).
#[derive(Clone, Debug, Serialize, serde::Deserialize, ToSchema)]
pub struct PositionStatus {
    /// `ongoing`, `white_wins`, `black_wins` or `draw`.
    #[schema(example = "ongoing")]
    pub state: GameState,
    /// Why the game is over (`NO_LEGAL_MOVES`, `KING_CROWNED`, `REPETITION`...); null while it
    /// goes on.
    #[schema(example = json!(null))]
    pub reason: Option<String>,
}

impl From<Status> for PositionStatus {
    fn from(s: Status) -> PositionStatus {
        match s {
            Status::Ongoing => PositionStatus {
                state: GameState::Ongoing,
                reason: None,
            },
            Status::Won { winner, reason } => PositionStatus {
                state: match winner {
                    Color::White => GameState::WhiteWins,
                    Color::Black => GameState::BlackWins,
                },
                reason: Some(reason.code().to_string()),
            },
            Status::Drawn { reason } => PositionStatus {
                state: GameState::Draw,
                reason: Some(reason.code().to_string()),
            },
        }
    }
}

/// The status of `pos` (charged to `budget`), or the engine's problem.
pub fn position_status(
    variant: &Variant,
    pos: &Position,
    budget: &arbiter_rules::Budget,
) -> Result<PositionStatus, ApiError> {
    arbiter_rules::status(variant, pos, budget)
        .map(PositionStatus::from)
        .map_err(|e| ApiError::engine(&e))
}

/// Checks the number of moves of a request against [`MAX_MOVES`].
pub fn check_move_count(n: usize) -> Result<(), ApiError> {
    if n > MAX_MOVES {
        Err(ApiError::too_many_moves(n))
    } else {
        Ok(())
    }
}
