//! The legal moves of a variant's positions: the generators of [`crate::gen`] put together.
//!
//! [`Variant::generate`] is the single entry point: captures first (they are compulsory), then,
//! only if there is none, the non-capturing moves. A position that an end rule of the variant
//! has decided ([`crate::ends`]) has no legal moves; in the opening plies of a variant with
//! opening removals (Konane) the removals are the only moves, and while the side to move
//! holds stones in hand (drop games) the drops are. Every generation charges a [`Budget`]: one
//! unit for the position, one per capture-search node and one per move produced.

use super::Variant;
use crate::budget::{Budget, GenError};
use crate::ends::{EndCode, EndOutcome};
use crate::gen::{self, DEFAULT_CAPTURE_LIMIT};
use crate::moves::{Move, Route};
use crate::position::Position;
use crate::rules::Goal;

/// A legal move with what notation needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    pub mv: Move,
    /// The canonical route of a capture (its PDN route with the smallest list of square
    /// numbers); `None` for a non-capturing move.
    pub route: Option<Route>,
    /// Whether the move text given to [`Variant::generate_described`] is a complete long form of one of
    /// its routes (for a non-capturing move: the text is exactly its start and end).
    pub named: bool,
}

impl Variant {
    /// The legal moves of a position, one per move identity, charged to `budget`
    /// ([`Budget::unlimited`]: no bound on the total work but the per-position capture bound).
    pub fn legal_moves(&self, pos: &Position, budget: &Budget) -> Result<Vec<Move>, GenError> {
        let mut out = Vec::new();
        self.generate(pos, budget, &mut out)?;
        Ok(out)
    }

    /// Whether the side to move of `pos` has a legal move, charged to `budget` like a
    /// generation. Counted without building the moves ([`crate::gen::bulk`] where the variant
    /// has a narrow generator, else [`Variant::count_paths`]): the judge asks it after every
    /// ply.
    pub fn has_legal_move(&self, pos: &Position, budget: &Budget) -> Result<bool, GenError> {
        if !self.decided(pos) {
            if let Some(bulk) = &self.bulk {
                return Ok(bulk.count_moves(self.rules(), pos, budget)? > 0);
            }
        } else {
            budget.charge(1)?;
            return Ok(false);
        }
        Ok(self.count_paths(pos, budget, true, &mut Vec::new())? > 0)
    }

    /// Whether the game is over in `pos` before any move: an end rule of the variant decides
    /// it, or the side not to move has nothing left. Such a position has no legal moves.
    /// Costs a test of an empty list and of an empty set for variants without end rules.
    #[inline(always)]
    pub fn decided(&self, pos: &Position) -> bool {
        (!self.spec.rules.ends.is_empty() && self.end_rule(pos).is_some())
            || self.has_nothing(pos, pos.side().opponent())
    }

    /// The first end rule that decides `pos`, and how.
    pub fn end_rule(&self, pos: &Position) -> Option<(EndCode, EndOutcome)> {
        crate::ends::decide(&self.spec.rules.ends, &self.end_cells, pos, |p| {
            self.has_move_but_pass(p)
        })
    }

    /// Fills `out` with the legal moves of `pos` (cleared first). Allocates only if `out` must
    /// grow.
    pub fn generate(
        &self,
        pos: &Position,
        budget: &Budget,
        out: &mut Vec<Move>,
    ) -> Result<(), GenError> {
        self.generate_paths(pos, budget, true, out)
    }

    /// Like [`Variant::generate`], but with `dedup == false` every complete capture route is its own entry
    /// (moves with the same identity appear once per route): the "keep duplicates" convention of
    /// some published perft tables.
    pub fn generate_paths(
        &self,
        pos: &Position,
        budget: &Budget,
        dedup: bool,
        out: &mut Vec<Move>,
    ) -> Result<(), GenError> {
        out.clear();
        self.generate_into(pos, budget, dedup, out)
    }

    /// The number of moves [`Variant::generate_paths`] gives, charged as it charges, without
    /// building the drops and the non-capturing moves of a whole set of pieces: what perft
    /// counts at its last ply. `list` is a buffer for the moves that are built (captures,
    /// and moves that a rule still filters).
    pub fn count_paths(
        &self,
        pos: &Position,
        budget: &Budget,
        dedup: bool,
        list: &mut Vec<Move>,
    ) -> Result<u64, GenError> {
        list.clear();
        let mut count = gen::Count { counted: 0, list };
        self.generate_into(pos, budget, dedup, &mut count)?;
        Ok(gen::Sink::len(&count) as u64)
    }

