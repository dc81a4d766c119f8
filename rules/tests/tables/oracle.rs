//! A second endgame solver, written from the rules alone, to check the engine's tables
//! against.
//!
//! It shares nothing with `arbiter_rules::tables` but the material counts it is given: it
//! places the pieces itself on every combination of cells (each checked by
//! [`Variant::position`]), with every king run where a king-move limit binds, follows every legal move forward ([`Variant::legal_moves`],
//! [`Variant::play`]), ends games with [`status`], and computes the values by plain
//! iteration to a fixed point, ply by ply:
//!
//! - a decided position has its value at once: the side to move has won (`Win(0)`), lost
//!   (`Loss(0)`) or drawn;
//! - in round `n`, a position still open is a win in `n` plies if one of its moves leads to
//!   a position lost in `n - 1`, and a loss in `n` plies if every move leads to a position
//!   won for the opponent and the slowest of those wins takes `n - 1` plies;
//! - when a round resolves nothing, every position still open is a draw (play never ends,
//!   or the defender can always reach such play).
//!
//! A material reached by a capture or a promotion is enumerated the same way and put into
//! the same graph, so that the values of all materials come out of one iteration.

use std::collections::{BTreeSet, HashMap};
use std::hash::{BuildHasherDefault, Hasher};

use arbiter_rules::{status, Budget, Color, Kind, Position, Setup, Status, Variant};

/// Pieces by colour and kind: `counts[color][kind]`, as in the engine's materials.
pub type Counts = [[u8; Kind::ALL.len()]; 2];

/// A value for the side to move, in plies, as the oracle computes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Val {
    Win(u16),
    Draw,
    Loss(u16),
}

/// The material of a position.
pub fn counts_of(pos: &Position) -> Counts {
    let mut c = [[0u8; Kind::ALL.len()]; 2];
    for color in Color::BOTH {
        for kind in Kind::ALL {
            c[color as usize][kind as usize] = pos.count(color, kind) as u8;
        }
    }
    c
}

/// Every valid position of `counts` in `variant`, either side to move: every way to put
/// the pieces on distinct cells, kept when [`Variant::position`] accepts it (no man on its
/// own promotion row, kinds the variant has).
pub fn enumerate(variant: &Variant, counts: &Counts) -> Vec<Position> {
    let cells: Vec<usize> = variant.board().cells().iter().collect();
    let mut groups = Vec::new();
    for color in Color::BOTH {
        for kind in Kind::ALL {
            let n = counts[color as usize][kind as usize];
            if n > 0 {
                groups.push((color, kind, n as usize));
            }
        }
    }
    let mut out = Vec::new();
    let mut placed = Vec::new();
    let mut used = vec![false; variant.board().id_bound()];
    place(
        variant,
        &cells,
        &groups,
        0,
        0,
        &mut used,
        &mut placed,
        &mut out,
    );
    out
}

/// Places the pieces of `groups[g..]`, the current group from `cells[from..]` on (cells in
/// increasing order within a group, so that each set of cells comes once).
#[allow(clippy::too_many_arguments)]
fn place(
    variant: &Variant,
    cells: &[usize],
    groups: &[(Color, Kind, usize)],
    g: usize,
    from: usize,
    used: &mut [bool],
    placed: &mut Vec<(usize, Color, Kind)>,
    out: &mut Vec<Position>,
) {
    let Some(&(color, kind, n)) = groups.get(g) else {
        // Under a king-move limit, a side with men and kings has a run: none, or one of its
        // kings has made 1 to `limit` non-capturing moves in a row. Every run is a position
        // of its own.
        let limit = variant.rules().king_quiet_limit;
        let runs = |c: Color| -> Vec<Option<(usize, u8)>> {
            let of = |k: Kind| placed.iter().filter(move |p| p.1 == c && p.2 == k);
            let mut v = vec![None];
            if limit > 0 && of(Kind::Man).next().is_some() {
                for &(cell, _, _) in of(Kind::King) {
                    v.extend((1..=limit).map(|n| Some((cell, n))));
                }
            }
            v
        };
        for side in Color::BOTH {
            for &white in &runs(Color::White) {
                for &black in &runs(Color::Black) {
                    let setup = Setup {
                        pieces: placed.clone(),
                        side: Some(side),
                        king_run: [white, black],
                        ..Setup::default()
                    };
                    if let Ok(p) = variant.position(&setup) {
                        out.push(p);
                    }
                }
            }
        }
        return;
    };
    let in_group = placed
        .iter()
        .filter(|p| (p.1, p.2) == (color, kind))
        .count();
    if in_group == n {
        place(variant, cells, groups, g + 1, 0, used, placed, out);
        return;
    }
    for i in from..cells.len() {
        let cell = cells[i];
        if used[cell] {
            continue;
        }
        used[cell] = true;
        placed.push((cell, color, kind));
        place(variant, cells, groups, g, i + 1, used, placed, out);
        placed.pop();
        used[cell] = false;
    }
}

