//! End of game and draw rules: the judge's core.
//!
//! Evaluation order (`diagonal.md` §4.0): after each move, first whether the side to move has
//! a legal move (none: the game is won or, in anti variants, lost), then the draw rules.
//! Draws by agreement, resignation and time are outside the rules.

use std::collections::HashMap;

use crate::gen::GenError;
use crate::notation::movetext::{DescribedMove, MoveError};
use crate::position::{Color, Position};
use crate::variant::Variant;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The side to move has no legal move (no pieces, or all blocked).
    NoLegalMoves,
    /// The same position (same side to move) occurred the variant's number of times.
    Repetition,
}

impl Reason {
    /// The stable reason code (`diagonal.md` §4.12).
    pub fn code(self) -> &'static str {
        match self {
            Reason::NoLegalMoves => "NO_LEGAL_MOVES",
            Reason::Repetition => "REPETITION",
        }
    }
}

/// The state of a single position, without history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Ongoing,
    Won { winner: Color, reason: Reason },
    Drawn { reason: Reason },
}

/// The status of a position judged on its own (no repetition history).
pub fn status(variant: &Variant, pos: &Position) -> Result<Status, GenError> {
    if variant.legal_moves(pos)?.is_empty() {
        Ok(Status::Won {
            winner: variant.no_moves_winner(pos.side()),
            reason: Reason::NoLegalMoves,
        })
    } else {
        Ok(Status::Ongoing)
    }
}

/// A verdict on a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    WhiteWins,
    BlackWins,
    Draw,
    /// The moves are legal but the rules do not end the game.
    Undecided,
    /// A move is not legal.
    Invalid,
}

impl Verdict {
    pub fn win_for(c: Color) -> Verdict {
        match c {
            Color::White => Verdict::WhiteWins,
            Color::Black => Verdict::BlackWins,
        }
    }
}

/// The first move of a game that is not legal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// 1-based ply.
    pub ply: usize,
    pub text: String,
    pub error: MoveError,
    /// The legal moves at that point, in canonical notation.
    pub legal: Vec<String>,
}

/// The judge's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judgement {
    pub verdict: Verdict,
    pub reason: Option<Reason>,
    /// The ply after which a rule ended the game (0 = the start position itself).
    pub decided_at_ply: Option<usize>,
    /// The legal moves played, in canonical notation.
    pub moves: Vec<DescribedMove>,
    pub final_position: Position,
    pub illegal: Option<IllegalMove>,
    /// Moves given after the rules had ended the game; they are not judged.
    pub moves_after_end: usize,
}

/// Plays `moves` from `start` and judges the game.
pub fn judge<S: AsRef<str>>(
    variant: &Variant,
    start: Position,
    moves: &[S],
) -> Result<Judgement, GenError> {
    let mut pos = start;
    let mut seen: HashMap<Position, u8> = HashMap::new();
    seen.insert(pos, 1);
    let mut played = Vec::new();
    let mut ended = end_state(variant, &pos, 1)?;
    let mut decided_at = ended.map(|_| 0);
    for (i, text) in moves.iter().enumerate() {
        if ended.is_some() {
            break;
        }
        let text = text.as_ref();
        match variant.parse_move(&pos, text) {
            Ok(d) => {
                pos = variant.play(&pos, &d.mv);
                played.push(d);
                let n = seen.entry(pos).or_insert(0);
                *n = n.saturating_add(1);
                let count = *n;
                ended = end_state(variant, &pos, count)?;
                if ended.is_some() {
                    decided_at = Some(i + 1);
                }
            }
            Err(MoveError::Gen(e)) => return Err(e),
            Err(error) => {
                let legal = match &error {
                    MoveError::Illegal { legal, .. } => legal.clone(),
                    _ => variant
                        .describe_moves(&pos)?
                        .into_iter()
                        .map(|d| d.notation)
                        .collect(),
                };
                return Ok(Judgement {
                    verdict: Verdict::Invalid,
                    reason: None,
                    decided_at_ply: None,
                    moves: played,
                    final_position: pos,
                    illegal: Some(IllegalMove {
                        ply: i + 1,
                        text: text.to_string(),
                        error,
                        legal,
                    }),
                    moves_after_end: 0,
                });
            }
        }
    }
    let plies = played.len();
    let (verdict, reason) = match ended {
        Some(Status::Won { winner, reason }) => (Verdict::win_for(winner), Some(reason)),
        Some(Status::Drawn { reason }) => (Verdict::Draw, Some(reason)),
        _ => (Verdict::Undecided, None),
    };
    Ok(Judgement {
        verdict,
        reason,
        decided_at_ply: decided_at,
        moves: played,
        final_position: pos,
        illegal: None,
        moves_after_end: moves.len() - plies,
    })
}

/// Whether the game is over in `pos`, reached for the `count`-th time.
fn end_state(variant: &Variant, pos: &Position, count: u8) -> Result<Option<Status>, GenError> {
    match status(variant, pos)? {
        Status::Ongoing => {}
        s => return Ok(Some(s)),
    }
    if count >= variant.rules().repetition {
        return Ok(Some(Status::Drawn {
            reason: Reason::Repetition,
        }));
    }
    Ok(None)
}
