//! Endgame tables: the game-theoretic value of every position of a given material, for any
//! variant of men and kings, computed by retrograde analysis on the variant's own rules.
//!
//! A table holds, for each position of one material (say two white kings against one black
//! king) and either side to move, whether the side to move wins, draws or loses with best
//! play, and in how many plies the game ends: the winner hurries, the loser delays. Play that
//! never ends is a draw. The variant's draw rules (the 25-move rule, the 16- and 5-move
//! endings, repetition) are not part of the value: they depend on the game's history, and the
//! judge applies them on top ([`crate::outcome`]).
//!
//! The solver ([`solve`]) knows nothing about any variant: it enumerates positions with the
//! variant's validity checks, generates moves with its generator, ends games with its end
//! rules and walks back along non-capturing moves by reading the ruleset's move directions and
//! ranges. A capture or a promotion leads into another material, whose table is computed
//! first ([`Tables::build`]).
//!
//! The files, each using only those before it: `index` numbers the positions of a material;
//! `table` holds one material's values ([`Table`], [`Value`]); `mirror` reads a table off its
//! colour mirror, `file` writes and reads one; `set` holds a variant's tables and probes them
//! ([`Tables`]); `solve` computes one table from those it leads to; and this module lists
//! the materials and builds them in order ([`Tables::build`]). The material itself
//! ([`Material`]) is a layer below, in [`crate::material`]: the judge reports it too.

mod file;
mod graph;
mod index;
mod mirror;
mod numbering;
mod scope;
mod set;
mod solve;
mod solved;
mod table;

use std::sync::Arc;

pub use crate::material::Material;
use crate::position::{Color, Kind, KINDS};
use crate::variant::Variant;

pub use file::TableFileError;
pub use graph::Graph;
pub use scope::{build_cost, material_of, whole_game};
pub use set::Tables;
pub use solve::SolveError;
pub use solved::start_value;
pub use table::{fingerprint, supported, Progress, Table, TableStats, Unsupported, Value};

use numbering::Numbering;

/// Builds the table of `material`; `tables` must hold every material its captures and
/// promotions lead to ([`Tables::build`] sees to it). Variants of men and kings are solved by
/// taking moves back along the ruleset's directions (the `solve` module), the others over the
/// explicit graph of their positions ([`graph`]).
pub fn solve(
    variant: &'static Variant,
    material: Material,
    tables: &Tables,
    progress: &mut dyn FnMut(Progress),
) -> Result<Table, SolveError> {
    if graph::needed(variant) {
        graph::solve(variant, material, tables, progress)
    } else {
        solve::solve(variant, material, tables, progress)
    }
}

/// The kinds a side may have pieces of in `variant`.
fn kinds_of(variant: &Variant, color: Color) -> Vec<Kind> {
    Kind::ALL
        .into_iter()
        .filter(|&k| {
            let pr = variant.rules().piece(k);
            !pr.moves[color as usize].is_empty() || !pr.captures[color as usize].is_empty()
        })
        .collect()
}

/// Every split of `n` pieces among `kinds`, as counts by kind.
fn splits(kinds: &[Kind], n: u32, out: &mut Vec<[u8; KINDS]>) {
    fn go(kinds: &[Kind], n: u32, acc: [u8; KINDS], out: &mut Vec<[u8; KINDS]>) {
        match kinds {
            [] => {
                if n == 0 {
                    out.push(acc)
                }
            }
            [k, rest @ ..] => {
                for take in 0..=n {
                    let mut a = acc;
                    a[*k as usize] = take as u8;
                    go(rest, n - take, a, out);
                }
            }
        }
    }
    go(kinds, n, [0; KINDS], out)
}

/// Whether positions of `m` can exist at all in `variant`: its kinds are the variant's and
/// no end rule forbids them (kings of both sides where the first king wins).
fn possible(variant: &Variant, m: &Material) -> bool {
    let kings_of_both =
        m.count(Color::White, Kind::King) > 0 && m.count(Color::Black, Kind::King) > 0;
    if kings_of_both && variant.rules().ends.iter().any(|e| e.kind.forbids_kings()) {
        return false;
    }
    Numbering::new(variant, m).is_some()
}

