//! The retrograde solver.
//!
//! 1. **Forward pass** (on every core): each index that is a legal position gets its moves from
//!    the variant's generator. Captures and promotions lead to other materials, already
//!    solved, so their values are known at once; what remains is the number of distinct
//!    non-capturing moves that keep the material. Positions the rules decide (no legal move,
//!    an end rule) get their value here.
//! 2. **Retrograde pass**, in order of plies: when a position's value becomes final, its
//!    predecessors inside the material are found by taking a non-capturing move back (the
//!    ruleset's directions and ranges, read backwards); a predecessor of a loss is a win one
//!    ply longer; a predecessor all of whose moves lead to wins is a loss one ply longer than
//!    the longest of them. Buckets by ply make the winner's distance the shortest and the
//!    loser's the longest.
//! 3. What is never decided is a draw: neither side can force an end.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use crate::bits::Bits;
use crate::board::{Dir, DIRS, NONE};
use crate::budget::Budget;
use crate::material::Material;
use crate::moves::{Move, MoveKind};
use crate::position::Kind;
use crate::rules::Range;
use crate::variant::Variant;

use super::index::Indexer;
use super::set::Tables;
use super::table::{decided_value, supported, Progress, Table, Unsupported, Value};

/// Largest number of indices a table may have (the solver keeps 10 bytes per index).
pub const MAX_INDICES: u64 = 1 << 31;

/// Why a table could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// The variant is not covered.
    Unsupported(Unsupported),
    /// The material has no positions in the variant, or too many of one kind.
    Impossible(Material),
    /// The material has more positions than a table may hold.
    TooLarge { material: Material, indices: u64 },
    /// A move leads to a material whose table is missing.
    Missing { material: Material, needs: Material },
    /// A move that keeps the material but is not a piece's move (a drop, a pass), or moves
    /// that the backward walk does not find: the ruleset has a mechanism the solver does not
    /// cover.
    Uncovered { material: Material, detail: String },
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::Unsupported(u) => write!(f, "no endgame tables for this variant: {u}"),
            SolveError::Impossible(m) => write!(f, "material {m} has no positions in this variant"),
            SolveError::TooLarge { material, indices } => write!(
                f,
                "material {material} has {indices} indices, more than a table may hold ({MAX_INDICES})"
            ),
            SolveError::Missing { material, needs } => {
                write!(f, "material {material} needs the table of {needs} first")
            }
            SolveError::Uncovered { material, detail } => {
                write!(f, "material {material}: {detail}")
            }
        }
    }
}

impl std::error::Error for SolveError {}

/// The solver's state of one index.
#[derive(Clone, Copy, Default)]
struct St {
    /// The value's code ([`Value::code`]) once final; 0 for no position.
    code: u16,
    /// Non-capturing moves inside the material not yet known to lead to a win for the
    /// opponent.
    left: u16,
    /// The longest loss the moves to other materials give (plies, for the mover), 0 if none.
    ext_loss: u16,
    flags: u8,
}

/// A legal position that is not decided yet.
const OPEN: u8 = 1;
/// Has non-capturing moves inside the material (they are legal here).
const QUIET: u8 = 2;
/// A move to another material draws: this position is not lost.
const DRAWS: u8 = 4;
/// A move to another material wins.
const WINS: u8 = 8;

/// An entry of the retrograde buckets: an index and whether it becomes a win.
#[inline]
fn entry(index: u64, win: bool) -> u64 {
    index << 1 | win as u64
}

