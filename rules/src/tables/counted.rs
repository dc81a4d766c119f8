//! Values under the counting rules: the result with best play when the variant's counted
//! draw rules (the no-progress counts, the balance count, the endgame counts) run, computed by
//! retrograde analysis with the counts in the state, as the DTZ tables of chess do for the
//! 50-move rule.
//!
//! A value under the rules is a result and the **budget** it needs ([`super::clocks`]): the
//! plies the binding count must still allow. A position is a win for the side to move with
//! `k` plies left on the count when `Win(n)` has `n <= k`; it is a draw when the count runs
//! out first. The winner hurries to the next move that restarts the count (a capture, a man
//! move, a promotion) or to the end, the loser delays it: for a count that every capture and
//! man move restart, `n` is the distance to zeroing of the chess tables (DTZ). What happens
//! after a restart comes from the value with a fresh count, so the defender's choices of where
//! to go (into a material whose own rule draws sooner) are part of the value.
//!
//! The pass, for one material:
//!
//! 1. **Forward**, for each state (a position and the digit of its conditional count, if
//!    any): its legal moves. A move to another material, or a man move that restarts the
//!    count, gives a known value: the other material's value under the rules with the counts
//!    the move leaves ([`crate::outcome::DrawClock::step`] on counts that stand for the state),
//!    fixed when the move restarts them, or one ply shorter when it carries them on (a
//!    promotion inside an endgame configuration). The other moves stay inside the retrograde.
//! 2. **Retrograde**, by budget: a state with a move to a loss needing `k` is a win needing
//!    `k + 1`; a state whose every move leads to a win is a loss needing one more than the
//!    most any of them needs. States needing more than the largest budget a count leaves are
//!    draws.
//!
//! Materials whose man moves restart the count are solved **level** by level, their men's
//! total advance from the highest down, so that a man move's value is known when it is needed.
//! Under a [`Shape::Twofold`] model (FMJD-64: the 15-move king count restarted by man moves
//! beside the 30-move balance count), each level takes one pass with the steady count binding
//! and one per offset between the two counts; the table keeps the value at the level's entry,
//! as a function of the steady count.

use std::sync::Mutex;

use crate::budget::Budget;
use crate::draws::{endgame_holds, DrawKind, Reset};
use crate::material::Material;
use crate::moves::{Move, MoveKind};
use crate::outcome::DrawClock;
use crate::position::{Color, Kind, Position};
use crate::variant::Variant;

use super::clocks::{Model, Shape, ENDLESS};
use super::index::Indexer;
use super::set::Tables;
use super::solve::{Backward, SolveError};
pub(crate) use super::table::at_budget;
use super::table::{decided_value, Packed, Progress, RuleCodes, Table, Value};

/// The code of a value.
#[inline]
fn code_of(v: Value) -> u16 {
    v.code() as u16
}

/// A legal state not decided yet.
const OPEN: u8 = 1;
/// Has non-capturing moves (so every non-capturing move found backwards is legal here).
const QUIET: u8 = 2;
/// A move outside the retrograde draws at every budget: never a loss.
const DRAWS: u8 = 4;

/// No win through a move outside the retrograde.
const NO_WIN: u16 = u16::MAX;

/// The solver's state of one state.
#[derive(Clone, Copy, Default)]
struct Node {
    /// The final code once decided in this pass (0 with no flags: no position).
    code: u16,
    /// Moves inside the retrograde not yet known to lead to a win for the opponent.
    left: u16,
    /// The smallest budget a winning move outside the retrograde needs ([`NO_WIN`]: none).
    win: u16,
    /// The largest budget a losing move outside the retrograde needs.
    loss: u16,
    flags: u8,
}

/// Decided at once (no legal move, an end rule): its bucket entry is pushed by the forward
/// pass.
const TERMINAL: u8 = 8;

/// A man move of a level, whose value depends on the pass: the state it leaves and the state
/// it reaches (on a higher level).
type ManMove = (u64, u64);

/// What the forward pass found, besides the nodes.
#[derive(Default)]
struct Found {
    /// Bucket entries: (budget, state << 1 | win).
    pushes: Vec<(u16, u64)>,
    men: Vec<ManMove>,
    /// States of the level.
    states: u64,
}

/// Whether a counted condition holds in each position (by index), for the conditional rule.
struct Condition {
    limit: u16,
    holds: Vec<u64>,
}

