//! The leap generator: the moves of games whose pieces canter (the Camelot family), with their
//! castles ([`Rules::castles`]).
//!
//! A piece steps to an adjacent empty square, canters (leaps over an adjacent piece of its
//! own side onto the empty square behind it, as often as it likes, stopping on any landing)
//! or captures (leaps over an adjacent enemy piece, which is removed at once, and goes on
//! while it can). A piece that may charge (a knight) canters and then captures in one move
//! (never captures, then canters). Once one of its canters lands where a capture is possible,
//! the move must capture: there, or further on after more canters (the World Camelot
//! Federation's knight's charge: it must jump "unless it captures elsewhere in the same
//! move"); it may no longer stop on a landing. No square is landed on twice in one move, the
//! start square included.
//!
//! The capture obligation comes only from captures a piece can make from where it stands:
//! then every legal move captures (capture sequences, and charges that capture). A piece of
//! the side to move standing in its own castle must leave it this move, whatever captures
//! there are elsewhere; among the moves that leave the castle the obligation applies as
//! everywhere (if a piece there can capture its way out, every legal move is a capture out
//! of the castle, by it or by the other piece there). A piece that lands in the enemy castle
//! ends its move there and never leaves that castle: where the rules allow castle moves
//! ([`crate::rules::Castles::moves`]), it may step to another square of it while its side
//! has castle moves left and no capture to make.
//!
//! Every route is enumerated (depth first, no square twice), and routes are collapsed by
//! move identity (start, end, captured set), piece by piece: a non-capturing move by its end
//! (a lookup in a cell-indexed array), a capture by its end and captured set (a hash table). The route kept for a move is its canonical one:
//! the fewest landings, then the first in cell order. The search counts its steps against the
//! capture bound and the request's budget, like the capture search.

use std::collections::HashMap;

use crate::bits::{Bits, MAX_CELLS};
use crate::board::{Board, NONE};
use crate::budget::{Budget, GenError};
use crate::moves::{Jump, Move, Route};
use crate::position::{Color, Kind, Position};
use crate::rules::Rules;

/// A legal move of the leap generator with its canonical route and whether a move text
/// names one of its routes.
#[derive(Clone, Debug)]
pub(crate) struct LeapMove {
    pub mv: Move,
    pub route: Route,
    pub named: bool,
    /// Whether one of its routes starts with a capture (not a canter).
    pub direct: bool,
}

/// The search over one position.
pub(crate) struct Leaps<'a> {
    board: &'a Board,
    rules: &'a Rules,
    color: Color,
    own: Bits,
    enemy: Bits,
    occupied: Bits,
    /// The side to move's own castle and the enemy's.
    own_castle: Bits,
    enemy_castle: Bits,
    /// Squares of a move text to match routes against (start first).
    text: Option<&'a [usize]>,
    /// Whether each move keeps its canonical route (notation needs it; counting does not).
    routes: bool,
    /// Search steps taken, and the most allowed.
    pub steps: u32,
    limit: u32,
    capture_limit: u32,
    budget: &'a Budget,
    /// The moving piece and its kind.
    from: usize,
    kind: Kind,
    /// The legs of the route being searched.
    legs: Vec<Jump>,
    /// Only moves that capture are kept.
    captures_only: bool,
    pub found: Vec<LeapMove>,
    /// The moves of the piece being searched (moves of different pieces never share an
    /// identity): the destinations of its non-capturing moves with their index in `found`,
    /// and its capturing moves by end and captured set.
    quiet_to: Bits,
    quiet_at: [u32; MAX_CELLS],
    captures_at: HashMap<(u8, Bits), u32>,
}