/// Builds the table of `material`; `tables` must hold every material its captures and
/// promotions lead to ([`Tables::build`] sees to it).
pub fn solve(
    variant: &'static Variant,
    material: Material,
    tables: &Tables,
    progress: &mut dyn FnMut(Progress),
) -> Result<Table, SolveError> {
    supported(variant).map_err(SolveError::Unsupported)?;
    let ix = Indexer::new(variant, &material).ok_or(SolveError::Impossible(material))?;
    let size = ix.size();
    if size > MAX_INDICES {
        return Err(SolveError::TooLarge {
            material,
            indices: size,
        });
    }
    let back = Backward::new(variant, &material)?;
    let mut st = vec![St::default(); size as usize];

    // 1. Forward pass.
    const CHUNK: usize = 1 << 14;
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .clamp(1, 16);
    let work = Mutex::new(st.chunks_mut(CHUNK).enumerate());
    let done = AtomicU64::new(0);
    let forward = |report: &mut dyn FnMut(u64)| -> Result<Vec<(u16, u64)>, SolveError> {
        let budget = Budget::unlimited();
        let mut moves = Vec::new();
        let mut quiet = Vec::new();
        let mut pushes = Vec::new();
        loop {
            let next = work.lock().map(|mut w| w.next()).unwrap_or(None);
            let Some((n, chunk)) = next else {
                return Ok(pushes);
            };
            let base = (n * CHUNK) as u64;
            for (k, s) in chunk.iter_mut().enumerate() {
                let i = base + k as u64;
                examine(
                    variant,
                    &material,
                    tables,
                    &ix,
                    i,
                    s,
                    &budget,
                    &mut moves,
                    &mut quiet,
                    &mut pushes,
                )?;
            }
            let d = done.fetch_add(chunk.len() as u64, Ordering::Relaxed) + chunk.len() as u64;
            report(d);
        }
    };
    let results: Vec<Result<Vec<(u16, u64)>, SolveError>> = std::thread::scope(|s| {
        let helpers: Vec<_> = (1..threads)
            .map(|_| s.spawn(|| forward(&mut |_| {})))
            .collect();
        let mut all = vec![forward(&mut |d| {
            progress(Progress {
                material,
                done: d,
                total: size,
            })
        })];
        for h in helpers {
            all.push(h.join().unwrap_or_else(|_| {
                Err(SolveError::Uncovered {
                    material,
                    detail: "a solver thread stopped".into(),
                })
            }));
        }
        all
    });
    let mut buckets: Vec<Vec<u64>> = Vec::new();
    for r in results {
        for (d, e) in r? {
            let d = d as usize;
            if buckets.len() <= d {
                buckets.resize_with(d + 1, Vec::new);
            }
            buckets[d].push(e);
        }
    }

    // 2. Retrograde pass, ply by ply.
    let mut d = 0;
    let mut preds = Vec::new();
    while d < buckets.len() {
        let list = std::mem::take(&mut buckets[d]);
        for e in list {
            let i = e >> 1;
            let win = e & 1 == 1;
            let s = &mut st[i as usize];
            if s.flags & OPEN == 0 {
                continue;
            }
            s.flags &= !OPEN;
            let dist = d as u16;
            s.code = if win {
                Value::Win(dist)
            } else {
                Value::Loss(dist)
            }
            .code() as u16;
            back.predecessors(&ix, i, &mut preds);
            for &j in &preds {
                let p = &mut st[j as usize];
                if p.flags & OPEN == 0 || p.flags & QUIET == 0 {
                    continue;
                }
                let (at, e) = if !win {
                    (d + 1, entry(j, true))
                } else {
                    if p.left == 0 {
                        return Err(SolveError::Uncovered {
                            material,
                            detail: "a move found backwards is not among the position's moves"
                                .into(),
                        });
                    }
                    p.left -= 1;
                    if p.left > 0 || p.flags & (DRAWS | WINS) != 0 {
                        continue;
                    }
                    ((d + 1).max(p.ext_loss as usize), entry(j, false))
                };
                if buckets.len() <= at {
                    buckets.resize_with(at + 1, Vec::new);
                }
                buckets[at].push(e);
            }
        }
        d += 1;
    }
    progress(Progress {
        material,
        done: size,
        total: size,
    });

    // 3. The rest is drawn.
    let codes: Vec<u16> = st
        .iter()
        .map(|s| {
            if s.flags & OPEN != 0 {
                Value::Draw.code() as u16
            } else {
                s.code
            }
        })
        .collect();
    drop(st);
    Ok(Table::from_codes(
        variant,
        material,
        super::numbering::Numbering::Pieces(ix),
        &codes,
    ))
}