    /// [`Variant::generate_paths`] into `out` (empty), which keeps the moves or counts them.
    #[inline(always)]
    fn generate_into(
        &self,
        pos: &Position,
        budget: &Budget,
        dedup: bool,
        out: &mut impl gen::Sink,
    ) -> Result<(), GenError> {
        if self.decided(pos) {
            return budget.charge(1);
        }
        self.moves_into::<true>(pos, budget, dedup, out)
    }

    /// The moves of `pos` into `out` (empty), ignoring the end rules; `PASS`: a pass where
    /// the rules give one and there is no other move.
    #[inline(always)]
    fn moves_into<const PASS: bool>(
        &self,
        pos: &Position,
        budget: &Budget,
        dedup: bool,
        out: &mut impl gen::Sink,
    ) -> Result<(), GenError> {
        if self.has_placements() {
            if let Some((step, among)) = self.opening_removal_cells(pos) {
                gen::removals::removals(self.board(), step, among, pos, out.list());
                return budget.charge(1 + out.len() as u64);
            }
            if self.drops_now(pos) {
                gen::drops::drops(self.board(), pos, self.barred_drops(pos), out);
                return budget.charge(1 + out.len() as u64);
            }
        }
        if self.leaps {
            let found = self.leap_moves(pos, budget, None, false)?;
            out.list().extend(found.into_iter().map(|f| f.mv));
            return Ok(());
        }
        let promo = self.promotion(pos.side());
        let steps = gen::by_width!(self.board(), S => {
            let mut s = gen::captures::Search::<S, false>::new(
                self.board(),
                self.rules(),
                promo,
                pos,
                DEFAULT_CAPTURE_LIMIT,
                budget,
                out.list(),
            );
            s.dedup = dedup;
            let r = s.run(pos);
            let steps = s.steps;
            r.inspect_err(|_| {
                let _ = budget.charge(steps as u64);
            })?;
            steps
        });
        let no_return = self.rules().no_return;
        if no_return {
            out.list().retain(|m| !returns(pos, m));
        }
        if out.len() == 0 {
            if no_return {
                // The rule filters moves: they are built.
                let list = out.list();
                gen::steps::quiet_moves(self.board(), self.rules(), promo, pos, list);
                list.retain(|m| !returns(pos, m));
            } else {
                gen::steps::quiet_moves(self.board(), self.rules(), promo, pos, out);
            }
            if PASS && out.len() == 0 && self.rules().goal == Goal::NoMovesPasses {
                out.one(Move::PASS);
            }
        }
        budget.charge(1 + steps as u64 + out.len() as u64)
    }

    /// The moves of a ruleset whose pieces canter ([`gen::leaps`]), charged to `budget`
    /// (`routes`: with their canonical routes).
    fn leap_moves(
        &self,
        pos: &Position,
        budget: &Budget,
        text: Option<&[usize]>,
        routes: bool,
    ) -> Result<Vec<gen::leaps::LeapMove>, GenError> {
        let mut s = gen::leaps::Leaps::new(
            self.board(),
            self.rules(),
            self.castles,
            pos,
            DEFAULT_CAPTURE_LIMIT,
            budget,
            text,
            routes,
        );
        let r = s.run(pos);
        let steps = s.steps as u64;
        if let Err(e) = r {
            let _ = budget.charge(steps);
            return Err(e);
        }
        budget.charge(1 + steps + s.found.len() as u64)?;
        Ok(s.found)
    }

    /// Whether the side to move of `pos` has a legal move other than a pass, ignoring the end
    /// rules (the `BOTH_BLOCKED` rule asks it of both sides). Captures are looked for under the
    /// default capture bound only: the variants with passes have small boards.
    #[inline(never)]
    fn has_move_but_pass(&self, pos: &Position) -> bool {
        if self.drops_now(pos) {
            // An empty point is a move: no need to count them (a popcount of three words).
            return !self.board().cells().minus(pos.occupied()).is_empty();
        }
        let mut list = Vec::new();
        let mut count = gen::Count {
            counted: 0,
            list: &mut list,
        };
        // Counted, not built: the rule asks it before every generation. A search past the
        // capture bound has moves.
        self.moves_into::<false>(pos, &Budget::unlimited(), true, &mut count)
            .map_or(true, |()| gen::Sink::len(&count) > 0)
    }

