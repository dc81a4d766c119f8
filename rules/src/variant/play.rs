//! Playing a move, and what the rules say of a position's phase: opening removals, drops, a
//! side with nothing left or no move.

use crate::bits::Bits;
use crate::ends::EndKind;
use crate::moves::{Move, MoveKind};
use crate::position::{Color, Kind, KingRun, Position};
use crate::rules::{Goal, OpeningRemoval};

use super::Variant;

impl Variant {
    /// Plays a move generated for `pos`. The move is not checked: pass only moves from
    /// [`Variant::legal_moves`] for the same position.
    #[inline(always)]
    pub fn play(&self, pos: &Position, m: &Move) -> Position {
        let mut p = *pos;
        let me = pos.side as usize;
        let them = 1 - me;
        // A pass, a drop or an opening removal: no piece moves on the board.
        match m.kind() {
            MoveKind::Step | MoveKind::Capture => {}
            placement => {
                if placement == MoveKind::Drop {
                    p.put(pos.side, m.piece(), m.to() as usize);
                    p.hand[me] -= 1;
                } else if placement == MoveKind::Removal {
                    p.take(pos.side, m.piece(), m.from() as usize);
                }
                p.king_run = [KingRun::default(); 2];
                p.side = pos.side.opponent();
                return p;
            }
        }
        p.take(pos.side, m.piece(), m.from() as usize);
        // The captured pieces first: under immediate removal a capture may end on the square
        // of a piece it took.
        if m.is_capture() {
            p.take_all(pos.side.opponent(), m.captured());
        }
        p.put(pos.side, m.becomes(), m.to() as usize);
        if self.spec.rules.no_return {
            p.last[me] = [m.from(), m.to()];
            // A captured stone's last move no longer binds anything: forget it, so that the
            // position reads the same whichever way it was reached.
            let [_, their_to] = p.last[them];
            if their_to != crate::board::NONE && m.captured().contains(their_to as usize) {
                p.last[them] = [crate::board::NONE; 2];
            }
        }
        if self.leaps && self.castles[them].contains(m.from() as usize) {
            // A castle move: a step inside the enemy castle, the only move a piece there has.
            p.castle_moves[me] = p.castle_moves[me].saturating_add(1);
        }
        if self.spec.rules.king_quiet_limit != 0 {
            let limit = self.spec.rules.king_quiet_limit;
            let has_men = !p.pieces(pos.side, Kind::Man).is_empty();
            let run = &mut p.king_run[me];
            if m.piece() == Kind::King && !m.is_capture() && has_men {
                if run.count > 0 && run.cell == m.from() {
                    // Only "limit reached or not" matters: saturate, so that positions can
                    // repeat.
                    run.count = (run.count + 1).min(limit);
                } else {
                    run.count = 1;
                }
                run.cell = m.to();
            } else {
                // Men moved, a capture, or no men left (the rule no longer applies).
                *run = KingRun::default();
            }
            // A captured king's run ends with it, and a side whose last man was taken has no
            // run left (the limit binds only while it has men).
            let other_has_men = !p.pieces(pos.side.opponent(), Kind::Man).is_empty();
            let other = &mut p.king_run[them];
            if other.count > 0 && (m.captured().contains(other.cell as usize) || !other_has_men) {
                *other = KingRun::default();
            }
        }
        p.side = pos.side.opponent();
        p
    }

    /// Whether `color` has no piece on the board and none in hand: it has lost everything
    /// (the game is over, [`crate::Reason::NoPieces`] when it is not the side to move).
    #[inline(always)]
    pub fn has_nothing(&self, pos: &Position, color: Color) -> bool {
        pos.side_pieces(color).is_empty() && pos.hand(color) == 0
    }

    /// The opening removal step that applies in `pos`, if any: step `i` of
    /// [`Rules::opening_removals`] while exactly `i` cells are empty.
    #[inline(always)]
    pub fn opening_removal(&self, pos: &Position) -> Option<OpeningRemoval> {
        self.opening_removal_cells(pos).map(|(step, _)| step)
    }

    /// [`Variant::opening_removal`], with the cells the step names (an empty set for a step
    /// that names none).
    #[inline(always)]
    pub(crate) fn opening_removal_cells(&self, pos: &Position) -> Option<(OpeningRemoval, Bits)> {
        let steps = &self.spec.rules.opening_removals;
        if steps.is_empty() {
            return None;
        }
        let empty = self.board.cells().minus(pos.occupied()).len() as usize;
        steps
            .get(empty)
            .map(|&step| (step, self.removal_cells[empty]))
    }

    /// Whether some positions of the variant have placement moves only: opening removals
    /// (Konane) or drops. Checked once per generation, before the per-position tests.
    #[inline(always)]
    pub fn has_placements(&self) -> bool {
        self.placements
    }

    /// The points the side to move may not drop on: the goal point for the game's first drop
    /// (an empty board, both hands full) under [`Rules::first_drop_off_goal`].
    pub fn barred_drops(&self, pos: &Position) -> Bits {
        let r = &self.spec.rules;
        let first = pos.occupied().is_empty()
            && pos.hand(Color::White) == r.stones_in_hand
            && pos.hand(Color::Black) == r.stones_in_hand;
        if !(r.first_drop_off_goal && first) {
            return Bits::EMPTY;
        }
        r.ends
            .iter()
            .zip(&self.end_cells)
            .filter(|(e, _)| matches!(e.kind, EndKind::LastStoneArrives(_)))
            .fold(Bits::EMPTY, |goals, (_, cells)| goals.union(cells[0]))
    }

    /// Whether the side to move drops a stone (it still holds stones in hand).
    #[inline(always)]
    pub fn drops_now(&self, pos: &Position) -> bool {
        self.spec.rules.stones_in_hand != 0 && pos.hand(pos.side()) > 0
    }

    /// The verdict for a side that has no legal move.
    pub fn no_moves_winner(&self, side_to_move: Color) -> Color {
        match self.spec.rules.goal {
            // With passes a side always has a move; a position where neither side has any other
            // is decided by the BOTH_BLOCKED end rule.
            Goal::NoMovesLoses | Goal::NoMovesPasses => side_to_move.opponent(),
            Goal::NoMovesWins => side_to_move,
        }
    }
}
