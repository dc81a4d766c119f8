//! Rulesets as declarative values: the parameters in which the federations' rules differ.
//!
//! A variant's behaviour is entirely described by a [`Rules`] value: what each kind of piece
//! may do (directions, range, landing, whom it may capture), when captured pieces are removed,
//! which capture sequences take precedence, what a man reaching the promotion squares in the
//! middle of a capture does, and how the game ends. Move generation reads these values and
//! never looks at a variant's id.

use crate::board::DirSet;
use crate::draws::DrawRule;
use crate::ends::EndRule;
use crate::position::{Kind, KINDS};

/// How far a piece reaches when it captures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// The captured piece is adjacent; the capturer lands on the cell right behind it.
    Short,
    /// The captured piece may stand at any distance with only empty cells between.
    Flying(Landing),
}

/// Where a flying capturer may land behind the captured piece (P8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Landing {
    /// On any empty cell of the run behind it (International, Russian...), subject to the
    /// rule that it must land where the capture can continue if it can anywhere.
    Any,
    /// Only on the cell immediately behind it (Thai).
    Behind,
}

/// Range of a non-capturing move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Range {
    /// One step.
    Step,
    /// Any number of empty cells in a straight line.
    Slide,
    /// A linear move (Dameo): the piece and the unbroken line of its own men straight ahead
    /// of it advance one cell along that line, onto the empty cell in front of its head. The
    /// result is that the piece's cell empties and the cell in front of the head fills, so
    /// the move is written and played as a step from the tail to that cell. A line of one is
    /// an ordinary step; a king ends the line.
    Line,
}

/// What one kind of piece may do. Directions are given per colour: `[white, black]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceRules {
    /// Directions of non-capturing moves (empty: the piece never makes one).
    pub moves: [DirSet; 2],
    pub range: Range,
    /// Directions of captures.
    pub captures: [DirSet; 2],
    pub reach: Reach,
    /// Whether this piece may capture kings (P6; Italian men may not).
    pub captures_kings: bool,
    /// Maximum number of pieces captured in one move (0 = no limit).
    pub max_jumps: u8,
    /// What the piece becomes once it has captured (a parachutist becomes a man).
    pub after_capture: Kind,
    /// The killer rule (P8, Killer draughts): when the last piece this flying piece captures
    /// in a move is a king, it must stop on the square right behind that king. A landing from
    /// which the capture can go on is still compulsory (captures go on), so the rule only picks
    /// the landing square of the last jump. No effect on short-range pieces.
    pub halt_behind_last_king: bool,
}

impl PieceRules {
    /// A kind that does not occur in the variant.
    pub const ABSENT: PieceRules = PieceRules {
        moves: [DirSet::NONE; 2],
        range: Range::Step,
        captures: [DirSet::NONE; 2],
        reach: Reach::Short,
        captures_kings: true,
        max_jumps: 0,
        after_capture: Kind::Man,
        halt_behind_last_king: false,
    };
}

/// When captured pieces leave the board (P9).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Removal {
    /// After the whole sequence ("Turkish strike"): captured pieces block until then.
    Deferred,
    /// As each is jumped: the cell is empty at once.
    Immediate,
}

/// A man reaching a promotion square in the middle of a capture (P12).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MidCapturePromotion {
    /// It is crowned and the move ends there.
    End,
    /// It goes on capturing as a man; it is crowned only if the move ends there.
    Pass,
    /// It is crowned at once and goes on capturing as a king.
    KingContinue,
}

/// One step of the capture-precedence key (as dctl's rule traits order it). Sequences are compared
/// on these keys in order; only those with the largest key are legal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precedence {
    /// More pieces captured.
    Count,
    /// Higher total value of the captured pieces.
    Value { man: u16, king: u16 },
    /// A capture made by a king (a parachutist counts as a man).
    ByKing,
    /// More kings captured.
    KingsCaptured,
    /// Kings met earlier in the sequence (lexicographically smallest list of king indices).
    KingsEarly,
}