impl<'a> Leaps<'a> {
    /// A search of `pos`, whose castles are `castles` (`[white's, black's]`); `routes`: keep
    /// each move's canonical route.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        board: &'a Board,
        rules: &'a Rules,
        castles: [Bits; 2],
        pos: &Position,
        capture_limit: u32,
        budget: &'a Budget,
        text: Option<&'a [usize]>,
        routes: bool,
    ) -> Leaps<'a> {
        let me = pos.side();
        Leaps {
            board,
            rules,
            color: me,
            own: pos.side_pieces(me),
            enemy: pos.side_pieces(me.opponent()),
            occupied: pos.occupied(),
            own_castle: castles[me as usize],
            enemy_castle: castles[me.opponent() as usize],
            text,
            routes,
            steps: 0,
            limit: capture_limit.min(budget.left().min(u32::MAX as u64) as u32),
            capture_limit,
            budget,
            from: 0,
            kind: Kind::Man,
            legs: Vec::new(),
            captures_only: false,
            found: Vec::new(),
            quiet_to: Bits::EMPTY,
            quiet_at: [0; MAX_CELLS],
            captures_at: HashMap::new(),
        }
    }

    /// Why the search stopped early.
    fn stop_reason(&self) -> GenError {
        super::stop_reason(
            self.budget.cancelled(),
            self.limit,
            self.capture_limit,
            self.budget,
        )
    }

    #[inline]
    fn step(&mut self) -> Result<(), GenError> {
        self.steps += 1;
        if self.steps > self.limit || (self.steps & 0xfff == 0 && self.budget.cancelled()) {
            return Err(self.stop_reason());
        }
        Ok(())
    }

    /// Generates the legal moves of the position into [`Leaps::found`].
    pub(crate) fn run(&mut self, pos: &Position) -> Result<(), GenError> {
        let movers = self.own.minus(self.enemy_castle);
        let leaving = movers.intersect(self.own_castle);
        if !leaving.is_empty() {
            // A piece in its own castle must leave it now, whatever captures there are
            // elsewhere. Among the moves that leave it, the capture obligation applies as
            // everywhere: if one of the pieces there can capture on its way out, every legal
            // move is a capture out of the castle (by any of them).
            for cell in leaving.iter() {
                let kind = self.kind_at(pos, cell);
                let before = self.found.len();
                self.piece(cell, kind, true)?;
                self.drop_ending_in_castle(before);
            }
            if !self.found.iter().any(|m| m.direct) {
                self.truncate(0);
                for cell in leaving.iter() {
                    let kind = self.kind_at(pos, cell);
                    let before = self.found.len();
                    self.piece(cell, kind, false)?;
                    self.drop_ending_in_castle(before);
                }
            }
            return Ok(());
        }
        let obliged = movers.iter().any(|cell| {
            let kind = self.kind_at(pos, cell);
            self.can_capture(kind, cell, Bits::single(cell))
        });
        for cell in movers.iter() {
            let kind = self.kind_at(pos, cell);
            self.piece(cell, kind, obliged)?;
        }
        let allowed = self.rules.castles.map_or(0, |c| c.moves);
        if !obliged && pos.castle_moves(self.color) < allowed {
            for cell in self.own.intersect(self.enemy_castle).iter() {
                let kind = self.kind_at(pos, cell);
                self.castle_moves(cell, kind)?;
            }
        }
        Ok(())
    }

    /// The castle moves of the piece of `kind` standing in the enemy castle on `from`: steps
    /// to an empty square of the same castle. They are not captures, so a capture elsewhere
    /// takes precedence.
    fn castle_moves(&mut self, from: usize, kind: Kind) -> Result<(), GenError> {
        self.from = from;
        self.kind = kind;
        self.captures_only = false;
        self.legs.clear();
        self.quiet_to = Bits::EMPTY;
        self.captures_at.clear();
        for d in self.rules.piece(kind).moves[self.color as usize].iter() {
            let to = self.board.next(from, d);
            if to != NONE
                && self.enemy_castle.contains(to as usize)
                && !self.occupied.contains(to as usize)
            {
                self.step()?;
                self.emit(to as usize, Bits::EMPTY);
            }
        }
        Ok(())
    }

    fn kind_at(&self, pos: &Position, cell: usize) -> Kind {
        pos.piece_at(cell).map_or(Kind::Man, |(_, k)| k)
    }

    /// Drops the moves found from `before` on that end in the side's own castle.
    fn drop_ending_in_castle(&mut self, before: usize) {
        let castle = self.own_castle;
        let mut kept: Vec<LeapMove> = self.found.drain(before..).collect();
        kept.retain(|m| !castle.contains(m.mv.to() as usize));
        self.found.extend(kept);
    }

    fn truncate(&mut self, len: usize) {
        self.found.truncate(len);
    }

    /// The moves of the piece of `kind` on `from`: steps, canters, captures and charges
    /// (`captures_only`: only those that capture).
    fn piece(&mut self, from: usize, kind: Kind, captures_only: bool) -> Result<(), GenError> {
        let pr = self.rules.piece(kind);
        let c = self.color as usize;
        self.from = from;
        self.kind = kind;
        self.captures_only = captures_only;
        self.legs.clear();
        self.quiet_to = Bits::EMPTY;
        self.captures_at.clear();
        if !captures_only {
            for d in pr.moves[c].iter() {
                let to = self.board.next(from, d);
                if to != NONE
                    && !self.occupied.contains(to as usize)
                    && !self.own_castle.contains(to as usize)
                {
                    self.step()?;
                    self.emit(to as usize, Bits::EMPTY);
                }
            }
        }
        let visited = Bits::single(from);
        self.captures(from, visited, Bits::EMPTY)?;
        if pr.canter && (pr.charge || !captures_only) {
            self.canters(from, visited, pr.charge, false)?;
        }
        Ok(())
    }

    /// Whether a piece of `kind` on `cell` can capture (before anything is captured),
    /// landing on an empty square not in `visited`. The moving piece has left its start
    /// square, which is in `visited`.
    fn can_capture(&self, kind: Kind, cell: usize, visited: Bits) -> bool {
        let dirs = self.rules.piece(kind).captures[self.color as usize];
        dirs.iter().any(|d| {
            let [over, land] = self.board.jump(cell, d);
            over != NONE
                && self.enemy.contains(over as usize)
                && !self.occupied.contains(land as usize)
                && !visited.contains(land as usize)
        })
    }

    /// Canters from `cell`: every landing is a move of its own, unless the move must capture
    /// (`owed`: a landing of a charge before this one offered a capture). A charging piece
    /// captures from every landing that offers a capture, and canters on from it too, owing a
    /// capture from then on.
    fn canters(
        &mut self,
        cell: usize,
        visited: Bits,
        charge: bool,
        owed: bool,
    ) -> Result<(), GenError> {
        let dirs = self.rules.piece(self.kind).captures[self.color as usize];
        for d in dirs.iter() {
            let [over, land] = self.board.jump(cell, d);
            if over == NONE
                || !self.own.contains(over as usize)
                || over as usize == self.from
                || self.occupied.contains(land as usize)
                || visited.contains(land as usize)
                || self.own_castle.contains(land as usize)
            {
                continue;
            }
            self.step()?;
            let land = land as usize;
            self.legs.push(Jump {
                dir: d,
                over,
                to: land as u8,
            });
            let visited = visited.union(Bits::single(land));
            if self.enemy_castle.contains(land) {
                // The move ends here: a move that owes a capture may not.
                if !self.captures_only && !owed {
                    self.emit(land, Bits::EMPTY);
                }
            } else {
                let offers = charge && self.can_capture(self.kind, land, visited);
                if offers {
                    self.captures(land, visited, Bits::EMPTY)?;
                } else if !self.captures_only && !owed {
                    self.emit(land, Bits::EMPTY);
                }
                self.canters(land, visited, charge, owed || offers)?;
            }
            self.legs.pop();
        }
        Ok(())
    }

    /// Captures from `cell`, having captured `captured` so far: a sequence goes on while it
    /// can, and one that cannot ends here (if it has captured).
    fn captures(&mut self, cell: usize, visited: Bits, captured: Bits) -> Result<(), GenError> {
        let dirs = self.rules.piece(self.kind).captures[self.color as usize];
        let mut went_on = false;
        for d in dirs.iter() {
            let [over, land] = self.board.jump(cell, d);
            if over == NONE
                || !self.enemy.contains(over as usize)
                || captured.contains(over as usize)
                || visited.contains(land as usize)
                || (self.occupied.contains(land as usize)
                    && !captured.contains(land as usize)
                    && land as usize != self.from)
            {
                continue;
            }
            self.step()?;
            went_on = true;
            let land = land as usize;
            self.legs.push(Jump {
                dir: d,
                over,
                to: land as u8,
            });
            let captured = captured.union(Bits::single(over as usize));
            if self.enemy_castle.contains(land) {
                self.emit(land, captured);
            } else {
                self.captures(land, visited.union(Bits::single(land)), captured)?;
            }
            self.legs.pop();
        }
        if !went_on && !captured.is_empty() {
            self.emit(cell, captured);
        }
        Ok(())
    }

    /// Records the route in [`Leaps::legs`] as a move to `to` capturing `captured`.
    fn emit(&mut self, to: usize, captured: Bits) {
        let from = self.from;
        // A text names a route when it lists the start and every landing (a step: its start
        // and end).
        let named = self.text.is_some_and(|t| {
            if self.legs.is_empty() {
                t == [from, to]
            } else {
                t.len() == self.legs.len() + 1
                    && t[0] == from
                    && self
                        .legs
                        .iter()
                        .zip(&t[1..])
                        .all(|(j, &s)| j.to as usize == s)
            }
        });
        let mv = Move::new(from, to, self.kind, self.kind, captured);
        let direct = self
            .legs
            .first()
            .is_some_and(|j| captured.contains(j.over as usize));
        let known = if captured.is_empty() {
            self.quiet_to
                .contains(to)
                .then(|| self.quiet_at[to] as usize)
        } else {
            self.captures_at
                .get(&(to as u8, captured))
                .map(|&i| i as usize)
        };
        match known {
            Some(i) => {
                let m = &mut self.found[i];
                m.named |= named;
                m.direct |= direct;
                if self.routes && precedes(&self.legs, &m.route.jumps) {
                    m.route.jumps.clone_from(&self.legs);
                }
            }
            None => {
                let i = self.found.len() as u32;
                if captured.is_empty() {
                    self.quiet_to.insert(to);
                    self.quiet_at[to] = i;
                } else {
                    self.captures_at.insert((to as u8, captured), i);
                }
                self.found.push(LeapMove {
                    mv,
                    route: Route {
                        from: from as u8,
                        jumps: if self.routes {
                            self.legs.clone()
                        } else {
                            Vec::new()
                        },
                    },
                    named,
                    direct,
                });
            }
        }
    }
}

/// Whether route `a` comes before route `b`: fewer landings, then the first in cell order.
fn precedes(a: &[Jump], b: &[Jump]) -> bool {
    a.len() < b.len() || (a.len() == b.len() && a.iter().map(|j| j.to).lt(b.iter().map(|j| j.to)))
}
