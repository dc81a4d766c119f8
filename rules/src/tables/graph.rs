//! The graph solver: one material's positions as an explicit graph, solved by the same
//! ply-ordered retrograde pass as [`super::solve()`], for the rulesets whose moves cannot be
//! taken back along directions: stones dropped from the hand and passes (the drop games),
//! the previous move in the position (BrainKing's Alquerque), canters, charges and castles
//! (the Camelot family).
//!
//! 1. **Forward pass** (on every core): every index of the material's numbering
//!    ([`Numbering`]) that is a legal position gets its moves from the variant's own
//!    generator ([`Variant::generate`], [`Variant::play`]). A move that leaves the material (a
//!    capture) has its value from the table it leads to, already built; a move that stays in it
//!    (a step, a canter, a drop, a pass, a castle move) is an edge of the graph, to the index of
//!    the position it leads to. Positions the rules decide ([`Variant::decided`], no legal move)
//!    get their value here.
//! 2. The edges are turned round: each position's predecessors are listed, once each.
//! 3. **Retrograde pass**, ply by ply, exactly as for the other tables: a predecessor of a
//!    loss is a win one ply longer; a predecessor all of whose moves lead to wins (and whose
//!    moves out of the material give no draw or win) is a loss one ply longer than the
//!    longest of them. What is never decided is a draw.
//!
//! The graph keeps 4 bytes per edge each way and 16 per index while it is solved; the
//! materials it serves are small (a drop game's largest, Hageby's five stones a side, has
//! 1.1 million indices; three pieces of Camelot, 4 million per count of castle moves).
//!
//! [`Graph`] is public so that a pass of another kind (values under a counting rule, with the
//! counters in the state) can run over the same graph: its nodes are the numbering's indices,
//! [`Graph::children`] lists the moves inside the material, [`Graph::position`] gives each
//! node's position (to tell a move that resets a counter), and the moves that leave the
//! material are found by generating the node's moves again.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use crate::budget::Budget;
use crate::material::Material;
use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::rules::Goal;
use crate::variant::Variant;

use super::numbering::Numbering;
use super::set::Tables;
use super::solve::{SolveError, MAX_INDICES};
use super::table::{decided_value, Progress, Table, Value};

/// Whether `variant` needs the graph solver: its positions hold more than pieces and a side
/// to move, or its moves are not steps, slides and line moves that a direction takes back.
pub(crate) fn needed(variant: &Variant) -> bool {
    let r = variant.rules();
    r.stones_in_hand != 0
        || r.no_return
        || r.leaps()
        || r.castles.is_some()
        || r.goal == Goal::NoMovesPasses
}

/// The working memory of solving a material numbered `numbering` over its graph, in bytes,
/// estimated before solving: 2 bytes an index of the material (its codes), 18 an index of the
/// largest part solved at once (its node, its offsets into the edges both ways) and 8 a move
/// inside the material (an edge, both ways), the moves counted on a sample of the part's
/// indices (a fixed one: the estimate is the same on every replica).
pub(crate) fn working_bytes(variant: &Variant, numbering: &Numbering) -> u64 {
    let Some(part) = numbering
        .layers()
        .into_iter()
        .max_by_key(|l| l.end - l.start)
    else {
        return 0;
    };
    let n = part.end - part.start;
    let budget = Budget::unlimited();
    let mut moves = Vec::new();
    let (mut tried, mut edges) = (0u64, 0u64);
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    while tried < 2048 && n > 0 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        tried += 1;
        let Some(pos) = numbering.position(variant, part.start + seed % n) else {
            continue;
        };
        if variant.decided(&pos) {
            continue;
        }
        let _ = variant.generate(&pos, &budget, &mut moves);
        edges += moves
            .iter()
            .filter(|m| !m.is_capture() && m.piece() == m.becomes())
            .count() as u64;
    }
    let per_index = (edges * 8).checked_div(tried).unwrap_or(0);
    numbering
        .size()
        .saturating_mul(2)
        .saturating_add(n.saturating_mul(18 + per_index))
}

/// What the forward pass knows of one index.
#[derive(Clone, Copy, Default)]
struct Node {
    /// The value's code ([`Value::code`]) once final; 0 for no position.
    code: u16,
    /// Moves inside the material not yet known to lead to a win for the opponent.
    left: u16,
    /// The longest loss the moves out of the material give (plies, for the mover), 0 if none.
    ext_loss: u16,
    flags: u8,
}