impl Condition {
    #[inline]
    fn at(&self, i: u64) -> bool {
        self.holds[(i / 64) as usize] >> (i % 64) & 1 == 1
    }
}

/// Everything a pass over one material needs.
struct Solver<'a> {
    variant: &'static Variant,
    material: Material,
    ix: &'a Indexer,
    tables: &'a Tables,
    model: Model,
    /// Models of the materials the game can go on to.
    models: foldhash::HashMap<Material, Model>,
    digits: u64,
    cond: Option<Condition>,
    /// Level of each index (empty when the material has no levels).
    level: Vec<u8>,
    levels: bool,
    back: Backward,
    /// Final codes, by state.
    fin: Vec<u16>,
}

/// Builds the values under the counting rules of `material`, whose game-theoretic table is
/// numbered by `ix`; `tables` holds every material its captures and promotions lead to, with
/// their values under the rules.
pub(crate) fn solve_rules(
    variant: &'static Variant,
    material: Material,
    ix: &Indexer,
    tables: &Tables,
    progress: &mut dyn FnMut(Progress),
) -> Result<RuleCodes, SolveError> {
    let model = Model::of(variant, &material);
    if let Some((i, _)) = model.mover {
        if matches!(
            variant.rules().draws[i].kind,
            DrawKind::NoProgress {
                reset: Reset::CaptureOrCastleEntry,
                ..
            }
        ) {
            return Err(SolveError::Uncovered {
                material,
                detail: "a count restarted by castle entries is not covered by the tables".into(),
            });
        }
    }
    let size = ix.size();
    let digits = model.digits();
    let levels = matches!(model.shape, Shape::Levels | Shape::Twofold);
    let mut models = foldhash::HashMap::default();
    for m in super::materials::reachable(variant, &material) {
        models.insert(m, Model::of(variant, &m));
    }
    let cond = model.digit.map(|(rule, limit)| {
        let cells = &variant.draw_cells()[rule];
        let kind = &variant.rules().draws[rule].kind;
        let mut holds = vec![0u64; size.div_ceil(64) as usize];
        for i in 0..size {
            if let Some(p) = ix.position(variant, i) {
                if endgame_holds(cells, &p, kind) {
                    holds[(i / 64) as usize] |= 1 << (i % 64);
                }
            }
        }
        Condition { limit, holds }
    });
    let level = if levels {
        let advance = advances(variant).ok_or_else(|| SolveError::Uncovered {
            material,
            detail: "men that do not always advance restart a count: the levels of the \
                     tables do not cover them"
                .into(),
        })?;
        (0..size)
            .map(|i| match ix.pieces(i) {
                Some((_, sets)) => {
                    let mut l = 0u32;
                    for c in Color::BOTH {
                        for k in Kind::ALL {
                            if k == Kind::King {
                                continue;
                            }
                            for cell in sets[c as usize][k as usize].iter() {
                                l += u32::from(advance[c as usize][cell]);
                            }
                        }
                    }
                    l.min(254) as u8
                }
                None => u8::MAX,
            })
            .collect()
    } else {
        Vec::new()
    };
    let mut s = Solver {
        variant,
        material,
        ix,
        tables,
        back: Backward::new(variant, &material)?,
        model,
        models,
        digits,
        cond,
        level,
        levels,
        fin: vec![0; (size * digits) as usize],
    };
    s.run(progress)?;
    Ok(RuleCodes {
        digits,
        packed: Packed::of(&s.fin),
    })
}

/// How far each man has advanced on each cell, by colour, when every non-capturing move of
/// every non-king piece goes towards one side of the board (the ranks it moves to rise, or
/// fall, for all its moves): `None` otherwise.
fn advances(variant: &Variant) -> Option<[Vec<u8>; 2]> {
    let board = variant.board();
    let mut out = [vec![0u8; board.id_bound()], vec![0u8; board.id_bound()]];
    for c in Color::BOTH {
        let mut up = false;
        let mut down = false;
        for k in Kind::ALL {
            if k == Kind::King {
                continue;
            }
            for d in variant.rules().piece(k).moves[c as usize].iter() {
                for cell in board.cells().iter() {
                    let n = board.next(cell, d);
                    if n == crate::board::NONE {
                        continue;
                    }
                    let (y0, y1) = (board.xy(cell).1, board.xy(n as usize).1);
                    match y1.cmp(&y0) {
                        std::cmp::Ordering::Greater => up = true,
                        std::cmp::Ordering::Less => down = true,
                        std::cmp::Ordering::Equal => return None,
                    }
                }
            }
        }
        if up && down {
            return None;
        }
        let h = board.height();
        for cell in board.cells().iter() {
            let y = board.xy(cell).1;
            out[c as usize][cell] = if down { h - 1 - y } else { y };
        }
    }
    Some(out)
}

