//! PDN move text (PDN 3.0 move grammar and capture disambiguation) read: a move in short or
//! long form matched against the legal moves ([`Variant::parse_move`]), or why it matches
//! none ([`MoveError`]). The legal moves written out are [`super::listing`]'s.

use crate::budget::Budget;
use crate::budget::GenError;
use crate::notation::listing::DescribedMove;
use crate::notation::squares::{parse_squares, SquaresError};
use crate::notation::violation::Violation;
use crate::position::Position;
use crate::rules::Precedence;
use crate::variant::Found;
use crate::variant::Variant;

/// Work units charged for reading one move text, beyond the move generation it needs (the
/// text, the canonical route and notation of the move; about as much CPU as 64 search steps).
pub const MOVE_TEXT_UNITS: u64 = 64;

/// Why a move text does not name exactly one legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not move text at all.
    Syntax { reason: String },
    /// A square that does not exist on this board.
    UnknownSquare { square: String },
    /// Well-formed, but no legal move matches. `legal` lists every legal move; `violation`
    /// is the first rule the move breaks, `reason` says it in words, and `precedence` names
    /// the precedence rule when that is what decides ([`Violation::CapturePrecedence`]).
    Illegal {
        reason: String,
        legal: Vec<String>,
        violation: Violation,
        precedence: Option<Precedence>,
    },
    /// Several legal moves match; `candidates` gives each in long form.
    Ambiguous { candidates: Vec<String> },
    /// The position's capture sequences exceed the enumeration bound.
    Gen(GenError),
}

