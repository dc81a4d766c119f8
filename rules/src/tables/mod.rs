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
//! ([`Tables`]); `solve` computes one table from those it leads to; `plan` orders a set's
//! materials into waves that build side by side ([`plan()`]); and this module lists the
//! materials and builds them in order ([`Tables::build`]). The material itself
//! ([`Material`]) is a layer below, in [`crate::material`]: the judge reports it too.

mod clocks;
mod counted;
mod file;
mod graph;
mod index;
mod materials;
mod mirror;
mod numbering;
mod plan;
mod scope;
mod set;
mod settle;
mod solve;
mod solved;
mod table;

use std::sync::Arc;

pub use crate::material::Material;
use crate::variant::Variant;

pub use file::TableFileError;
pub use graph::Graph;
pub use scope::{build_cost, material_of, whole_game};
pub use set::Tables;
pub use solve::SolveError;
pub use solved::start_value;
pub use table::{
    fingerprint, supported, Progress, RuleStats, SharedBytes, Table, TableStats, Unsupported, Value,
};

pub use materials::{materials_up_to, positions, reachable};
use numbering::Numbering;
pub use plan::{build_memory, needs, plan, Method, Step, GRAPH_RATE, MIRROR_RATE, SOLVE_RATE};
pub use settle::{RuleValue, RulesError, TableValue};

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

/// Whether `variant` has counted draw rules (a count of plies, not only repetition): its
/// tables then hold values under the rules beside the game-theoretic ones.
pub fn counted_rules(variant: &Variant) -> bool {
    variant
        .rules()
        .draws
        .iter()
        .any(|d| !matches!(d.kind, crate::draws::DrawKind::Repetition { .. }))
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
                    let mut t = mirror.table(self.variant, m, numbering, of);
                    if counted_rules(self.variant) && mirror.carries_draws(self.variant) {
                        t.rules = mirror.rules(self.variant, &t.numbering, of);
                    }
                    progress(Progress {
                        material: m,
                        done: size,
                        total: size,
                    });
                    Some(t)
                }
                _ => None,
            };
            let mut t = match mirrored {
                Some(t) => t,
                None => solve(self.variant, m, self, progress)?,
            };
            if counted_rules(self.variant) {
                // The graph-solved tables keep no values under the rules: they are read from
                // the game-theoretic ones where those fit in the count, and searched where
                // they may not (`settle`).
                if t.rules.is_none() && !graph::needed(self.variant) {
                    let ix = t.numbering.pieces().ok_or(SolveError::Impossible(m))?;
                    let codes = counted::solve_rules(self.variant, m, ix, self, progress)?;
                    t.rules = Some(codes);
                }
                t.model = Some(clocks::Model::of(self.variant, &m));
            }
            self.map.insert(m, Arc::new(t));
            built.push(m);
        }
        Ok(built)
    }
}