/// How a pass reads the value of a man move that restarts the man-move count.
#[derive(Clone, Copy)]
enum Pass {
    /// Levels: the reached state has the full count.
    Fresh(u16),
    /// Twofold, the steady count binding: the reached state's steady count is one ply less.
    Steady,
    /// Twofold, the man-move count binding with the steady count `u` plies above it.
    Offset(u16),
}

impl<'a> Solver<'a> {
    fn size(&self) -> u64 {
        self.ix.size()
    }

    /// Whether digit `d` fits index `i`: only a running conditional count has one.
    #[inline]
    fn valid_digit(&self, i: u64, d: u64) -> bool {
        match &self.cond {
            None => d == 0,
            Some(c) => c.at(i) || d == 0,
        }
    }

    #[inline]
    fn in_level(&self, i: u64, lv: u8) -> bool {
        !self.levels || self.level[i as usize] == lv
    }

    /// The digit a move from index `i` (digit `d`) to index `j` leaves.
    #[inline]
    fn next_digit(&self, i: u64, d: u64, j: u64) -> u64 {
        match &self.cond {
            None => 0,
            Some(c) => {
                if !c.at(j) {
                    0
                } else if c.at(i) {
                    d.saturating_sub(1)
                } else {
                    u64::from(c.limit)
                }
            }
        }
    }

    fn run(&mut self, progress: &mut dyn FnMut(Progress)) -> Result<(), SolveError> {
        let top = if self.levels {
            self.level
                .iter()
                .copied()
                .filter(|&l| l != u8::MAX)
                .max()
                .unwrap_or(0)
        } else {
            0
        };
        let total = self.size() * self.digits;
        let mut nodes = vec![Node::default(); total as usize];
        let mut done = 0u64;
        for lv in (0..=top).rev() {
            let found = self.forward(lv, &mut nodes)?;
            match self.model.shape {
                Shape::Twofold => self.twofold(lv, &mut nodes, &found)?,
                _ => {
                    let horizon = self.model.horizon();
                    let pass = match self.model.mover {
                        Some((_, l)) if self.model.shape == Shape::Levels => Pass::Fresh(l),
                        _ => Pass::Steady,
                    };
                    self.men_into(&mut nodes, &found.men, pass);
                    let mut p = found.pushes.clone();
                    self.seed(&nodes, lv, &mut p);
                    self.retro(lv, &mut nodes, p, horizon)?;
                    self.finish(lv, &nodes);
                }
            }
            done += found.states;
            progress(Progress {
                material: self.material,
                done: done.min(total),
                total,
            });
        }
        Ok(())
    }

    /// Writes the final codes of level `lv`: a state still open is a draw.
    fn finish(&mut self, lv: u8, nodes: &[Node]) {
        for i in 0..self.size() {
            if !self.in_level(i, lv) {
                continue;
            }
            for d in 0..self.digits {
                let s = (i * self.digits + d) as usize;
                let n = &nodes[s];
                self.fin[s] = if n.flags & OPEN != 0 {
                    code_of(Value::Draw)
                } else {
                    n.code
                };
            }
        }
    }