    /// The legal moves of `pos` with their canonical routes and, when `text` (the squares of a
    /// move text) is given, whether it names one of each move's routes. Every capture route is
    /// looked at as the search finds it; only one route per move is kept.
    pub fn generate_described(
        &self,
        pos: &Position,
        budget: &Budget,
        text: Option<&[usize]>,
    ) -> Result<Vec<Found>, GenError> {
        self.generate_matching(pos, budget, text, false)
    }

    /// [`Variant::generate_described`], with `partly`: `named` says whether the text is a complete *or
    /// incomplete* long form of one of the move's routes
    /// ([`names_route_partly`](crate::moves::names_route_partly)).
    pub fn generate_matching(
        &self,
        pos: &Position,
        budget: &Budget,
        text: Option<&[usize]>,
        partly: bool,
    ) -> Result<Vec<Found>, GenError> {
        if self.decided(pos) {
            budget.charge(1)?;
            return Ok(Vec::new());
        }
        // Room for the moves of most positions at once, not a doubling every few moves.
        let mut out = Vec::with_capacity(32);
        let placing = self.opening_removal_cells(pos);
        if placing.is_some() || self.drops_now(pos) {
            match placing {
                Some((step, among)) => {
                    gen::removals::removals(self.board(), step, among, pos, &mut out)
                }
                None => gen::drops::drops(self.board(), pos, self.barred_drops(pos), &mut out),
            }
            budget.charge(1 + out.len() as u64)?;
            return Ok(out
                .into_iter()
                .map(|mv| Found {
                    mv,
                    route: None,
                    named: text == Some(&[mv.from() as usize, mv.to() as usize][..]),
                })
                .collect());
        }
        if self.leaps {
            return Ok(self
                .leap_moves(pos, budget, text, true)?
                .into_iter()
                .map(|f| Found {
                    mv: f.mv,
                    // A step has no route, as in the other generators.
                    route: (!f.route.jumps.is_empty()).then_some(f.route),
                    named: f.named,
                })
                .collect());
        }
        let promo = self.promotion(pos.side());
        let mut rs = gen::captures::RouteState::default();
        let steps = gen::by_width!(self.board(), S => {
            let mut s = gen::captures::Search::<S, true>::new(
                self.board(),
                self.rules(),
                promo,
                pos,
                DEFAULT_CAPTURE_LIMIT,
                budget,
                &mut out,
            )
            .with_notation(
                gen::captures::Notation {
                    numbers: self.numbers(),
                    text,
                    partly,
                },
                &mut rs,
            );
            let r = s.run(pos);
            let steps = s.steps;
            r.inspect_err(|_| {
                let _ = budget.charge(steps as u64);
            })?;
            s.steps
        });
        let (routes, named) = (rs.routes, rs.named);
        let no_return = self.rules().no_return;
        let mut found: Vec<Found> = out
            .drain(..)
            .zip(routes)
            .zip(named)
            .map(|((mv, route), named)| Found {
                mv,
                route: Some(route),
                named,
            })
            .collect();
        if no_return {
            found.retain(|f| !returns(pos, &f.mv));
        }
        if found.is_empty() {
            gen::steps::quiet_moves(self.board(), self.rules(), promo, pos, &mut out);
            if no_return {
                out.retain(|m| !returns(pos, m));
            }
            if out.is_empty() && self.rules().goal == Goal::NoMovesPasses {
                out.push(Move::PASS);
            }
            found = out
                .into_iter()
                .map(|mv| Found {
                    mv,
                    route: None,
                    named: text == Some(&[mv.from() as usize, mv.to() as usize][..]),
                })
                .collect();
        }
        budget.charge(1 + steps as u64 + found.len() as u64)?;
        Ok(found)
    }
}

/// Whether `m` takes the piece the side to move moved last back to where it came from (the
/// no-return rule: such a move is not legal, and a capture it would be is not compulsory).
#[inline]
fn returns(pos: &Position, m: &Move) -> bool {
    pos.last_move(pos.side())
        .is_some_and(|(from, to)| m.from() as usize == to && m.to() as usize == from)
}