/// The forward pass for index `i`: its state, and the bucket entries it starts with.
#[allow(clippy::too_many_arguments)]
#[inline]
fn examine(
    variant: &Variant,
    material: &Material,
    tables: &Tables,
    ix: &Indexer,
    i: u64,
    s: &mut St,
    budget: &Budget,
    moves: &mut Vec<Move>,
    quiet: &mut Vec<(u8, u8)>,
    pushes: &mut Vec<(u16, u64)>,
) -> Result<(), SolveError> {
    let Some(pos) = ix.position(variant, i) else {
        return Ok(());
    };
    let side = pos.side();
    if variant.check_kings(&pos).is_err() {
        return Ok(());
    }
    let terminal = |v: Value, s: &mut St, pushes: &mut Vec<(u16, u64)>| match v {
        Value::Draw => s.code = Value::Draw.code() as u16,
        Value::Win(n) | Value::Loss(n) => {
            s.flags = OPEN;
            pushes.push((n, entry(i, matches!(v, Value::Win(_)))));
        }
    };
    if variant.decided(&pos) {
        terminal(decided_value(variant, &pos), s, pushes);
        return Ok(());
    }
    // No budget: a generation error cannot occur.
    let _ = variant.generate(&pos, budget, moves);
    if moves.is_empty() {
        let v = if variant.no_moves_winner(side) == side {
            Value::Win(0)
        } else {
            Value::Loss(0)
        };
        terminal(v, s, pushes);
        return Ok(());
    }
    s.flags = OPEN;
    quiet.clear();
    let mut best_win: Option<u16> = None;
    for m in moves.iter() {
        match m.kind() {
            MoveKind::Drop | MoveKind::Pass => {
                return Err(SolveError::Uncovered {
                    material: *material,
                    detail: "a move that is not a piece's move keeps the material".into(),
                });
            }
            MoveKind::Step if m.piece() == m.becomes() => {
                quiet.push((m.from(), m.to()));
                continue;
            }
            _ => {}
        }
        let q = variant.play(&pos, m);
        let Some(v) = tables.probe(&q) else {
            return Err(SolveError::Missing {
                material: *material,
                needs: Material::of(&q),
            });
        };
        match v.before_move() {
            Value::Win(n) => best_win = Some(best_win.map_or(n, |b| b.min(n))),
            Value::Loss(n) => s.ext_loss = s.ext_loss.max(n),
            Value::Draw => s.flags |= DRAWS,
        }
    }
    quiet.sort_unstable();
    quiet.dedup();
    s.left = quiet.len() as u16;
    if !quiet.is_empty() {
        s.flags |= QUIET;
    }
    if let Some(n) = best_win {
        s.flags |= WINS;
        pushes.push((n, entry(i, true)));
    } else if quiet.is_empty() && s.flags & DRAWS == 0 {
        pushes.push((s.ext_loss, entry(i, false)));
    }
    Ok(())
}

/// Non-capturing moves taken back: for a position and the side that has just moved, the
/// positions it moved from, read from the ruleset's directions and ranges.
pub(crate) struct Backward {
    variant: &'static Variant,
    /// `into[c][d]`: the cell whose neighbour in direction `d` is `c` (`NONE`: none).
    into: Vec<[u8; DIRS]>,
    /// Each side's far rank, where a man makes no more non-capturing moves under the frozen
    /// far rank rule (empty otherwise).
    frozen: [Bits; 2],
}

