//! What a material's value under the counting rules depends on: which of the variant's
//! counted draw rules run in its positions, and how the moves inside it touch their counts.
//!
//! Every counted rule (the no-progress counts, the balance count, the endgame counts) draws
//! the game when its count reaches its limit, and all the counts that run go up together, one
//! a ply. What tells them apart is what starts them again. Inside one material (no capture, no
//! promotion) a rule is one of:
//!
//! - **steady**: nothing inside the material restarts it (a count since the last capture or
//!   promotion, the balance count, an endgame count whose configuration is the material
//!   itself, a no-progress count where no man can move). Steady counts go down together, so
//!   the one left with the fewest plies binds, and one number says what is left: the
//!   **budget**;
//! - **restarted by man moves** (the counts since the last man move or capture, in a
//!   material with men): the man moves of the material restart it. Men only go forward, so a
//!   material's positions fall into **levels**, the total advance of its men, and a man move
//!   always goes to a higher level;
//! - **conditional**: an endgame count that runs only while pieces stand on given squares
//!   (FMJD-64's main road, the Portuguese rio), and starts again each time the condition comes
//!   back. Its plies left are a **digit** of the state, as the Frisian king runs are.
//!
//! A material's [`Model`] names its kind:
//!
//! - [`Shape::Steady`]: steady counts only (or none: an endless budget);
//! - [`Shape::Levels`]: one count restarted by man moves, nothing steady;
//! - [`Shape::Dominated`]: a count restarted by man moves whose limit is at least that of
//!   every steady count: once a man has moved, the steady counts bind for good (FMJD's 25-move
//!   rule beside the 16- and 5-move endings);
//! - [`Shape::Twofold`]: a count restarted by man moves with a smaller limit than a steady one
//!   (FMJD-64's 15-move king rule beside the 30- and 60-move balance count): both bind, and
//!   the tables solve one pass per offset between them.
//!
//! The tables hold each position's value for **canonical** counts: the counts a game reaches
//! from the material's own start (a capture or a promotion). [`Model::reduce`] reads the
//! budget and digit of a position's counts and says whether they are canonical; the rest are
//! solved on demand ([`super::settle`]).

use crate::draws::{DrawKind, Reset};
use crate::material::Material;
use crate::outcome::DrawClock;
use crate::position::{Color, Kind, Position};
use crate::variant::Variant;

/// An endless budget: no counted rule runs.
pub(crate) const ENDLESS: u16 = u16::MAX;

/// How a material's counts behave (module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    Steady,
    Levels,
    Dominated,
    Twofold,
}

/// The counted rules of one variant in the positions of one material.
#[derive(Clone, Debug)]
pub(crate) struct Model {
    pub(crate) shape: Shape,
    /// The steady rules: draw rule index and limit.
    pub(crate) steady: Vec<(usize, u16)>,
    /// The steady endgame rules that a capture or a promotion out of the material may carry
    /// on (their configuration holds in a material the game can go on to): their counts must
    /// equal the budget for the counts to be canonical.
    pub(crate) carried: Vec<usize>,
    /// The rule restarted by man moves, if any: index and limit.
    pub(crate) mover: Option<(usize, u16)>,
    /// The conditional rule, if any: index and limit.
    pub(crate) digit: Option<(usize, u16)>,
}

/// Canonical counts of a position, read by [`Model::reduce`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Canonical {
    /// The budget: plies left before the binding count draws ([`ENDLESS`] if none runs).
    /// Under [`Shape::Twofold`], the steady budget.
    pub(crate) budget: u16,
    /// The conditional rule's plies left, 0 when its condition does not hold (or when it has
    /// drawn: the caller tells them apart by the condition).
    pub(crate) digit: u16,
}

impl Model {
    /// The model of `material` in `variant`.
    pub(crate) fn of(variant: &Variant, material: &Material) -> Model {
        let rules = &variant.rules().draws;
        let mut steady = Vec::new();
        let mut mover = None;
        let mut digit = None;
        let mut carried = Vec::new();
        // Whether a man of the material can make a non-capturing move.
        let men_move = Color::BOTH.into_iter().any(|c| {
            Kind::ALL.into_iter().any(|k| {
                k != Kind::King
                    && material.count(c, k) > 0
                    && !variant.rules().piece(k).moves[c as usize].is_empty()
            })
        });
        let kings = |c: Color| material.count(c, Kind::King) > 0;
        let next = super::materials::reachable(variant, material);
        for (i, d) in rules.iter().enumerate() {
            let limit = d.limit().0;
            match &d.kind {
                DrawKind::Repetition { .. } => {}
                DrawKind::NoProgress { reset, .. } => {
                    let restarted_inside = match reset {
                        Reset::ManMoveOrCapture => men_move,
                        Reset::CaptureOrPromotion => false,
                        // A castle entry is a move inside the material.
                        Reset::CaptureOrCastleEntry => true,
                    };
                    if restarted_inside {
                        mover = Some((i, limit));
                    } else {
                        steady.push((i, limit));
                    }
                }
                DrawKind::Balance { pieces, .. } => {
                    let total = material.pieces();
                    if kings(Color::White)
                        && kings(Color::Black)
                        && (u32::from(pieces.0)..=u32::from(pieces.1)).contains(&total)
                    {
                        steady.push((i, limit));
                    }
                }
                DrawKind::Endgame {
                    lone_king_on,
                    strong_king_on,
                    ..
                } => {
                    if !config_material(&d.kind, material) {
                        continue;
                    }
                    if lone_king_on.is_empty() && strong_king_on.is_empty() {
                        steady.push((i, limit));
                        if next
                            .iter()
                            .any(|m| m != material && config_material(&d.kind, m))
                        {
                            carried.push(i);
                        }
                    } else {
                        digit = Some((i, limit));
                    }
                }
            }
        }
        let steady_limit = steady.iter().map(|&(_, l)| l).max();
        let shape = match (mover, steady_limit) {
            (None, _) => Shape::Steady,
            (Some(_), None) => Shape::Levels,
            (Some((_, lm)), Some(ls)) if lm >= ls => Shape::Dominated,
            (Some(_), Some(_)) => Shape::Twofold,
        };
        Model {
            shape,
            steady,
            carried,
            mover,
            digit,
        }
    }