/// A legal position that is not decided yet.
const OPEN: u8 = 1;
/// A move out of the material draws: this position is not lost.
const DRAWS: u8 = 4;
/// A move out of the material wins.
const WINS: u8 = 8;

/// The explicit graph of one material: every index of its numbering, each position's moves
/// inside the material as edges to the positions they lead to, and what the moves out of it
/// give.
pub struct Graph<'a> {
    variant: &'static Variant,
    material: Material,
    numbering: &'a Numbering,
    /// The first index of the layer the graph holds ([`Numbering::layers`]).
    first: u64,
    nodes: Vec<Node>,
    /// The decided positions and the wins out of the material, by plies: where the
    /// retrograde pass starts (`index << 1 | win`).
    seeds: Vec<(u16, u64)>,
    /// Edges: the moves of node `i` lead to `edges[start[i]..start[i + 1]]`, each node once
    /// (nodes counted from the layer's first index).
    start: Vec<u32>,
    edges: Vec<u32>,
}

/// The largest number of edges a graph may have (offsets are 32 bits).
const MAX_EDGES: u64 = u32::MAX as u64;

impl<'a> Graph<'a> {
    /// The graph of one layer of `material` (`layer`, a range of indices of `numbering`, one
    /// of [`Numbering::layers`]): `tables` must hold every material its captures lead to, and
    /// `known` the codes of the layers its moves lead to, solved before.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn build(
        variant: &'static Variant,
        material: Material,
        numbering: &'a Numbering,
        layer: std::ops::Range<u64>,
        known: &[u16],
        tables: &Tables,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<Graph<'a>, SolveError> {
        let first = layer.start;
        let size = layer.end - layer.start;
        let total_size = numbering.size();
        let mut nodes = vec![Node::default(); size as usize];
        const CHUNK: usize = 1 << 13;
        let threads = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
            .clamp(1, 16);
        let work = Mutex::new(nodes.chunks_mut(CHUNK).enumerate());
        let done = AtomicU64::new(0);
        /// What one chunk gives: its number, each node's edge count, the edges, the seeds.
        type Part = (usize, Vec<u16>, Vec<u32>, Vec<(u16, u64)>);
        let forward = |report: &mut dyn FnMut(u64)| -> Result<Vec<Part>, SolveError> {
            let budget = Budget::unlimited();
            let mut moves = Vec::new();
            let mut out = Vec::new();
            loop {
                let next = work.lock().map(|mut w| w.next()).unwrap_or(None);
                let Some((n, chunk)) = next else {
                    return Ok(out);
                };
                let base = first + (n * CHUNK) as u64;
                let mut counts = Vec::with_capacity(chunk.len());
                let mut edges = Vec::new();
                let mut seeds = Vec::new();
                for (k, node) in chunk.iter_mut().enumerate() {
                    let before = edges.len();
                    examine(
                        variant,
                        &material,
                        tables,
                        numbering,
                        &layer,
                        known,
                        base + k as u64,
                        node,
                        &budget,
                        &mut moves,
                        &mut edges,
                        &mut seeds,
                    )?;
                    counts.push((edges.len() - before) as u16);
                }
                out.push((n, counts, edges, seeds));
                let d = done.fetch_add(chunk.len() as u64, Ordering::Relaxed) + chunk.len() as u64;
                report(d);
            }
        };
        let results: Vec<Result<Vec<Part>, SolveError>> = std::thread::scope(|s| {
            let helpers: Vec<_> = (1..threads)
                .map(|_| s.spawn(|| forward(&mut |_| {})))
                .collect();
            let mut all = vec![forward(&mut |d| {
                progress(Progress {
                    material,
                    done: first + d,
                    total: total_size,
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
        let mut parts = Vec::new();
        for r in results {
            parts.extend(r?);
        }
        parts.sort_unstable_by_key(|p| p.0);
        let total: u64 = parts.iter().map(|p| p.2.len() as u64).sum();
        if total > MAX_EDGES {
            return Err(SolveError::TooLarge {
                material,
                indices: size,
            });
        }
        let mut start = Vec::with_capacity(size as usize + 1);
        let mut edges = Vec::with_capacity(total as usize);
        let mut seeds = Vec::new();
        start.push(0u32);
        // Each part is freed once copied: the edges are held about once, not twice.
        for (_, counts, e, s) in parts {
            let mut at = edges.len() as u32;
            for c in counts {
                at += u32::from(c);
                start.push(at);
            }
            edges.extend_from_slice(&e);
            seeds.extend(s);
        }
        Ok(Graph {
            variant,
            material,
            numbering,
            first,
            nodes,
            seeds,
            start,
            edges,
        })
    }

    /// Number of nodes: the layer's indices, positions or not.
    pub fn len(&self) -> u64 {
        self.nodes.len() as u64
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Number of edges.
    pub fn edges(&self) -> u64 {
        self.edges.len() as u64
    }

    /// The position of node `i`, `None` for an index that is no legal position.
    pub fn position(&self, i: u64) -> Option<Position> {
        self.nodes
            .get(i as usize)
            .filter(|n| n.code != 0 || n.flags & OPEN != 0)?;
        self.numbering.position(self.variant, self.first + i)
    }

    /// The node of `pos`, if it is one of the graph's.
    pub fn node(&self, pos: &Position) -> Option<u64> {
        if super::material_of(self.variant, pos) != self.material {
            return None;
        }
        let i = self.numbering.index(pos)?.checked_sub(self.first)?;
        (i < self.len()).then_some(i)
    }

    /// The nodes the moves of node `i` lead to inside the material, each once.
    pub fn children(&self, i: u64) -> &[u32] {
        let i = i as usize;
        &self.edges[self.start[i] as usize..self.start[i + 1] as usize]
    }

    /// Solves the graph: the codes of its layer's indices, into `codes` (the layer's part of
    /// the table's codes).
    pub(crate) fn solve(self, codes: &mut [u16]) {
        let Graph {
            mut nodes,
            seeds,
            start,
            edges,
            ..
        } = self;
        let size = nodes.len();
        // The edges turned round: the predecessors of node `j` are `back[from[j]..from[j + 1]]`.
        let mut from = vec![0u32; size + 1];
        for &j in &edges {
            from[j as usize + 1] += 1;
        }
        for i in 0..size {
            from[i + 1] += from[i];
        }
        let mut back = vec![0u32; edges.len()];
        {
            let mut fill = from.clone();
            for i in 0..size {
                for &j in &edges[start[i] as usize..start[i + 1] as usize] {
                    back[fill[j as usize] as usize] = i as u32;
                    fill[j as usize] += 1;
                }
            }
        }
        drop(edges);
        drop(start);

        let mut buckets: Vec<Vec<u64>> = Vec::new();
        for (d, e) in seeds {
            let d = d as usize;
            if buckets.len() <= d {
                buckets.resize_with(d + 1, Vec::new);
            }
            buckets[d].push(e);
        }
        let mut d = 0;
        while d < buckets.len() {
            let list = std::mem::take(&mut buckets[d]);
            for e in list {
                let i = (e >> 1) as usize;
                let win = e & 1 == 1;
                let n = &mut nodes[i];
                if n.flags & OPEN == 0 {
                    continue;
                }
                n.flags &= !OPEN;
                let dist = d as u16;
                n.code = if win {
                    Value::Win(dist)
                } else {
                    Value::Loss(dist)
                }
                .code() as u16;
                for &j in &back[from[i] as usize..from[i + 1] as usize] {
                    let p = &mut nodes[j as usize];
                    if p.flags & OPEN == 0 {
                        continue;
                    }
                    let (at, e) = if !win {
                        (d + 1, (j as u64) << 1 | 1)
                    } else {
                        p.left -= 1;
                        if p.left > 0 || p.flags & (DRAWS | WINS) != 0 {
                            continue;
                        }
                        ((d + 1).max(p.ext_loss as usize), (j as u64) << 1)
                    };
                    if buckets.len() <= at {
                        buckets.resize_with(at + 1, Vec::new);
                    }
                    buckets[at].push(e);
                }
            }
            d += 1;
        }
        for (c, n) in codes.iter_mut().zip(&nodes) {
            *c = if n.flags & OPEN != 0 {
                Value::Draw.code() as u16
            } else {
                n.code
            };
        }
    }
}

/// Builds the table of `material` over its explicit graph; `tables` must hold every material
/// its captures lead to ([`Tables::build`] sees to it).
pub(crate) fn solve(
    variant: &'static Variant,
    material: Material,
    tables: &Tables,
    progress: &mut dyn FnMut(Progress),
) -> Result<Table, SolveError> {
    let numbering = Numbering::new(variant, &material).ok_or(SolveError::Impossible(material))?;
    let size = numbering.size();
    if size > MAX_INDICES {
        return Err(SolveError::TooLarge {
            material,
            indices: size,
        });
    }
    let mut codes = vec![0u16; size as usize];
    for layer in numbering.layers() {
        let (lo, hi) = (layer.start as usize, layer.end as usize);
        let graph = Graph::build(
            variant, material, &numbering, layer, &codes, tables, progress,
        )?;
        graph.solve(&mut codes[lo..hi]);
    }
    progress(Progress {
        material,
        done: size,
        total: size,
    });
    Ok(Table::from_codes(variant, material, numbering, &codes))
}

/// The forward pass for index `i`: its node, its edges (appended to `edges`) and the seeds
/// of the retrograde pass it gives.
#[allow(clippy::too_many_arguments)]
fn examine(
    variant: &Variant,
    material: &Material,
    tables: &Tables,
    numbering: &Numbering,
    layer: &std::ops::Range<u64>,
    known: &[u16],
    i: u64,
    node: &mut Node,
    budget: &Budget,
    moves: &mut Vec<Move>,
    edges: &mut Vec<u32>,
    seeds: &mut Vec<(u16, u64)>,
) -> Result<(), SolveError> {
    let Some(pos) = numbering.position(variant, i) else {
        return Ok(());
    };
    if variant.check_kings(&pos).is_err() {
        return Ok(());
    }
    let side = pos.side();
    let mut terminal = |v: Value, node: &mut Node| match v {
        Value::Draw => node.code = Value::Draw.code() as u16,
        Value::Win(n) | Value::Loss(n) => {
            node.flags = OPEN;
            seeds.push((
                n,
                (i - layer.start) << 1 | matches!(v, Value::Win(_)) as u64,
            ));
        }
    };
    if variant.decided(&pos) {
        terminal(decided_value(variant, &pos), node);
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
        terminal(v, node);
        return Ok(());
    }
    node.flags = OPEN;
    let first = edges.len();
    let mut best_win: Option<u16> = None;
    for m in moves.iter() {
        let q = variant.play(&pos, m);
        // A move keeps the material unless it captures or crowns: a step, a canter, a castle
        // move, a drop (the stone leaves the hand for the board), a pass.
        let keeps = !m.is_capture() && m.piece() == m.becomes() && m.kind() != MoveKind::Removal;
        debug_assert_eq!(keeps, super::material_of(variant, &q) == *material);
        if keeps {
            let Some(j) = numbering.index(&q) else {
                return Err(SolveError::Uncovered {
                    material: *material,
                    detail: format!(
                        "a move of {} leads to {}, which the numbering does not hold",
                        variant.fen(&pos),
                        variant.fen(&q)
                    ),
                });
            };
            if layer.contains(&j) {
                edges.push((j - layer.start) as u32);
                continue;
            }
            // A move into a layer solved before (a castle move).
            let Some(v) = Value::of_code(u32::from(known[j as usize])) else {
                return Err(SolveError::Uncovered {
                    material: *material,
                    detail: format!(
                        "a move of {} leads to {}, in a part of the table not solved yet",
                        variant.fen(&pos),
                        variant.fen(&q)
                    ),
                });
            };
            fold(v, node, &mut best_win);
            continue;
        }
        let Some(v) = tables.probe(&q) else {
            return Err(SolveError::Missing {
                material: *material,
                needs: super::material_of(variant, &q),
            });
        };
        fold(v, node, &mut best_win);
    }
    let mine = &mut edges[first..];
    mine.sort_unstable();
    let kept = {
        let mut k = 0;
        for x in 0..mine.len() {
            if x == 0 || mine[x] != mine[x - 1] {
                mine[k] = mine[x];
                k += 1;
            }
        }
        k
    };
    edges.truncate(first + kept);
    node.left = kept as u16;
    if let Some(n) = best_win {
        node.flags |= WINS;
        seeds.push((n, (i - layer.start) << 1 | 1));
    } else if kept == 0 && node.flags & DRAWS == 0 {
        seeds.push((node.ext_loss, (i - layer.start) << 1));
    }
    Ok(())
}

/// Folds the value `v` of the position a move out of the graph leads to (for the opponent)
/// into the node of the position the move is made from.
#[inline]
fn fold(v: Value, node: &mut Node, best_win: &mut Option<u16>) {
    match v.before_move() {
        Value::Win(n) => *best_win = Some(best_win.map_or(n, |b| b.min(n))),
        Value::Loss(n) => node.ext_loss = node.ext_loss.max(n),
        Value::Draw => node.flags |= DRAWS,
    }
}