    /// The forward pass over the states of level `lv`.
    fn forward(&self, lv: u8, nodes: &mut [Node]) -> Result<Found, SolveError> {
        const CHUNK: usize = 1 << 14;
        let digits = self.digits as usize;
        let threads = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
            .clamp(1, 16);
        let work = Mutex::new(nodes.chunks_mut(CHUNK * digits).enumerate());
        let failed: Mutex<Option<SolveError>> = Mutex::new(None);
        let all: Mutex<Found> = Mutex::new(Found::default());
        std::thread::scope(|sc| {
            for _ in 0..threads {
                sc.spawn(|| {
                    let budget = Budget::unlimited();
                    let mut moves = Vec::new();
                    let mut succ = Vec::new();
                    let mut found = Found::default();
                    loop {
                        let next = work.lock().map(|mut w| w.next()).unwrap_or(None);
                        let Some((n, chunk)) = next else {
                            break;
                        };
                        let base = (n * CHUNK) as u64;
                        for (k, node) in chunk.iter_mut().enumerate() {
                            let s = base * self.digits + k as u64;
                            let (i, d) = (s / self.digits, s % self.digits);
                            if !self.in_level(i, lv) || !self.valid_digit(i, d) {
                                continue;
                            }
                            match self.examine(i, d, s, &budget, &mut moves, &mut succ, &mut found)
                            {
                                Ok(Some(x)) => {
                                    *node = x;
                                    found.states += 1;
                                }
                                Ok(None) => *node = Node::default(),
                                Err(e) => {
                                    *failed.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
                                    return;
                                }
                            }
                        }
                    }
                    let mut a = all.lock().unwrap_or_else(|e| e.into_inner());
                    a.pushes.extend(found.pushes);
                    a.men.extend(found.men);
                    a.states += found.states;
                });
            }
        });
        if let Some(e) = failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
            return Err(e);
        }
        let mut found = all.into_inner().unwrap_or_else(|e| e.into_inner());
        // The same order whatever the threads did: the buckets' order decides nothing, but a
        // build is then the same bytes run after run.
        found.pushes.sort_unstable();
        found.men.sort_unstable();
        Ok(found)
    }

    /// The forward pass of state `s` (index `i`, digit `d`): its node, `None` when it is no
    /// position. A decided state gets its code at once.
    #[allow(clippy::too_many_arguments)]
    fn examine(
        &self,
        i: u64,
        d: u64,
        s: u64,
        budget: &Budget,
        moves: &mut Vec<Move>,
        succ: &mut Vec<u64>,
        found: &mut Found,
    ) -> Result<Option<Node>, SolveError> {
        let variant = self.variant;
        let Some(pos) = self.ix.position(variant, i) else {
            return Ok(None);
        };
        if variant.check_kings(&pos).is_err() {
            return Ok(None);
        }
        let mut node = Node {
            win: NO_WIN,
            ..Node::default()
        };
        let terminal = |v: Value, node: &mut Node, found: &mut Found| match v {
            Value::Draw => node.code = code_of(Value::Draw),
            Value::Win(n) | Value::Loss(n) => {
                node.flags = OPEN | TERMINAL;
                found
                    .pushes
                    .push((n, s << 1 | matches!(v, Value::Win(_)) as u64));
            }
        };
        if variant.decided(&pos) {
            terminal(decided_value(variant, &pos), &mut node, found);
            return Ok(Some(node));
        }
        let _ = variant.generate(&pos, budget, moves);
        if moves.is_empty() {
            let side = pos.side();
            let v = if variant.no_moves_winner(side) == side {
                Value::Win(0)
            } else {
                Value::Loss(0)
            };
            terminal(v, &mut node, found);
            return Ok(Some(node));
        }
        // The conditional count has run out: drawn.
        if let Some(c) = &self.cond {
            if c.at(i) && d == 0 {
                node.code = code_of(Value::Draw);
                return Ok(Some(node));
            }
        }
        node.flags = OPEN;
        succ.clear();
        for m in moves.iter() {
            if matches!(
                m.kind(),
                MoveKind::Drop | MoveKind::Pass | MoveKind::Removal
            ) {
                return Err(SolveError::Uncovered {
                    material: self.material,
                    detail: "a move that is not a piece's move".into(),
                });
            }
            let q = variant.play(&pos, m);
            // A step that crowns nothing keeps the material.
            if m.kind() == MoveKind::Step && m.piece() == m.becomes() {
                node.flags |= QUIET;
                let j = self.ix.index(&q).ok_or_else(|| SolveError::Uncovered {
                    material: self.material,
                    detail: "a move leads to a position the numbering has not".into(),
                })?;
                let t = j * self.digits + self.next_digit(i, d, j);
                if self.levels && m.piece() != Kind::King {
                    found.men.push((s, t));
                } else {
                    succ.push(t);
                }
                continue;
            }
            self.exit(&pos, d, m, &q, &mut node)?;
        }
        succ.sort_unstable();
        succ.dedup();
        node.left = succ.len() as u16;
        if node.win != NO_WIN {
            found.pushes.push((node.win, s << 1 | 1));
        }
        Ok(Some(node))
    }

    /// Folds into `node` the value of a move from `pos` (digit `d`) to `q` in another
    /// material (or a capture inside this one).
    ///
    /// The move restarts some counts and may carry others on (an endgame count across a
    /// promotion inside its configuration). With the counts that stand for this state at two
    /// budgets, the counts of `q` that follow the budget are the carried ones, one ply less;
    /// the others are fixed: `q` then has `min(fixed, budget - 1)` plies left.
    fn exit(
        &self,
        pos: &Position,
        d: u64,
        m: &Move,
        q: &Position,
        node: &mut Node,
    ) -> Result<(), SolveError> {
        let variant = self.variant;
        let mq = Material::of(q);
        if mq.side(Color::White) == 0 || mq.side(Color::Black) == 0 || variant.decided(q) {
            fold(node, decided_value(variant, q).code(), Some(ENDLESS));
            return Ok(());
        }
        let model = self.models.get(&mq).ok_or(SolveError::Missing {
            material: self.material,
            needs: mq,
        })?;
        // The common case: the move restarts every count, and q starts its material with
        // fresh counts (its conditional count, if any, from its squares).
        let fresh_ok = model.carried.iter().all(|i| {
            model
                .steady
                .iter()
                .any(|&(j, l)| j == *i && l == model.steady_horizon())
        });
        if self.model.carried.is_empty() && self.model.digit.is_none() && fresh_ok {
            let digit = match model.digit {
                Some((i, l)) => {
                    let cells = &variant.draw_cells()[i];
                    if endgame_holds(cells, q, &variant.rules().draws[i].kind) {
                        u64::from(l)
                    } else {
                        0
                    }
                }
                None => 0,
            };
            let code = self
                .tables
                .get(&mq)
                .and_then(|t| rule_code(t, q, digit))
                .ok_or(SolveError::Missing {
                    material: self.material,
                    needs: mq,
                })?;
            fold(node, code, Some(model.horizon()));
            return Ok(());
        }
        let horizon = self.model.steady_horizon();
        let mover = self.model.mover.map_or(ENDLESS, |(_, l)| l);
        let after = |b: u16| {
            let mut clock = self.model.representative(variant, pos, b, mover, d as u16);
            clock.step(variant, pos, m, q);
            clock
        };
        let uncovered = |detail: String| SolveError::Uncovered {
            material: self.material,
            detail,
        };
        let c1 = after(horizon);
        let (canon, ok) = model.reduce(variant, q, &c1);
        if !ok {
            return Err(uncovered(format!(
                "a move leads to counts of {mq} that the tables do not hold"
            )));
        }
        let code = self
            .tables
            .get(&mq)
            .and_then(|t| rule_code(t, q, u64::from(canon.digit)))
            .ok_or(SolveError::Missing {
                material: self.material,
                needs: mq,
            })?;
        if self.model.carried.is_empty() || horizon == ENDLESS || horizon < 2 {
            fold(node, code, Some(canon.budget));
            return Ok(());
        }
        // Which of q's steady counts follow this state's budget.
        let c2 = after(horizon - 1);
        let mut fixed = ENDLESS;
        let mut carried = false;
        for &(i, l) in &model.steady {
            let left = |c: &DrawClock| c.count(variant, i, q).map(|n| l.saturating_sub(n));
            match (left(&c1), left(&c2)) {
                (Some(a), Some(b)) if a == b => fixed = fixed.min(a),
                (Some(a), Some(b)) if a == horizon - 1 && b == horizon - 2 => carried = true,
                _ => {
                    return Err(uncovered(format!(
                        "a move to {mq} leaves counts the tables do not follow"
                    )))
                }
            }
        }
        if !carried {
            fold(node, code, Some(canon.budget));
            return Ok(());
        }
        // q has min(fixed, r - 1) plies left: a result needing k holds from r = k + 1 when
        // k <= fixed, never otherwise.
        let v = match Value::of_code(code) {
            Some(Value::Win(k)) | Some(Value::Loss(k)) if k > fixed => Value::Draw,
            Some(v) => v,
            None => return Ok(()),
        };
        fold(node, v.code(), None);
        Ok(())
    }

    /// Folds the man moves of a level into the nodes, as `pass` reads them.
    fn men_into(&self, nodes: &mut [Node], men: &[ManMove], pass: Pass) {
        for &(s, t) in men {
            let code = u32::from(self.fin[t as usize]);
            let n = &mut nodes[s as usize];
            match pass {
                Pass::Fresh(l) => fold(n, code, Some(l)),
                Pass::Steady => fold(n, code, None),
                Pass::Offset(u) => {
                    // The reached state's steady count is `r + u - 1`: a result needing `k`
                    // there holds from `r = k - u + 1`.
                    let shifted = match Value::of_code(code) {
                        Some(Value::Win(k)) => Value::Win(k.saturating_sub(u)).code(),
                        Some(Value::Loss(k)) => Value::Loss(k.saturating_sub(u)).code(),
                        _ => code,
                    };
                    fold(n, shifted, None);
                }
            }
        }
    }

    /// Bucket entries for the open states of level `lv` that their moves outside the
    /// retrograde decide: a win, or a loss when no move is left inside it.
    fn seed(&self, nodes: &[Node], lv: u8, pushes: &mut Vec<(u16, u64)>) {
        for i in 0..self.size() {
            if !self.in_level(i, lv) {
                continue;
            }
            for d in 0..self.digits {
                let s = i * self.digits + d;
                let n = &nodes[s as usize];
                if n.flags & OPEN == 0 || n.flags & TERMINAL != 0 {
                    continue;
                }
                if n.win != NO_WIN {
                    pushes.push((n.win, s << 1 | 1));
                } else if n.left == 0 && n.flags & DRAWS == 0 {
                    pushes.push((n.loss, s << 1));
                }
            }
        }
    }

    /// The retrograde pass over the level's nodes, up to budget `horizon`.
    fn retro(
        &self,
        lv: u8,
        nodes: &mut [Node],
        pushes: Vec<(u16, u64)>,
        horizon: u16,
    ) -> Result<(), SolveError> {
        let mut buckets: Vec<Vec<u64>> = Vec::new();
        for (k, e) in pushes {
            if k > horizon {
                continue;
            }
            let k = k as usize;
            if buckets.len() <= k {
                buckets.resize_with(k + 1, Vec::new);
            }
            buckets[k].push(e);
        }
        let mut preds = Vec::new();
        let mut states = Vec::new();
        let mut k = 0usize;
        while k < buckets.len() {
            let list = std::mem::take(&mut buckets[k]);
            for e in list {
                let s = e >> 1;
                let win = e & 1 == 1;
                let n = &mut nodes[s as usize];
                if n.flags & OPEN == 0 {
                    continue;
                }
                n.flags &= !OPEN;
                n.code = code_of(if win {
                    Value::Win(k as u16)
                } else {
                    Value::Loss(k as u16)
                });
                if k >= horizon as usize {
                    continue;
                }
                self.predecessors(lv, s, &mut preds, &mut states);
                for &p in &states {
                    let pn = &mut nodes[p as usize];
                    if pn.flags & OPEN == 0 || pn.flags & QUIET == 0 {
                        continue;
                    }
                    let (at, e) = if !win {
                        (k + 1, p << 1 | 1)
                    } else {
                        if pn.left == 0 {
                            return Err(SolveError::Uncovered {
                                material: self.material,
                                detail: "a move found backwards is not among the position's \
                                         moves"
                                    .into(),
                            });
                        }
                        pn.left -= 1;
                        if pn.left > 0 || pn.flags & DRAWS != 0 || pn.win != NO_WIN {
                            continue;
                        }
                        ((k + 1).max(pn.loss as usize), p << 1)
                    };
                    if at > horizon as usize {
                        continue;
                    }
                    if buckets.len() <= at {
                        buckets.resize_with(at + 1, Vec::new);
                    }
                    buckets[at].push(e);
                }
            }
            k += 1;
        }
        Ok(())
    }

    /// The states of level `lv` from which a move inside the retrograde leads to state `s`.
    fn predecessors(&self, lv: u8, s: u64, preds: &mut Vec<u64>, out: &mut Vec<u64>) {
        out.clear();
        let (j, dj) = (s / self.digits, s % self.digits);
        self.back.predecessors(self.ix, j, preds);
        for &i in preds.iter() {
            if !self.in_level(i, lv) {
                continue;
            }
            match &self.cond {
                None => out.push(i),
                Some(c) => {
                    let (ci, cj) = (c.at(i), c.at(j));
                    let limit = u64::from(c.limit);
                    if !cj {
                        if dj != 0 {
                            continue;
                        }
                        if ci {
                            // Every running digit of the predecessor (0 there is drawn).
                            out.extend((1..=limit).map(|d| i * self.digits + d));
                        } else {
                            out.push(i * self.digits);
                        }
                    } else if ci {
                        if dj < limit {
                            out.push(i * self.digits + dj + 1);
                        }
                    } else if dj == limit {
                        out.push(i * self.digits);
                    }
                }
            }
        }
    }

    /// The passes of a level under a [`Shape::Twofold`] model.
    fn twofold(&mut self, lv: u8, nodes: &mut [Node], found: &Found) -> Result<(), SolveError> {
        let (_, lm) = self.model.mover.ok_or(SolveError::Uncovered {
            material: self.material,
            detail: "a twofold count without a man-move count".into(),
        })?;
        let steady = self.model.steady_horizon();
        // The level's states and their nodes before any man move is read.
        let states: Vec<u64> = (0..self.size())
            .filter(|&i| self.in_level(i, lv))
            .flat_map(|i| (0..self.digits).map(move |d| (i, d)))
            .filter(|&(i, d)| self.valid_digit(i, d))
            .map(|(i, d)| i * self.digits + d)
            .collect();
        let base: Vec<Node> = states.iter().map(|&s| nodes[s as usize]).collect();
        let mut result: Vec<u16> = vec![0; states.len()];
        let passes =
            std::iter::once(Pass::Steady).chain((1..=steady.saturating_sub(lm)).map(Pass::Offset));
        for pass in passes {
            for (k, &s) in states.iter().enumerate() {
                nodes[s as usize] = base[k];
            }
            self.men_into(nodes, &found.men, pass);
            let mut p = found.pushes.clone();
            self.seed(nodes, lv, &mut p);
            self.retro(lv, nodes, p, lm)?;
            let mut open = false;
            for (k, &s) in states.iter().enumerate() {
                let n = &nodes[s as usize];
                if result[k] != 0 {
                    continue;
                }
                if n.flags & OPEN != 0 {
                    open = true;
                    continue;
                }
                result[k] = match (pass, Value::of_code(u32::from(n.code))) {
                    // At the level's entry the man-move count is full: the result holds
                    // from the steady count `lm + u` up.
                    (Pass::Offset(u), Some(Value::Win(_))) => code_of(Value::Win(lm + u)),
                    (Pass::Offset(u), Some(Value::Loss(_))) => code_of(Value::Loss(lm + u)),
                    _ => n.code,
                };
            }
            if !open {
                break;
            }
        }
        for (k, &s) in states.iter().enumerate() {
            let n = &nodes[s as usize];
            self.fin[s as usize] = if result[k] != 0 {
                result[k]
            } else if n.flags == 0 && n.code == 0 {
                0
            } else {
                code_of(Value::Draw)
            };
        }
        Ok(())
    }
}

