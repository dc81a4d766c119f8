//! Values under the counting rules for counts the tables do not hold: searched on demand.
//!
//! The tables keep each position's value for the counts a game reaches from the start of its
//! material ([`super::clocks`]: canonical counts). Other counts occur too: a game judged from
//! a position whose half-move clock says that the 25-move count is further on than the
//! 16-move one, or an FMJD-64 game between two man moves, when the 15-move king count and the
//! balance count both run. Such a state is solved here by a search of the states it leads to,
//! down to the first ones the tables hold: a move that restarts a count (a capture, a
//! promotion, a man move) reaches canonical counts at once, and every other move brings each
//! running count one ply nearer its limit, so the search is as deep as the counts are short
//! and no wider than the positions of the material the pieces can reach meanwhile.

use std::collections::HashMap;

use crate::budget::{Budget, GenError};
use crate::draws::{DrawCode, DrawKind};
use crate::material::Material;
use crate::outcome::DrawClock;
use crate::position::{Color, Position};
use crate::variant::Variant;

use super::counted::{at_budget, rule_code};
use super::set::Tables;
use super::table::{decided_value, Value};

/// Work units a state of the search is charged, besides its moves' generation.
const UNITS_PER_STATE: u64 = 50;

/// The most states a search keeps.
pub const MAX_STATES: usize = 4_000_000;

/// Why a value under the rules could not be found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesError {
    /// A table the search needs is not held: the material.
    Missing(Material),
    /// The work budget is spent.
    Gen(GenError),
    /// The search needs more states than [`MAX_STATES`].
    TooLarge,
}

impl std::fmt::Display for RulesError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RulesError::Missing(m) => write!(f, "the table of {m} is needed"),
            RulesError::Gen(e) => write!(f, "{e}"),
            RulesError::TooLarge => write!(
                f,
                "these counts need a search of more than {MAX_STATES} states"
            ),
        }
    }
}

impl From<GenError> for RulesError {
    fn from(e: GenError) -> RulesError {
        RulesError::Gen(e)
    }
}

/// What a probe under the rules found for a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleValue {
    /// The result for the side to move under the rules, with the plies the binding count
    /// must still allow for it (the distance to the next move that restarts that count or
    /// ends the game, the winner hurrying and the loser delaying); a draw has none.
    pub value: Value,
    /// Whether the value was searched ([`super::settle`]) rather than read from a table.
    pub searched: bool,
}

/// The count a value's plies are measured on in `pos` with `clock`: the running counted rule
/// with the fewest plies left, leaving out the counts that run only on given squares (they
/// are part of the state, not of the budget): its index and plies left.
pub(crate) fn budget_rule(v: &Variant, pos: &Position, clock: &DrawClock) -> Option<(usize, u16)> {
    (0..v.rules().draws.len())
        .filter(|&i| !conditional(&v.rules().draws[i].kind))
        .filter_map(|i| {
            clock
                .count(v, i, pos)
                .map(|c| (i, v.rules().draws[i].limit().0.saturating_sub(c)))
        })
        .min_by_key(|&(_, left)| left)
}

/// Whether a draw rule's count runs only while pieces stand on given squares.
fn conditional(kind: &DrawKind) -> bool {
    matches!(kind, DrawKind::Endgame { lone_king_on, strong_king_on, .. }
        if !lone_king_on.is_empty() || !strong_king_on.is_empty())
}

/// Whether a move from counts `before` (in `p`) to `after` (in `q`) restarts the count the
/// plies are measured on: unless one of the counts with the fewest plies left in `p` goes on,
/// one ply further, as one with the fewest left in `q`.
pub(crate) fn restarts(
    v: &Variant,
    p: &Position,
    before: &DrawClock,
    q: &Position,
    after: &DrawClock,
) -> bool {
    let (Some((_, low)), Some((_, next))) = (budget_rule(v, p, before), budget_rule(v, q, after))
    else {
        return true;
    };
    if next + 1 != low {
        return true;
    }
    !(0..v.rules().draws.len())
        .filter(|&i| !conditional(&v.rules().draws[i].kind))
        .any(|i| {
            let limit = v.rules().draws[i].limit().0;
            match (before.count(v, i, p), after.count(v, i, q)) {
                (Some(a), Some(b)) => b == a + 1 && limit.saturating_sub(a) == low,
                _ => false,
            }
        })
}

/// The value of `pos` with the counts `clock`: from its table when the counts are
/// canonical, else searched. `Ok(None)`: a table is missing.
pub(crate) fn value_in(
    tables: &Tables,
    pos: &Position,
    clock: &DrawClock,
    budget: &Budget,
) -> Result<RuleValue, RulesError> {
    let mut memo = HashMap::new();
    let (value, searched) = search(tables, pos, clock, budget, &mut memo, 0)?;
    Ok(RuleValue { value, searched })
}