impl std::fmt::Display for MoveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MoveError::Syntax { reason } => write!(f, "not a move: {reason}"),
            MoveError::UnknownSquare { square } => {
                write!(f, "'{square}' is not a playable square of this board")
            }
            MoveError::Illegal { reason, .. } => write!(f, "illegal move: {reason}"),
            MoveError::Ambiguous { candidates } => write!(
                f,
                "ambiguous move: it matches {} legal moves ({}); write the capture in long form",
                candidates.len(),
                candidates.join(", ")
            ),
            MoveError::Gen(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for MoveError {}

impl MoveError {
    /// The rule the move breaks: an illegal move's [`Violation`], or
    /// [`Violation::NoSuchSquare`] for a square the board does not have.
    pub fn violation(&self) -> Option<Violation> {
        match self {
            MoveError::Illegal { violation, .. } => Some(*violation),
            MoveError::UnknownSquare { .. } => Some(Violation::NoSuchSquare),
            _ => None,
        }
    }

    /// The precedence rule an illegal capture loses on ([`Violation::CapturePrecedence`]).
    pub fn precedence(&self) -> Option<Precedence> {
        match self {
            MoveError::Illegal { precedence, .. } => *precedence,
            _ => None,
        }
    }
}

impl From<GenError> for MoveError {
    fn from(e: GenError) -> Self {
        MoveError::Gen(e)
    }
}

impl From<SquaresError> for MoveError {
    fn from(e: SquaresError) -> Self {
        match e {
            SquaresError::Syntax { reason } => MoveError::Syntax { reason },
            SquaresError::UnknownSquare { square } => MoveError::UnknownSquare { square },
        }
    }
}

impl Variant {
    /// Finds the legal move named by `text`, charged to `budget` ([`Budget::unlimited`]: no
    /// bound on the total work but the per-position capture bound).
    ///
    /// A text is *short* (`from-to`, `fromxto`) or *long*: the start, then every square where
    /// the piece changes direction, then the end; on a straight run the square where it lands
    /// between two captured pieces may be given too (PDN 3.0 reading rules). The text is matched
    /// against every route of the capture search as it is found (no route is refused, none
    /// is stored). A long form that names exactly one move plays it, even when its short
    /// reading would match several; a two-square text is otherwise read short, and is
    /// ambiguous only when two distinct moves share its start and end: the error then lists
    /// each candidate's long form, and each of those plays back. On algebraic boards the
    /// Russian short form is read too: `ed4`, the piece on the e-file that goes to d4.
    pub fn parse_move(
        &self,
        pos: &Position,
        text: &str,
        budget: &Budget,
    ) -> Result<DescribedMove, MoveError> {
        budget.charge(MOVE_TEXT_UNITS)?;
        let (found, matching, partial) = self.find_matching(pos, text, budget)?;
        self.one_of(pos, text, &found, matching, partial, budget)
    }

    /// Every legal move `text` may name, read as [`Variant::parse_move`] reads it: one
    /// move, or each candidate of an ambiguous text (at least one; otherwise the error says
    /// why none matches).
    pub fn matching_moves(
        &self,
        pos: &Position,
        text: &str,
        budget: &Budget,
    ) -> Result<Vec<DescribedMove>, MoveError> {
        budget.charge(MOVE_TEXT_UNITS)?;
        let (found, matching, partial) = self.find_matching(pos, text, budget)?;
        if matching.len() < 2 {
            return self
                .one_of(pos, text, &found, matching, partial, budget)
                .map(|d| vec![d]);
        }
        let mut moves: Vec<DescribedMove> = matching
            .into_iter()
            .map(|i| self.describe_one(&found, i))
            .collect();
        self.sort_moves(&mut moves);
        Ok(moves)
    }

    /// The legal captures of which `text` is an *incomplete* long form: start and end right,
    /// the other squares on one of the move's routes in order, some turning squares left out
    /// ([`crate::moves::names_route_partly`]). Only texts of three or more squares; a record
    /// reader's last resort, never used for the service's own input.
    pub fn partly_named_moves(
        &self,
        pos: &Position,
        text: &str,
        budget: &Budget,
    ) -> Result<Vec<DescribedMove>, MoveError> {
        let squares = parse_squares(self, text)?;
        if squares.len() < 3 {
            return Ok(Vec::new());
        }
        budget.charge(MOVE_TEXT_UNITS)?;
        let found = self.generate_matching(pos, budget, Some(&squares), true)?;
        Ok((0..found.len())
            .filter(|&i| found[i].named && found[i].mv.is_capture())
            .map(|i| self.describe_one(&found, i))
            .collect())
    }

    /// The legal moves of `pos`, the indices of those `text` names, and whether the text was a
    /// long form that names no route of a move with its start and end.
    fn find_matching(
        &self,
        pos: &Position,
        text: &str,
        budget: &Budget,
    ) -> Result<(Vec<Found>, Vec<usize>, bool), MoveError> {
        if text.trim().eq_ignore_ascii_case("pass") {
            let found = self.generate_described(pos, budget, None)?;
            let matching = (0..found.len())
                .filter(|&i| found[i].mv.is_pass())
                .collect();
            return Ok((found, matching, false));
        }
        if let Some((file, to)) = self.file_short_form(text) {
            let found = self.generate_described(pos, budget, None)?;
            let matching: Vec<usize> = (0..found.len())
                .filter(|&i| {
                    let m = &found[i].mv;
                    m.to() as usize == to && self.board().xy(m.from() as usize).0 == file
                })
                .collect();
            return Ok((found, matching, false));
        }
        let squares = parse_squares(self, text)?;
        let found = self.generate_described(pos, budget, Some(&squares))?;
        let named: Vec<usize> = (0..found.len()).filter(|&i| found[i].named).collect();
        if !named.is_empty() || squares.len() > 2 {
            let (from, to) = (squares[0], squares[squares.len() - 1]);
            let partial = squares.len() > 2
                && named.is_empty()
                && found
                    .iter()
                    .any(|f| f.mv.from() as usize == from && f.mv.to() as usize == to);
            return Ok((found, named, partial));
        }
        let (from, to) = (squares[0], squares[1]);
        let short: Vec<usize> = (0..found.len())
            .filter(|&i| found[i].mv.from() as usize == from && found[i].mv.to() as usize == to)
            .collect();
        Ok((found, short, false))
    }

    /// The move at the only index of `matching`, or why there is not exactly one (for no
    /// match, the first rule the text breaks: [`Variant::explain`], charged to `budget`).
    fn one_of(
        &self,
        pos: &Position,
        text: &str,
        found: &[Found],
        matching: Vec<usize>,
        partial_route: bool,
        budget: &Budget,
    ) -> Result<DescribedMove, MoveError> {
        match matching.len() {
            1 => Ok(self.describe_one(found, matching[0])),
            0 => {
                let legal: Vec<String> = self
                    .describe(found)
                    .into_iter()
                    .map(|d| d.notation)
                    .collect();
                let why = self.explain(pos, text, found, partial_route, budget)?;
                Err(MoveError::Illegal {
                    reason: why.reason,
                    legal,
                    violation: why.violation,
                    precedence: why.precedence,
                })
            }
            _ => {
                let mut moves: Vec<DescribedMove> = matching
                    .iter()
                    .map(|&i| self.describe_one(found, i))
                    .collect();
                self.sort_moves(&mut moves);
                Err(MoveError::Ambiguous {
                    candidates: moves.into_iter().map(|d| d.long).collect(),
                })
            }
        }
    }
}
