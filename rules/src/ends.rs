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

use crate::bits::Bits;
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
    /// A side lost its last piece, with none left in hand (Vilbergen, Lahti, Hageby, the
    /// Camelot family).
    AllCaptured,
    /// A side moved its last stone onto the goal point (Vilbergen, Lahti, Hageby).
    LastStoneOnGoal,
    /// Neither side has a legal move but a pass (Hageby): a draw.
    BothBlocked,
    /// A side took the opponent's castle (the Camelot family).
    CastleTaken,
    /// Neither side has pieces enough left to win: a draw (Camelot: one piece each, or one
    /// against none).
    InsufficientMaterial,
    /// The side to move has no legal move, but the opponent has too few pieces left to win
    /// by it: a draw (Camelot).
    StalemateDraw,
}

impl EndCode {
    pub fn code(self) -> &'static str {
        match self {
            EndCode::KingCrowned => "KING_CROWNED",
            EndCode::KingVsMan => "KING_VS_MAN",
            EndCode::KingVsKing => "KING_VS_KING",
            EndCode::GoalReached => "GOAL_REACHED",
            EndCode::AllCaptured => "ALL_CAPTURED",
            EndCode::LastStoneOnGoal => "LAST_STONE_ON_GOAL",
            EndCode::BothBlocked => "BOTH_BLOCKED",
            EndCode::CastleTaken => "CASTLE_TAKEN",
            EndCode::InsufficientMaterial => "INSUFFICIENT_MATERIAL",
            EndCode::StalemateDraw => "STALEMATE_DRAW",
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
    /// A side with no stone on the board and none in hand has lost (the side to move is
    /// looked at first: it is the one a capture can just have emptied).
    AllCaptured,
    /// The side that has just moved wins when it has exactly one stone left, none in hand, and
    /// that stone stands on the goal point (by algebraic name): with one stone, the move just
    /// played was that stone's, so it has just moved onto the goal (a step or a capture that
    /// ends there). A lone stone of the side to move standing on the goal does not win: it
    /// must move onto it again.
    LastStoneArrives(&'static str),
    /// Neither side has a legal move other than a pass, so passing would go on for ever: a
    /// draw. The only end rule that needs move generation (for both sides).
    BothBlocked,
    /// A side with a piece on every square of the opponent's castle ([`crate::rules::Castles`])
    /// has won; the side that has just moved is looked at first. With a castle of one square
    /// (Cam), the first piece to enter it wins, even in the middle of a move (a move ends on
    /// entering the enemy castle).
    CastleTaken,
    /// Neither side has more than this many pieces on the board (and none in hand): the game
    /// is drawn. Placed before [`EndKind::AllCaptured`], it makes capturing every enemy piece
    /// a win only for a side that keeps more (Camelot: one).
    AtMostPiecesEach(u8),
    /// The side to move has no legal move other than a pass and the opponent has fewer than
    /// this many pieces: the game is drawn instead of lost (Camelot: a stalemate wins only for
    /// a side with two pieces or more). Needs move generation, for positions where the
    /// opponent is that short only.
    StalemateNeedsPieces(u8),
}

impl EndKind {
    /// Whether a position to play from (a start position, a FEN sent by a client) may not
    /// hold kings, because a king means this rule has already ended the game.
    pub fn forbids_kings(&self) -> bool {
        match self {
            EndKind::FirstKingWins => true,
            EndKind::LoneKingBeatsLoneMan
            | EndKind::LoneKingsDraw
            | EndKind::Occupies(_)
            | EndKind::AllCaptured
            | EndKind::LastStoneArrives(_)
            | EndKind::BothBlocked
            | EndKind::CastleTaken
            | EndKind::AtMostPiecesEach(_)
            | EndKind::StalemateNeedsPieces(_) => false,
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
    /// Whether the rule ends the game in `pos`, and how; `cells` are the cells the rule names,
    /// resolved on the variant's board ([`crate::variant::Variant::end_cells`]: each side's
    /// goal), and `can_move` says whether the side to move of a position has a legal move
    /// other than a pass.
    #[inline]
    pub fn decide(
        &self,
        cells: &[Bits; 2],
        pos: &Position,
        can_move: impl Fn(&Position) -> bool,
    ) -> Option<EndOutcome> {
        match self.kind {
            EndKind::BothBlocked => (!can_move(pos)
                && !can_move(&pos.with_side(pos.side().opponent())))
            .then_some(EndOutcome::Draw),
            EndKind::Occupies(_) => {
                let mover = pos.side().opponent();
                [mover, pos.side()]
                    .into_iter()
                    .find(|&c| !pos.side_pieces(c).intersect(cells[c as usize]).is_empty())
                    .map(EndOutcome::Win)
            }
            EndKind::CastleTaken => {
                let mover = pos.side().opponent();
                [mover, pos.side()]
                    .into_iter()
                    .find(|&c| {
                        let goal = cells[c as usize];
                        !goal.is_empty() && pos.side_pieces(c).intersect(goal) == goal
                    })
                    .map(EndOutcome::Win)
            }
            EndKind::AllCaptured => [pos.side(), pos.side().opponent()]
                .into_iter()
                .find(|&c| pos.hand(c) == 0 && pos.side_pieces(c).is_empty())
                .map(|loser| EndOutcome::Win(loser.opponent())),
            EndKind::LastStoneArrives(_) => {
                let mover = pos.side().opponent();
                let stones = pos.side_pieces(mover);
                (pos.hand(mover) == 0
                    && stones.is_single()
                    && !stones.intersect(cells[mover as usize]).is_empty())
                .then_some(EndOutcome::Win(mover))
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
            // The counts are tested without population counts (see `Bits::more_than`): these
            // rules run before every generation.
            EndKind::LoneKingBeatsLoneMan => {
                // A side's only piece is of this kind.
                let lone = |c: Color, k: Kind| {
                    let p = pos.pieces(c, k);
                    p.is_single() && p == pos.side_pieces(c)
                };
                let (w, b) = (Color::White, Color::Black);
                if lone(w, Kind::King) && lone(b, Kind::Man) {
                    Some(EndOutcome::Win(w))
                } else if lone(w, Kind::Man) && lone(b, Kind::King) {
                    Some(EndOutcome::Win(b))
                } else {
                    None
                }
            }
            EndKind::AtMostPiecesEach(n) => Color::BOTH
                .into_iter()
                .all(|c| pos.hand(c) == 0 && !pos.side_pieces(c).more_than(n as u32))
                .then_some(EndOutcome::Draw),
            EndKind::StalemateNeedsPieces(n) => (n > 0
                && !pos
                    .side_pieces(pos.side().opponent())
                    .more_than((n as u32).saturating_sub(1))
                && !can_move(pos))
            .then_some(EndOutcome::Draw),
            EndKind::LoneKingsDraw => {
                let kings = |c: Color| pos.pieces(c, Kind::King);
                let (w, b) = (kings(Color::White), kings(Color::Black));
                (w.is_single() && b.is_single() && pos.occupied() == w.union(b))
                    .then_some(EndOutcome::Draw)
            }
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
            EndKind::AllCaptured => {
                "a side that has lost all its pieces, with none left in hand, loses"
            }
            EndKind::CastleTaken => {
                "a side that occupies every square of the opponent's castle wins at once (a \
                 piece entering the enemy castle ends its move there)"
            }
            EndKind::BothBlocked => {
                "when neither side has a legal move other than a pass, the game is drawn"
            }
            EndKind::AtMostPiecesEach(1) => {
                "when neither side has more than one piece left, the game is drawn (so \
                 capturing every enemy piece wins only for a side that keeps two or more)"
            }
            EndKind::AtMostPiecesEach(_) => {
                "when neither side has more pieces left than the rule's bound, the game is drawn"
            }
            EndKind::StalemateNeedsPieces(_) => {
                "a side left without a legal move loses only to an opponent with two pieces or \
                 more; against a lone piece the game is drawn"
            }
            EndKind::LastStoneArrives(_) => {
                "a side that moves its last remaining stone onto the goal point (a step, or a \
                 capture whose last jump ends there) wins; a last stone already standing on the \
                 goal must move onto it again"
            }
        }
    }

    /// A readable statement of the rule: its code, trigger and sources.
    pub fn describe(&self) -> String {
        format!("{}: {}. {}", self.code.code(), self.trigger(), self.text)
    }
}

/// The first of `rules` that ends the game in `pos`; `cells` holds the cells each rule names,
/// rule by rule (`cells`, `can_move`: see [`EndRule::decide`]).
#[inline]
pub fn decide(
    rules: &[EndRule],
    cells: &[[Bits; 2]],
    pos: &Position,
    can_move: impl Fn(&Position) -> bool,
) -> Option<(EndCode, EndOutcome)> {
    rules.iter().zip(cells).find_map(|(r, cells)| {
        r.decide(cells, pos, &can_move)
            .map(|outcome| (r.code, outcome))
    })
}

/// Turkish (the Polish article "Warcaby ortogonalne 8×8", newer Wikipedia): one king against
/// one man wins for the king's side, one king against one king is a draw.
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

/// Seth ("Dámajátékok Hétpróbára"): the first side to occupy its goal point wins.
pub fn occupy_goal(goals: [&'static str; 2], text: &'static str) -> Vec<EndRule> {
    vec![EndRule {
        code: EndCode::GoalReached,
        kind: EndKind::Occupies(goals),
        text,
    }]
}

/// Cam and the knights' game: a side that occupies the opponent's castle wins
/// (`CASTLE_TAKEN`), and so does a side that captures every enemy piece (`ALL_CAPTURED`).
pub fn castle_or_all_captured(castle: &'static str, all: &'static str) -> Vec<EndRule> {
    vec![
        EndRule {
            code: EndCode::CastleTaken,
            kind: EndKind::CastleTaken,
            text: castle,
        },
        EndRule {
            code: EndCode::AllCaptured,
            kind: EndKind::AllCaptured,
            text: all,
        },
    ]
}

/// Camelot (World Camelot Federation): a side that occupies both squares of the opponent's
/// castle wins (`CASTLE_TAKEN`); neither side with more than one piece is a draw
/// (`INSUFFICIENT_MATERIAL`), so capturing every enemy piece wins (`ALL_CAPTURED`) only with
/// two pieces or more, and so does leaving the opponent without a move (else
/// `STALEMATE_DRAW`).
pub fn camelot(
    castle: &'static str,
    material: &'static str,
    all: &'static str,
    stalemate: &'static str,
) -> Vec<EndRule> {
    vec![
        EndRule {
            code: EndCode::CastleTaken,
            kind: EndKind::CastleTaken,
            text: castle,
        },
        EndRule {
            code: EndCode::InsufficientMaterial,
            kind: EndKind::AtMostPiecesEach(1),
            text: material,
        },
        EndRule {
            code: EndCode::AllCaptured,
            kind: EndKind::AllCaptured,
            text: all,
        },
        EndRule {
            code: EndCode::StalemateDraw,
            kind: EndKind::StalemateNeedsPieces(2),
            text: stalemate,
        },
    ]
}

/// The drop games (Markus Salo's rules): a side without stones loses (`ALL_CAPTURED`), and a side
/// that moves its last stone onto the goal point wins (`LAST_STONE_ON_GOAL`).
pub fn last_stone_goal(goal: &'static str, all: &'static str, last: &'static str) -> Vec<EndRule> {
    vec![
        EndRule {
            code: EndCode::AllCaptured,
            kind: EndKind::AllCaptured,
            text: all,
        },
        EndRule {
            code: EndCode::LastStoneOnGoal,
            kind: EndKind::LastStoneArrives(goal),
            text: last,
        },
    ]
}

/// Hageby (Salo's Zillions rules file): as [`last_stone_goal`], and a position where neither
/// side can move but pass is a draw (`BOTH_BLOCKED`).
pub fn last_stone_goal_or_blocked(
    goal: &'static str,
    all: &'static str,
    last: &'static str,
    blocked: &'static str,
) -> Vec<EndRule> {
    let mut rules = last_stone_goal(goal, all, last);
    rules.push(EndRule {
        code: EndCode::BothBlocked,
        kind: EndKind::BothBlocked,
        text: blocked,
    });
    rules
}