impl Precedence {
    pub fn describe(&self) -> String {
        match self {
            Precedence::Count => "most pieces captured".into(),
            Precedence::Value { man, king } => {
                format!("highest value captured (man {man}, king {king})")
            }
            Precedence::ByKing => "capture with a king".into(),
            Precedence::KingsCaptured => "most kings captured".into(),
            Precedence::KingsEarly => "kings captured earliest in the sequence".into(),
        }
    }
}

/// Which own piece an opening removal may take off the board ([`Rules::opening_removals`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpeningRemoval {
    /// A piece on one of these squares (algebraic names).
    Among(&'static [&'static str]),
    /// A piece with an empty cell next to it in one of these directions.
    NextToEmpty(DirSet),
}

impl OpeningRemoval {
    pub fn describe(&self) -> String {
        match self {
            OpeningRemoval::Among(squares) => {
                format!("removes one of its own pieces from {}", squares.join(", "))
            }
            OpeningRemoval::NextToEmpty(d) => format!(
                "removes one of its own pieces next to the empty square ({})",
                d.describe()
            ),
        }
    }
}

/// What the side to move with no legal move gets (P13).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// It loses (every standard variant).
    NoMovesLoses,
    /// It wins (anti variants).
    NoMovesWins,
    /// It passes: its only legal move is [`Move::PASS`](crate::moves::Move::PASS) (Hageby).
    /// Pair it with the `BOTH_BLOCKED` end rule, so that a game where neither side can move
    /// ends.
    NoMovesPasses,
}

/// A complete ruleset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Per [`Kind`], indexed by `Kind as usize`.
    pub pieces: [PieceRules; KINDS],
    pub removal: Removal,
    pub mid_capture_promotion: MidCapturePromotion,
    pub precedence: Vec<Precedence>,
    /// A capture may not continue in the direction it just came from (Turkish).
    pub no_reversal: bool,
    /// A capture sequence keeps the direction of its first jump (Konane).
    pub straight_captures: bool,
    /// A capture sequence may stop after any jump: each is a legal move of its own (Konane).
    /// Otherwise a sequence goes on while it can.
    pub capture_may_stop: bool,
    /// The first jump of a capture goes only in a direction the piece may step in; later
    /// jumps of the sequence go in any capture direction (BrainKing's Alquerque).
    pub first_jump_along_moves: bool,
    /// A piece may not go back to the point it came from on its side's previous move
    /// (BrainKing's Alquerque); positions keep each side's last move for it.
    pub no_return: bool,
    /// Opening plies that remove one of the mover's own pieces (Konane): step `i` applies
    /// while exactly `i` cells of the board are empty, and then it is the only kind of move.
    pub opening_removals: Vec<OpeningRemoval>,
    /// Stones each side holds in hand at the start (drop games: Vilbergen, Lahti, Hageby).
    /// While the side to move holds stones, its only moves are drops: one stone on any empty
    /// point. 0: no drops.
    pub stones_in_hand: u8,
    /// The game's first drop may not go on the goal point (the point of the
    /// `LAST_STONE_ON_GOAL` end rule): Salo's rules for Hageby and Lahti, not the Hungarian
    /// booklet's.
    pub first_drop_off_goal: bool,
    /// A man on its far rank makes no more non-capturing moves, only captures (Alquerque: a
    /// stone that has reached the opponent's base line). Used where men are never crowned.
    pub far_rank_frozen: bool,
    /// While its side still has men, the same king may make at most this many non-capturing
    /// moves in a row (Frisian: 3; 0 = no limit).
    pub king_quiet_limit: u8,
    pub goal: Goal,
    /// End rules that decide a game on the position alone (Breakthrough: the first side to
    /// crown a king wins), evaluated in this order after every move, before the "no legal
    /// move" rule. A position they decide has no legal moves.
    pub ends: Vec<EndRule>,
    /// Draw rules, evaluated in this order after the "no legal move" rule.
    pub draws: Vec<DrawRule>,
}

impl Rules {
    #[inline(always)]
    pub fn piece(&self, kind: Kind) -> &PieceRules {
        &self.pieces[kind as usize]
    }
}