    /// The largest steady budget a canonical state has (the smallest steady limit),
    /// [`ENDLESS`] without steady rules.
    pub(crate) fn steady_horizon(&self) -> u16 {
        self.steady.iter().map(|&(_, l)| l).min().unwrap_or(ENDLESS)
    }

    /// The largest budget a canonical state has: the steady horizon, or under
    /// [`Shape::Levels`] the mover's limit.
    pub(crate) fn horizon(&self) -> u16 {
        match (self.shape, self.mover) {
            (Shape::Levels, Some((_, l))) => l,
            _ => self.steady_horizon(),
        }
    }

    /// Number of digit values: the conditional rule's limit + 1, or 1.
    pub(crate) fn digits(&self) -> u64 {
        self.digit.map_or(1, |(_, l)| u64::from(l) + 1)
    }

    /// The budget and digit that `clock` gives `pos` (of this material), and whether they
    /// are canonical: the tables answer only canonical counts.
    pub(crate) fn reduce(
        &self,
        variant: &Variant,
        pos: &Position,
        clock: &DrawClock,
    ) -> (Canonical, bool) {
        let left = |i: usize, limit: u16| -> Option<u16> {
            clock
                .count(variant, i, pos)
                .map(|c| limit.saturating_sub(c))
        };
        let mut budget = ENDLESS;
        let mut canonical = true;
        for &(i, l) in &self.steady {
            // A steady rule of the material always applies in its positions.
            match left(i, l) {
                Some(r) => budget = budget.min(r),
                None => canonical = false,
            }
        }
        for &i in &self.carried {
            let l = self.steady.iter().find(|(j, _)| *j == i).map_or(0, |s| s.1);
            if left(i, l) != Some(budget) {
                canonical = false;
            }
        }
        let digit = match self.digit {
            Some((i, l)) => left(i, l).unwrap_or(0),
            None => 0,
        };
        let budget = match (self.shape, self.mover) {
            (Shape::Steady, _) => budget,
            (Shape::Levels, Some((i, l))) => left(i, l).unwrap_or(0),
            (Shape::Dominated, Some((i, l))) => {
                // Canonical once the man-move count leaves at least the steady budget.
                if left(i, l).unwrap_or(0) < budget {
                    canonical = false;
                }
                budget
            }
            (Shape::Twofold, Some((i, l))) => {
                // Canonical at a level's entry (the man-move count just restarted) and where
                // the steady count binds.
                let m = left(i, l).unwrap_or(0);
                if m != l && budget > m {
                    canonical = false;
                }
                budget
            }
            _ => budget,
        };
        (Canonical { budget, digit }, canonical)
    }

    /// Counts that stand for the canonical state (`budget`, `digit`) of `pos`: every steady
    /// rule with `budget` plies left, the man-move count with `mover` plies left, the
    /// conditional rule with `digit`.
    pub(crate) fn representative(
        &self,
        variant: &Variant,
        pos: &Position,
        budget: u16,
        mover: u16,
        digit: u16,
    ) -> DrawClock {
        let mut clock = DrawClock::start(variant, pos);
        for &(i, l) in &self.steady {
            let _ = clock.set_count(variant, i, pos, l.saturating_sub(budget));
        }
        if let Some((i, l)) = self.mover {
            let _ = clock.set_count(variant, i, pos, l.saturating_sub(mover));
        }
        if let Some((i, l)) = self.digit {
            if digit > 0 || clock.count(variant, i, pos).is_some() {
                let _ = clock.set_count(variant, i, pos, l.saturating_sub(digit));
            }
        }
        clock
    }
}

/// Whether an endgame rule's material part (a strong material against a lone king, either
/// colour) holds for `m`; the squares are not looked at.
pub(crate) fn config_material(kind: &DrawKind, m: &Material) -> bool {
    let DrawKind::Endgame { strong, .. } = kind else {
        return false;
    };
    Color::BOTH.into_iter().any(|s| {
        let w = s.opponent();
        let lone = m.count(w, Kind::King) == 1 && m.side(w) == 1;
        lone && m.count(s, Kind::Parachutist) == 0
            && m.count(s, Kind::Knight) == 0
            && strong.iter().any(|x| {
                let (k, men) = (m.count(s, Kind::King), m.count(s, Kind::Man));
                men == u32::from(x.men)
                    && if x.or_more_kings {
                        k >= u32::from(x.kings)
                    } else {
                        k == u32::from(x.kings)
                    }
            })
    })
}