impl Backward {
    pub(crate) fn new(
        variant: &'static Variant,
        material: &Material,
    ) -> Result<Backward, SolveError> {
        let board = variant.board();
        let mut into = vec![[NONE; DIRS]; board.id_bound()];
        for c in board.cells().iter() {
            for d in Dir::ALL {
                let n = board.next(c, d);
                if n == NONE {
                    continue;
                }
                let slot = &mut into[n as usize][d as usize];
                if *slot != NONE {
                    return Err(SolveError::Uncovered {
                        material: *material,
                        detail: "two cells lead to one cell in the same direction".into(),
                    });
                }
                *slot = c as u8;
            }
        }
        let frozen = if variant.rules().far_rank_frozen {
            [board.rank(board.height() - 1), board.rank(0)]
        } else {
            [Bits::EMPTY; 2]
        };
        Ok(Backward {
            variant,
            into,
            frozen,
        })
    }

    /// The indices of the positions from which a non-capturing move that keeps the material
    /// leads to index `i`, each once (whether the move is legal there is the caller's
    /// business: the position must have such moves).
    ///
    /// Under a king-move limit, the mover's run tells which moves lead here: a king's move
    /// leaves that king's run of 1 to `limit` moves, anything else none. A run of `n > 1` came
    /// from the same king's run of `n - 1` on the square it left; a run of 1 from no run or a
    /// run of another king; no run, from any run of the mover. The other side's run is as it
    /// was.
    pub(crate) fn predecessors(&self, ix: &Indexer, i: u64, out: &mut Vec<u64>) {
        out.clear();
        let Some((side, sets)) = ix.pieces(i) else {
            return;
        };
        let (placement, digits) = ix.split(i);
        let mover = side.opponent();
        let m = mover as usize;
        let occ = {
            let mut o = Bits::EMPTY;
            for color in sets {
                for b in color {
                    o = o.union(b);
                }
            }
            o
        };
        let rules = self.variant.rules();
        let board = self.variant.board();
        let mut from = Vec::new();
        for kind in Kind::ALL {
            let pr = rules.piece(kind);
            let dirs = pr.moves[m];
            if dirs.is_empty() {
                continue;
            }
            let frozen = if kind == Kind::Man {
                self.frozen[m]
            } else {
                Bits::EMPTY
            };
            for to in sets[m][kind as usize].iter() {
                from.clear();
                for d in dirs.iter() {
                    let mut x = self.into[to][d as usize];
                    match pr.range {
                        Range::Step => {
                            if x != NONE && !occ.contains(x as usize) {
                                from.push(x);
                            }
                        }
                        Range::Slide => {
                            while x != NONE && !occ.contains(x as usize) {
                                from.push(x);
                                x = self.into[x as usize][d as usize];
                            }
                        }
                        Range::Line => {
                            let men = sets[m][Kind::Man as usize];
                            while x != NONE && men.contains(x as usize) {
                                x = self.into[x as usize][d as usize];
                            }
                            if x != NONE && !occ.contains(x as usize) {
                                from.push(x);
                            }
                        }
                    }
                }
                if pr.range == Range::Step
                    && dirs == crate::board::DirSet::ALL
                    && !board.step_only().is_empty()
                {
                    for x in board.step_only_from(to) {
                        if !occ.contains(x) {
                            from.push(x as u8);
                        }
                    }
                }
                from.sort_unstable();
                from.dedup();
                if from.is_empty() {
                    continue;
                }
                // The index of the position before: this group's rank changes, the side to
                // move is the mover.
                let Some(g) = ix.group(mover, kind) else {
                    continue;
                };
                let set = sets[m][kind as usize];
                let Some(rank) = ix.rank(g, set) else {
                    continue;
                };
                let stride = ix.stride(g);
                let base = (placement & !1) - rank * stride + mover as u64;
                let values = ix.run_values(mover);
                // The mover's run here, and the king whose run it is.
                let run = digits[m];
                let limit = u64::from(ix.limit());
                if values > 1 && kind == Kind::King {
                    // Only the king with the run moved, and only if it has one.
                    if run == 0 || ix.run_code(set, to, 1) != run - (run - 1) % limit {
                        continue;
                    }
                } else if values > 1 && run != 0 {
                    // Anything but a king's move leaves no run.
                    continue;
                }
                for &x in &from {
                    if frozen.contains(x as usize) {
                        continue;
                    }
                    let mut q = set;
                    q.remove(to);
                    q.insert(x as usize);
                    let Some(r) = ix.rank(g, q) else {
                        continue;
                    };
                    let before = base + r * stride;
                    let mut push = |d: u64| {
                        let mut ds = digits;
                        ds[m] = d;
                        out.push(ix.with_runs(before, ds));
                    };
                    if values == 1 {
                        push(0);
                    } else if kind != Kind::King {
                        (0..values).for_each(&mut push);
                    } else {
                        let count = (run - 1) % limit + 1;
                        let own = ix.run_code(q, x as usize, 1);
                        if count > 1 {
                            push(own + count - 2);
                        } else {
                            // No run, or another king's: any but this king's.
                            (0..values)
                                .filter(|d| *d == 0 || !(own..own + limit).contains(d))
                                .for_each(&mut push);
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every non-capturing move that keeps the material, found forwards by the generator, is
    /// found backwards, and nothing else is, on every position of small materials.
    #[test]
    fn backward_moves_are_the_forward_ones() {
        let some = |id: &str, names: &[&str]| -> (String, Vec<Material>) {
            let m = names.iter().map(|n| Material::parse(n).unwrap()).collect();
            (id.to_string(), m)
        };
        let all = |id: &str, pieces: u32| -> (String, Vec<Material>) {
            let v = crate::variant(id).unwrap();
            (id.to_string(), super::super::materials_up_to(v, pieces))
        };
        for (id, materials) in [
            some("english", &["KvK", "MvK", "KMvK"]),
            some("international", &["KvK", "MvM"]),
            some("turkish", &["KvMM", "MMvK"]),
            some("dameo", &["MMvK"]),
            // King runs: a side with men and kings, one side or both.
            some("frisian", &["KMvK", "MvKM"]),
            all("alquerque", 3),
            all("seth", 3),
            all("croda", 3),
            all("gothic", 3),
        ] {
            let v = crate::variant(&id).unwrap();
            let mut found = 0;
            for m in materials {
                let name = m.name();
                let ix = Indexer::new(v, &m).unwrap();
                let back = Backward::new(v, &m).unwrap();
                let mut forward: Vec<(u64, u64)> = Vec::new();
                let mut backward: Vec<(u64, u64)> = Vec::new();
                let mut preds = Vec::new();
                // Whether each index is a position whose quiet moves are legal.
                let mut quiet_ok = vec![false; ix.size() as usize];
                for i in 0..ix.size() {
                    let Some(pos) = ix.position(v, i) else {
                        continue;
                    };
                    if v.decided(&pos) {
                        continue;
                    }
                    for mv in v.legal_moves(&pos, &Budget::unlimited()).unwrap() {
                        if mv.captured().is_empty() && mv.piece() == mv.becomes() {
                            let q = v.play(&pos, &mv);
                            forward.push((i, ix.index(&q).unwrap()));
                            quiet_ok[i as usize] = true;
                        }
                    }
                }
                for i in 0..ix.size() {
                    if ix.position(v, i).is_none() {
                        continue;
                    }
                    back.predecessors(&ix, i, &mut preds);
                    backward.extend(
                        preds
                            .iter()
                            .filter(|&&j| quiet_ok[j as usize])
                            .map(|&j| (j, i)),
                    );
                }
                forward.sort_unstable();
                forward.dedup();
                backward.sort_unstable();
                assert_eq!(forward, backward, "{id} {name}");
                found += forward.len();
            }
            assert!(found > 0, "{id}");
        }
    }
}