/// Folds a move's value into a node: `code` is the value of the state it reaches, for the
/// opponent; with `Some(b)` that state's budget is fixed at `b` (the move restarts the counts),
/// with `None` it is one ply less than the mover's (the move carries them on).
#[inline]
fn fold(node: &mut Node, code: u32, fixed: Option<u16>) {
    let v = match fixed {
        Some(b) => match at_budget(code, b) {
            // A restart: only the move itself needs the budget.
            Some(Value::Win(_)) => Value::Win(0),
            Some(Value::Loss(_)) => Value::Loss(0),
            Some(v) => v,
            None => return,
        },
        None => match Value::of_code(code) {
            Some(v) => v,
            None => return,
        },
    };
    match v {
        Value::Loss(k) => node.win = node.win.min(k.saturating_add(1)),
        Value::Win(k) => node.loss = node.loss.max(k.saturating_add(1)),
        Value::Draw => node.flags |= DRAWS,
    }
}

/// The rule code of `pos` (of `table`'s material) with digit `digit`: `None` when the table
/// has no values under the rules or `pos` is not in it.
pub(crate) fn rule_code(table: &Table, pos: &Position, digit: u64) -> Option<u32> {
    let r = table.rules.as_ref()?;
    if digit >= r.digits {
        return None;
    }
    let i = table.numbering.index(pos)?;
    Some(r.packed.get(i * r.digits + digit))
}
