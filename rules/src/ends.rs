//! End rules as data: rules that decide a game on the position alone, with a stable reason code
//! each, beside the "no legal move" rule ([`crate::rules::Goal`]) and the draw rules
//! ([`crate::draws`]).
//!
//! The judge ([`crate::outcome`]) evaluates a variant's end rules, in its order, after every
//! move and before anything else: a position one of them decides is over, whatever moves the
//! pieces still have, so it has no legal moves either (perft counts no children below it, as
//! in Scan's Breakthrough). Because they need no history, the status of a single position
//! ([`crate::outcome::status`]) applies them too.
//!
//! A new end rule is a new [`EndKind`] (what it looks at and who wins) with its [`EndCode`];
//! a rule that can only hold once the game is over also says which setups it forbids
//! ([`EndKind::forbids_kings`]), so that no client can start a game that is already decided.

use crate::board::Board;
use crate::notation::squares::parse_algebraic;
use crate::position::{Color, Kind, Position};

/// The stable reason codes of the end rules (reported like `NO_LEGAL_MOVES` and the draw
/// codes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EndCode {
    /// A side crowned a king and so won the game (Breakthrough).
    KingCrowned,
    /// One king against one man: the king's side wins (Turkish).
    KingVsMan,
    /// One king against one king: a draw (Turkish).
    KingVsKing,
    /// A side occupied its goal point (Seth: the opponent's last point).
    GoalReached,
}

impl EndCode {
    pub fn code(self) -> &'static str {
        match self {
            EndCode::KingCrowned => "KING_CROWNED",
            EndCode::KingVsMan => "KING_VS_MAN",
            EndCode::KingVsKing => "KING_VS_KING",
            EndCode::GoalReached => "GOAL_REACHED",
        }
    }
}

/// How an end rule decides the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EndKind {
    /// The first side to crown a king wins: a side owning a king has won. Kings only come
    /// from promotion, which under the PASS rule needs a move that *ends* on the far row, so
    /// "a king on the board" and "a crowning move was played" are the same thing. Since such
    /// a position is already decided, no position to play from may hold a king.
    FirstKingWins,
    /// Exactly two pieces are left, a king of one side and a man of the other: the king's
    /// side wins, whoever is to move.
    LoneKingBeatsLoneMan,
    /// Exactly two pieces are left, a king each: the game is drawn.
    LoneKingsDraw,
    /// A side with a piece on its goal point (by algebraic name: `[white's, black's]`) has
    /// won; the side that has just moved is looked at first.
    Occupies([&'static str; 2]),
}

impl EndKind {
    /// Whether a position to play from (a start position, a FEN sent by a client) may not
    /// hold kings, because a king means this rule has already ended the game.
    pub fn forbids_kings(&self) -> bool {
        match self {
            EndKind::FirstKingWins => true,
            EndKind::LoneKingBeatsLoneMan | EndKind::LoneKingsDraw | EndKind::Occupies(_) => false,
        }
    }
}

/// What an end rule decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndOutcome {
    Win(Color),
    Draw,
}

/// One end rule of a variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndRule {
    pub code: EndCode,
    pub kind: EndKind,
    /// The rule as its sources state it, with the reading chosen where they differ.
    pub text: &'static str,
}

impl EndRule {
    /// Whether the rule ends the game in `pos`, and how.
    #[inline]
    pub fn decide(&self, board: &Board, pos: &Position) -> Option<EndOutcome> {
        match self.kind {
            EndKind::Occupies(goals) => {
                let mover = pos.side().opponent();
                [mover, pos.side()]
                    .into_iter()
                    .find(|&c| {
                        parse_algebraic(board, goals[c as usize])
                            .is_some_and(|g| pos.side_pieces(c).contains(g))
                    })
                    .map(EndOutcome::Win)
            }
            EndKind::FirstKingWins => {
                // The side that has just moved is the one that can have crowned; the side to
                // move can only own a king in a position the game never reaches (two kings
                // would need a move after the first crowning), but it is still decided.
                let mover = pos.side().opponent();
                [mover, pos.side()]
                    .into_iter()
                    .find(|&c| !pos.pieces(c, Kind::King).is_empty())
                    .map(EndOutcome::Win)
            }
            EndKind::LoneKingBeatsLoneMan => {
                let lone = |c: Color| {
                    (
                        pos.pieces(c, Kind::Man).len(),
                        pos.pieces(c, Kind::King).len(),
                    )
                };
                match (lone(Color::White), lone(Color::Black)) {
                    ((0, 1), (1, 0)) => Some(EndOutcome::Win(Color::White)),
                    ((1, 0), (0, 1)) => Some(EndOutcome::Win(Color::Black)),
                    _ => None,
                }
            }
            EndKind::LoneKingsDraw => (pos.occupied().len() == 2
                && pos.pieces(Color::White, Kind::King).len() == 1
                && pos.pieces(Color::Black, Kind::King).len() == 1)
                .then_some(EndOutcome::Draw),
        }
    }

    /// What ends the game, in words.
    pub fn trigger(&self) -> &'static str {
        match self.kind {
            EndKind::FirstKingWins => {
                "the first side to crown a king wins at once (a man must end its move on the \
                 far row; passing it during a capture does not count)"
            }
            EndKind::LoneKingBeatsLoneMan => {
                "when only a king of one side and a man of the other are left, the king's side \
                 wins, whoever is to move"
            }
            EndKind::LoneKingsDraw => "when only one king of each side is left, the game is drawn",
            EndKind::Occupies(_) => {
                "the first side to occupy its goal point (the opponent's last point) wins"
            }
        }
    }

    /// A readable statement of the rule: its code, trigger and sources.
    pub fn describe(&self) -> String {
        format!("{}: {}. {}", self.code.code(), self.trigger(), self.text)
    }
}

/// The first of `rules` that ends the game in `pos`.
#[inline]
pub fn decide(rules: &[EndRule], board: &Board, pos: &Position) -> Option<(EndCode, EndOutcome)> {
    rules
        .iter()
        .find_map(|r| r.decide(board, pos).map(|outcome| (r.code, outcome)))
}

/// Turkish (`other.md` §1, decided in rules/README): one king against one man wins for the
/// king's side, one king against one king is a draw.
pub fn lone_pieces(king_vs_man: &'static str, king_vs_king: &'static str) -> Vec<EndRule> {
    vec![
        EndRule {
            code: EndCode::KingVsMan,
            kind: EndKind::LoneKingBeatsLoneMan,
            text: king_vs_man,
        },
        EndRule {
            code: EndCode::KingVsKing,
            kind: EndKind::LoneKingsDraw,
            text: king_vs_king,
        },
    ]
}

/// Breakthrough (lidraughts, PlayStrategy, Scan): the first side to crown a king wins.
pub fn first_king_wins(text: &'static str) -> Vec<EndRule> {
    vec![EndRule {
        code: EndCode::KingCrowned,
        kind: EndKind::FirstKingWins,
        text,
    }]
}

/// Seth (`other.md` §8): the first side to occupy its goal point wins.
pub fn occupy_goal(goals: [&'static str; 2], text: &'static str) -> Vec<EndRule> {
    vec![EndRule {
        code: EndCode::GoalReached,
        kind: EndKind::Occupies(goals),
        text,
    }]
}