/// The table's value of `pos` with `clock` when they are canonical.
fn from_table(
    tables: &Tables,
    pos: &Position,
    clock: &DrawClock,
) -> Result<Option<Value>, RulesError> {
    let v = tables.variant();
    let m = super::material_of(v, pos);
    if m.side(Color::White) == 0 || m.side(Color::Black) == 0 || v.decided(pos) {
        return Ok(Some(decided_value(v, pos)));
    }
    let t = tables.get(&m).ok_or(RulesError::Missing(m))?;
    let Some(model) = t.model.as_ref() else {
        // No counted rule in the variant: the game-theoretic value.
        return Ok(Some(t.probe(pos).ok_or(RulesError::Missing(m))?));
    };
    if t.rules.is_none() {
        return Ok(within_counts(
            v,
            pos,
            clock,
            t.probe(pos).ok_or(RulesError::Missing(m))?,
        ));
    }
    let (canon, ok) = model.reduce(v, pos, clock);
    if !ok {
        return Ok(None);
    }
    let code = rule_code(t, pos, u64::from(canon.digit)).ok_or(RulesError::Missing(m))?;
    Ok(at_budget(code, canon.budget))
}

/// The value under the rules of a table that keeps none (the tables of the graph solver, see
/// [`super::graph`]), from the game-theoretic value `gt`: a draw stays a draw, and a win or a
/// loss in `n` plies stays one when every counted rule, running or not, leaves at least `n`
/// plies (the winner's line ends the game before any count can draw it). `None` otherwise:
/// the search decides it.
fn within_counts(v: &Variant, pos: &Position, clock: &DrawClock, gt: Value) -> Option<Value> {
    let n = match gt {
        Value::Draw => return Some(Value::Draw),
        Value::Win(n) | Value::Loss(n) => n,
    };
    let left = (0..v.rules().draws.len())
        .filter(|&i| !matches!(v.rules().draws[i].kind, DrawKind::Repetition { .. }))
        .map(|i| {
            let limit = v.rules().draws[i].limit().0;
            limit.saturating_sub(clock.count(v, i, pos).unwrap_or(0))
        })
        .min()
        .unwrap_or(u16::MAX);
    (n <= left).then_some(gt)
}

type Memo = HashMap<(Position, DrawClock), Value>;

fn search(
    tables: &Tables,
    pos: &Position,
    clock: &DrawClock,
    budget: &Budget,
    memo: &mut Memo,
    depth: usize,
) -> Result<(Value, bool), RulesError> {
    if let Some(v) = from_table(tables, pos, clock)? {
        return Ok((v, false));
    }
    if let Some(v) = memo.get(&(*pos, *clock)) {
        return Ok((*v, true));
    }
    if memo.len() >= MAX_STATES || depth > 1024 {
        return Err(RulesError::TooLarge);
    }
    budget.charge(UNITS_PER_STATE)?;
    let v = tables.variant();
    let moves = v.legal_moves(pos, budget)?;
    // A position without moves is decided by `from_table`; a count at its limit draws.
    let value = if moves.is_empty() {
        let side = pos.side();
        if v.no_moves_winner(side) == side {
            Value::Win(0)
        } else {
            Value::Loss(0)
        }
    } else if clock.reached(v, pos).is_some() {
        Value::Draw
    } else {
        let mut best: Option<Value> = None;
        for m in &moves {
            let q = v.play(pos, m);
            let mut c = *clock;
            c.step(v, pos, m, &q);
            let (after, _) = search(tables, &q, &c, budget, memo, depth + 1)?;
            // A move that restarts the count the plies are measured on: the distance starts
            // again from there.
            let restarts = restarts(v, pos, clock, &q, &c);
            let mine = match after {
                Value::Win(n) => Value::Loss(if restarts { 1 } else { n.saturating_add(1) }),
                Value::Loss(n) => Value::Win(if restarts { 1 } else { n.saturating_add(1) }),
                Value::Draw => Value::Draw,
            };
            best = Some(match best {
                None => mine,
                Some(b) => better(b, mine),
            });
        }
        best.unwrap_or(Value::Draw)
    };
    memo.insert((*pos, *clock), value);
    Ok((value, true))
}