/// A fast hash for positions (the test's maps hold millions of them).
#[derive(Default)]
pub struct Fx(u64);

impl Hasher for Fx {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(w));
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

pub type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<Fx>>;

/// The game graph of a set of materials, closed under moves, with every position's value.
pub struct Graph {
    pub variant: &'static Variant,
    pub positions: Vec<Position>,
    pub index: FxMap<Position, u32>,
    /// The materials enumerated, in full.
    pub materials: BTreeSet<Counts>,
    /// Successors of position `i`: `succ[start[i]..start[i + 1]]`.
    start: Vec<u32>,
    succ: Vec<u32>,
    pub values: Vec<Val>,
}

impl Graph {
    /// Enumerates `roots` and every material their moves lead to, and solves them all.
    pub fn solve(variant: &'static Variant, roots: &[Counts]) -> Graph {
        let mut g = Graph {
            variant,
            positions: Vec::new(),
            index: FxMap::default(),
            materials: BTreeSet::new(),
            start: vec![0],
            succ: Vec::new(),
            values: Vec::new(),
        };
        for &m in roots {
            g.add_material(m);
        }
        // Positions are taken in index order; a move into a material not yet enumerated
        // appends that material's positions, which are taken in their turn.
        let mut decided: Vec<Option<Val>> = Vec::new();
        let mut i = 0;
        while i < g.positions.len() {
            let p = g.positions[i];
            // The rules decide first (an end rule, a side without pieces, no legal move).
            let moves = if variant.decided(&p) {
                Vec::new()
            } else {
                variant.legal_moves(&p, &Budget::unlimited()).unwrap()
            };
            let d = if moves.is_empty() {
                Some(match status(variant, &p, &Budget::unlimited()).unwrap() {
                    Status::Won { winner, .. } if winner == p.side() => Val::Win(0),
                    Status::Won { .. } => Val::Loss(0),
                    Status::Drawn { .. } => Val::Draw,
                    Status::Ongoing => panic!("{}: ongoing without moves", variant.fen(&p)),
                })
            } else {
                None
            };
            for mv in moves {
                let next = variant.play(&p, &mv);
                let j = match g.index.get(&next) {
                    Some(&j) => j,
                    None => {
                        g.add_material(counts_of(&next));
                        *g.index.get(&next).unwrap_or_else(|| {
                            panic!(
                                "{}: the move {}-{} of {} leads out of the enumeration",
                                variant.id(),
                                variant.square_name(mv.from() as usize),
                                variant.square_name(mv.to() as usize),
                                variant.fen(&p)
                            )
                        })
                    }
                };
                g.succ.push(j);
            }
            g.start.push(g.succ.len() as u32);
            decided.push(d);
            i += 1;
        }
        g.values = iterate(&g.start, &g.succ, decided);
        g
    }

    /// Enumerates the positions of `m`, unless done already.
    fn add_material(&mut self, m: Counts) {
        if !self.materials.insert(m) {
            return;
        }
        for p in enumerate(self.variant, &m) {
            let i = self.positions.len() as u32;
            assert!(
                self.index.insert(p, i).is_none(),
                "a position enumerated twice"
            );
            self.positions.push(p);
        }
    }

    /// The value of a position of the graph.
    pub fn value(&self, pos: &Position) -> Option<Val> {
        self.index.get(pos).map(|&i| self.values[i as usize])
    }
}

/// Values by iteration to a fixed point, ply by ply (see the module's documentation).
fn iterate(start: &[u32], succ: &[u32], decided: Vec<Option<Val>>) -> Vec<Val> {
    let n = decided.len();
    let mut val = decided;
    let mut open: Vec<usize> = (0..n).filter(|&i| val[i].is_none()).collect();
    let mut ply: u16 = 1;
    loop {
        let mut found = Vec::new();
        for &i in &open {
            let next = &succ[start[i] as usize..start[i + 1] as usize];
            let mut wins_only = true;
            let mut slowest = 0u16;
            let mut win = false;
            for &j in next {
                match val[j as usize] {
                    Some(Val::Loss(k)) if k + 1 == ply => win = true,
                    Some(Val::Win(k)) => slowest = slowest.max(k),
                    _ => wins_only = false,
                }
            }
            if win {
                found.push((i, Val::Win(ply)));
            } else if wins_only && slowest + 1 == ply {
                found.push((i, Val::Loss(ply)));
            }
        }
        if found.is_empty() {
            break;
        }
        for &(i, v) in &found {
            val[i] = Some(v);
        }
        open.retain(|&i| val[i].is_none());
        ply += 1;
    }
    val.into_iter().map(|v| v.unwrap_or(Val::Draw)).collect()
}