/// How many positions the table of `m` numbers (both sides to move, king runs included where
/// the variant has them), or `None` when `variant` cannot have that material: what solving it
/// takes in memory, about 8 bytes a position while it is solved and 1 once it is.
pub fn positions(variant: &Variant, m: &Material) -> Option<u64> {
    Numbering::new(variant, m).map(|n| n.size())
}

/// Every material of 2 to `pieces` pieces, each side with at least one, that `variant` can
/// have, in build order (a material's captures and promotions lead to earlier ones).
pub fn materials_up_to(variant: &Variant, pieces: u32) -> Vec<Material> {
    let kinds = [
        kinds_of(variant, Color::White),
        kinds_of(variant, Color::Black),
    ];
    let mut out = Vec::new();
    for total in 2..=pieces {
        for white in 1..total {
            let (mut ws, mut bs) = (Vec::new(), Vec::new());
            splits(&kinds[0], white, &mut ws);
            splits(&kinds[1], total - white, &mut bs);
            for w in &ws {
                for b in &bs {
                    let m = Material { counts: [*w, *b] };
                    if possible(variant, &m) {
                        out.push(m);
                    }
                }
            }
        }
    }
    out.sort_by_key(|m| m.order_key());
    out
}

/// Every material a game of material `m` can come to (captures remove pieces, promotions turn
/// men into kings, a parachutist becomes a man, knights stay knights), `m` included, in build order; sides left
/// without pieces are not materials.
pub fn reachable(variant: &Variant, m: &Material) -> Vec<Material> {
    let side_options = |c: Color| -> Vec<[u8; KINDS]> {
        let have = m.counts[c as usize];
        let (kings, men, paras) = (
            have[Kind::King as usize],
            have[Kind::Man as usize],
            have[Kind::Parachutist as usize],
        );
        // Knights (the Camelot family) stay knights.
        let knights = have[Kind::Knight as usize];
        let mut v = Vec::new();
        for n in 0..=knights {
            for p in 0..=paras {
                for mm in 0..=(men + paras - p) {
                    for k in 0..=(kings + men + paras - p - mm) {
                        if n + p + mm + k == 0 {
                            continue;
                        }
                        let mut a = [0u8; KINDS];
                        a[Kind::King as usize] = k;
                        a[Kind::Man as usize] = mm;
                        a[Kind::Parachutist as usize] = p;
                        a[Kind::Knight as usize] = n;
                        v.push(a);
                    }
                }
            }
        }
        v
    };
    let kinds = [
        kinds_of(variant, Color::White),
        kinds_of(variant, Color::Black),
    ];
    let allowed = |c: Color, a: &[u8; KINDS]| {
        Kind::ALL
            .iter()
            .all(|k| a[*k as usize] == 0 || kinds[c as usize].contains(k))
    };
    let mut out = Vec::new();
    for w in side_options(Color::White) {
        for b in side_options(Color::Black) {
            let cand = Material { counts: [w, b] };
            if allowed(Color::White, &w) && allowed(Color::Black, &b) && possible(variant, &cand) {
                out.push(cand);
            }
        }
    }
    out.sort_by_key(|m| m.order_key());
    out.dedup();
    out
}

impl Tables {
    /// Builds `material` and every missing table it leads to, smallest first, calling
    /// `progress` now and then. Returns the materials it built.
    pub fn build(
        &mut self,
        material: Material,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<Vec<Material>, SolveError> {
        let mut built = Vec::new();
        for m in reachable(self.variant, &material) {
            if self.map.contains_key(&m) {
                continue;
            }
            let mirrored = match (&self.mirror, self.map.get(&m.mirrored())) {
                (Some(mirror), Some(of)) => {
                    let numbering =
                        Numbering::new(self.variant, &m).ok_or(SolveError::Impossible(m))?;
                    let size = numbering.size();
                    let t = mirror.table(self.variant, m, numbering, of);
                    progress(Progress {
                        material: m,
                        done: size,
                        total: size,
                    });
                    Some(t)
                }
                _ => None,
            };
            let t = match mirrored {
                Some(t) => t,
                None => solve(self.variant, m, self, progress)?,
            };
            self.map.insert(m, Arc::new(t));
            built.push(m);
        }
        Ok(built)
    }
}