/// The better of two values for the side to move: the fastest win, then a draw, then the
/// slowest loss.
fn better(a: Value, b: Value) -> Value {
    let rank = |v: Value| match v {
        Value::Win(n) => (2, -i32::from(n)),
        Value::Draw => (1, 0),
        Value::Loss(n) => (0, i32::from(n)),
    };
    if rank(b) > rank(a) {
        b
    } else {
        a
    }
}

impl Tables {
    /// Whether a move from `p` with counts `before` to `q` with counts `after` restarts the
    /// count that the plies of a value under the rules are measured on
    /// ([`RuleValue::value`]): a move to a position whose value needs `n` plies gives the
    /// mover `1` when it restarts the count, else `n + 1`.
    pub fn restarts(
        &self,
        p: &Position,
        before: &DrawClock,
        q: &Position,
        after: &DrawClock,
    ) -> bool {
        restarts(self.variant(), p, before, q, after)
    }

    /// The value of `pos` for its side to move under the variant's counting rules, with the
    /// counts `clock` (where the game's counted draw rules stand: [`crate::Tracker::clock`]),
    /// charged to `budget`. Without counted rules in the variant it is the game-theoretic
    /// value. `Err(RulesError::Missing)` when a table it needs is not held.
    pub fn probe_rules(
        &self,
        pos: &Position,
        clock: &DrawClock,
        budget: &Budget,
    ) -> Result<RuleValue, RulesError> {
        value_in(self, pos, clock, budget)
    }
}

/// What the tables say of a position of a game: its game-theoretic value, its value under
/// the counting rules with the game's counts, and, where the first is decisive and the
/// second a draw, the counted rule that draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableValue {
    /// Best play with no counted rule: the winner hurries to the end of the game.
    pub value: Value,
    /// Best play under the counted rules, from the counts given.
    pub rules: RuleValue,
    /// The rule that turns a game-theoretic win into a draw ([`TableValue::rules`] a draw
    /// where [`TableValue::value`] is not): the count that binds in the position, or where
    /// none runs, the first one that does along best play.
    pub drawn_by: Option<DrawCode>,
}

/// The counted rule running in `pos` with the fewest plies left on `clock`.
fn binding(tables: &Tables, pos: &Position, clock: &DrawClock) -> Option<DrawCode> {
    let v = tables.variant();
    (0..v.rules().draws.len())
        .filter_map(|i| {
            let d = &v.rules().draws[i];
            clock
                .count(v, i, pos)
                .map(|c| (d.limit().0.saturating_sub(c), d.code))
        })
        .min_by_key(|&(left, _)| left)
        .map(|(_, code)| code)
}

impl Tables {
    /// The game-theoretic value of `pos` and its value under the counting rules with the
    /// counts `clock` ([`TableValue`]); `Ok(None)` when `pos` is not in the tables.
    pub fn probe_game(
        &self,
        pos: &Position,
        clock: &DrawClock,
        budget: &Budget,
    ) -> Result<Option<TableValue>, RulesError> {
        let Some(value) = self.probe(pos) else {
            return Ok(None);
        };
        let rules = value_in(self, pos, clock, budget)?;
        let drawn_by = if value != Value::Draw && rules.value == Value::Draw {
            self.drawn_by(pos, clock, budget)?
        } else {
            None
        };
        Ok(Some(TableValue {
            value,
            rules,
            drawn_by,
        }))
    }

    /// The counted rule that draws a game-theoretic win in `pos` (see [`TableValue`]): the
    /// binding count, or along best play (the winner's fastest win, the defender's draw
    /// that loses slowest without the count) the first one that runs.
    fn drawn_by(
        &self,
        pos: &Position,
        clock: &DrawClock,
        budget: &Budget,
    ) -> Result<Option<DrawCode>, RulesError> {
        let v = self.variant();
        let (mut p, mut c) = (*pos, *clock);
        for _ in 0..512 {
            if let Some(code) = binding(self, &p, &c) {
                return Ok(Some(code));
            }
            let mut best: Option<(Value, Position, DrawClock)> = None;
            for m in v.legal_moves(&p, budget)? {
                let q = v.play(&p, &m);
                let mut cq = c;
                cq.step(v, &p, &m, &q);
                let Some(gt) = self.probe(&q) else {
                    return Ok(None);
                };
                if value_in(self, &q, &cq, budget)?.value != Value::Draw {
                    continue;
                }
                let mine = gt.before_move();
                if best
                    .as_ref()
                    .is_none_or(|(b, _, _)| better(*b, mine) == mine && *b != mine)
                {
                    best = Some((mine, q, cq));
                }
            }
            match best {
                Some((_, q, cq)) => (p, c) = (q, cq),
                None => return Ok(None),
            }
        }
        Ok(None)
    }
}
