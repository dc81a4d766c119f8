//! The plan of a set's build: every material of the set once, each after the tables its build
//! reads (the materials its captures and promotions lead to, and its colour mirror when it is
//! read off that), grouped into waves whose materials build side by side, with what each build
//! is estimated to take.
//!
//! A material's wave is 1 plus the largest wave of the tables it reads (1 when it reads none),
//! so that every table a build reads is finished in an earlier wave. [`Tables::build`] reads a
//! material off its mirror when the variant has a colour symmetry and the mirror comes first
//! in build order; the plan makes the same choice, so that a material built alone from the
//! files of its [`needs`] has the bytes of the one-process build.
//!
//! The estimates come from the numbering and from rates measured on one machine (the constants
//! below, with their figures); they size the pods of a distributed build, and are not promises.

use crate::material::Material;
use crate::variant::Variant;

use super::graph;
use super::materials::{materials_up_to, reachable};
use super::mirror::Mirror;
use super::numbering::Numbering;

/// Indices a second solved by taking moves back, the counting rules' pass included: measured
/// on international draughts' KKKvKK (5 pieces, 48.0 million indices), built alone with
/// `arbiter tables build --material` from the files of the tables it reads, in 75.6 s (74.3 s
/// of CPU) on a 2-core machine shared with other work: 635 000 a second, rounded down.
pub const SOLVE_RATE: f64 = 600_000.0;

/// Indices a second read off a colour mirror: international draughts' KKvKKK, read off
/// KKKvKK the same way in 11.6 s (4.1 million a second), rounded down.
pub const MIRROR_RATE: f64 = 4_000_000.0;

/// Indices a second solved over an explicit graph: Cam's 4-piece set, 348 million positions
/// in 236 s of CPU (1.47 million a second), rounded down.
pub const GRAPH_RATE: f64 = 1_400_000.0;

/// Bytes an index takes while the direction solver works on it: its node and the lists of
/// the pass. Measured as the growth of the peak resident memory of a process building one
/// 4-piece material with every table it reads held: 14 to 16 for Thai, 15.6 to 18.3 for
/// antidraughts' KKvKK and KMvKM (10×10); rounded up.
const SOLVE_BYTES: u64 = 20;

/// Bytes an index and digit of the counting rules take while their pass works on it: its
/// node (10 bytes), its final code (2) and the lists of the pass (16 bytes an entry), after
/// the game-theoretic values are solved. Measured as above: 16.5 for international KKvKK,
/// 18.2 for English KMvKM, 18.7 for Russian KKvKK; the international KKKvKK build (5 pieces)
/// peaked at 825 MB, 17 bytes an index with the tables it read. Frisian's passes take more,
/// up to 44 bytes an index (KKvKK, where most states end in a capture): a first-use build
/// reserves twice the estimate for that (`src/tables.rs`).
const COUNTED_BYTES: u64 = 20;

/// Bits a value takes in a file, about: international draughts' 4-piece tables take 1.0 to
/// 1.6 bytes an index with one digit of values under the counting rules, KKKvKK 1.4.
const VALUE_BITS: u64 = 8;
const RULE_BITS: u64 = 4;

/// How a material of the plan is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Solved by taking moves back along the ruleset's directions.
    Solved,
    /// Solved over the explicit graph of its positions.
    Graph,
    /// Read off the table of its colour mirror.
    Mirror,
}

impl Method {
    /// `"solve"`, `"graph"` or `"mirror"`.
    pub fn name(self) -> &'static str {
        match self {
            Method::Solved => "solve",
            Method::Graph => "graph",
            Method::Mirror => "mirror",
        }
    }
}

/// One material of a plan.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub material: Material,
    /// From 1: every table it reads is of an earlier wave.
    pub wave: u32,
    /// How it is built.
    pub method: Method,
    /// The tables its build reads, in build order.
    pub needs: Vec<Material>,
    /// Indices of its table ([`super::positions`]: positions, both sides to move, and the
    /// indices that are no position).
    pub indices: u64,
    /// Its file's estimated size, in bytes.
    pub file_bytes: u64,
    /// The estimated working memory of its build, without the tables it reads.
    pub working_bytes: u64,
    /// The estimated memory of its build: its working memory and the tables it reads.
    pub memory_bytes: u64,
    /// The estimated time of its build, in seconds, at the rates above.
    pub seconds: f64,
}

/// The tables the build of `m` reads ([`Tables::build`] with them held builds `m` alone): the
/// materials its captures and promotions lead to, and its colour mirror if `m` is read off it.
/// Empty when `variant` cannot have `m`.
pub fn needs(variant: &Variant, m: &Material) -> Vec<Material> {
    let mut out: Vec<Material> = reachable(variant, m)
        .into_iter()
        .filter(|r| r != m)
        .collect();
    if read_off_mirror(variant, m) {
        out.push(m.mirrored());
        out.sort_by_key(|m| m.order_key());
    }
    out
}

/// Whether the build of `m` reads it off its colour mirror: the variant has a colour symmetry
/// and the mirror, another material, comes first in build order.
fn read_off_mirror(variant: &Variant, m: &Material) -> bool {
    let mirror = m.mirrored();
    mirror != *m && mirror.order_key() < m.order_key() && Mirror::of(variant).is_some()
}

/// Digits of the values under the counting rules a table of `m` holds (0: none).
fn rule_digits(variant: &Variant, m: &Material) -> u64 {
    if super::counted_rules(variant) && !graph::needed(variant) {
        super::clocks::Model::of(variant, m).digits()
    } else {
        0
    }
}

/// What one material's build is estimated to take, the tables it reads aside.
struct Estimate {
    method: Method,
    indices: u64,
    file_bytes: u64,
    working_bytes: u64,
    seconds: f64,
}

/// The estimate of `m`'s build, read off its mirror when `mirrored` (`None`: `variant` cannot
/// have `m`).
fn estimate(
    variant: &Variant,
    mirror: Option<&Mirror>,
    m: &Material,
    mirrored: bool,
) -> Option<Estimate> {
    let numbering = Numbering::new(variant, m)?;
    let indices = numbering.size();
    let digits = rule_digits(variant, m);
    let file_bytes = 96 + (indices * (VALUE_BITS + RULE_BITS * digits)).div_ceil(8);
    let method = if mirrored {
        Method::Mirror
    } else if graph::needed(variant) {
        Method::Graph
    } else {
        Method::Solved
    };
    let mirrors_rules = mirror.is_some_and(|mr| digits == 0 || mr.carries_draws(variant));
    let (working_bytes, seconds) = match method {
        // The codes read off (2 bytes an index), the table they make; the counting rules'
        // values too when the mirror carries them, else their pass.
        Method::Mirror if mirrors_rules => {
            (indices * (3 + 3 * digits), indices as f64 / MIRROR_RATE)
        }
        Method::Mirror => (
            indices * (1 + COUNTED_BYTES * digits),
            indices as f64 / SOLVE_RATE,
        ),
        Method::Graph => (
            graph::working_bytes(variant, &numbering),
            indices as f64 / GRAPH_RATE,
        ),
        Method::Solved => (
            indices * SOLVE_BYTES.max(1 + COUNTED_BYTES * digits),
            indices as f64 / SOLVE_RATE,
        ),
    };
    Some(Estimate {
        method,
        indices,
        file_bytes,
        working_bytes,
        seconds,
    })
}

/// The plan of `variant`'s tables of 2 to `pieces` pieces, in build order
/// ([`materials_up_to`]).
pub fn plan(variant: &Variant, pieces: u32) -> Vec<Step> {
    let mirror = Mirror::of(variant);
    let mut steps: Vec<Step> = Vec::new();
    for m in materials_up_to(variant, pieces) {
        let Some(e) = estimate(variant, mirror.as_ref(), &m, read_off_mirror(variant, &m)) else {
            continue;
        };
        let needs = needs(variant, &m);
        let wave = needs
            .iter()
            .filter_map(|n| steps.iter().find(|s| s.material == *n).map(|s| s.wave))
            .max()
            .unwrap_or(0)
            + 1;
        let read: u64 = needs
            .iter()
            .filter_map(|n| steps.iter().find(|s| s.material == *n))
            .map(|s| s.file_bytes)
            .sum();
        steps.push(Step {
            material: m,
            wave,
            method: e.method,
            needs,
            indices: e.indices,
            file_bytes: e.file_bytes,
            working_bytes: e.working_bytes,
            memory_bytes: e.working_bytes + read,
            seconds: e.seconds,
        });
    }
    steps
}

/// The estimated memory [`Tables::build`] of `material` takes beyond the tables held now
/// (`held(m)`: whether the table of `m` is in the set it builds into): at each build, the
/// tables built before it in this build and its working memory; the largest such sum.
/// `None` when `variant` cannot have `material`. A first-use build checks it against the
/// memory it may take (the service's budget) before it starts.
///
/// Measured against the peak resident memory of `arbiter serve` building every 4-piece
/// first-use set from an idle replica (docs/operations.md gives the table): it stays above
/// the measured growth.
pub fn build_memory(
    variant: &Variant,
    material: &Material,
    held: &dyn Fn(&Material) -> bool,
) -> Option<u64> {
    let mirror = Mirror::of(variant);
    let all = reachable(variant, material);
    if !all.contains(material) {
        return None;
    }
    let to_build: Vec<Material> = all.into_iter().filter(|m| !held(m)).collect();
    let mut built = 0u64;
    let mut peak = 0u64;
    for m in &to_build {
        // [`Tables::build`] reads `m` off its mirror whenever the mirror is held or built
        // before it; a mirror read takes less than a solve, so the solve's estimate stands
        // where the mirror comes later in build order.
        let mm = m.mirrored();
        let mirrored = read_off_mirror(variant, m) && (held(&mm) || to_build.contains(&mm));
        let e = estimate(variant, mirror.as_ref(), m, mirrored)?;
        peak = peak.max(built + e.working_bytes);
        built += e.file_bytes;
    }
    Some(peak.max(built))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_table_a_build_reads_is_of_an_earlier_wave() {
        for (id, pieces) in [("english", 4), ("international", 4), ("one-way", 3)] {
            let v = crate::variant(id).unwrap();
            let steps = plan(v, pieces);
            let all = materials_up_to(v, pieces);
            assert_eq!(steps.len(), all.len(), "{id}");
            for s in &steps {
                for n in &s.needs {
                    let dep = steps.iter().find(|d| d.material == *n).unwrap();
                    assert!(dep.wave < s.wave, "{id} {} reads {n}", s.material);
                }
                assert_eq!(s.wave == 1, s.needs.is_empty(), "{id} {}", s.material);
            }
        }
        // English 3 pieces, by hand: KvK reads nothing (a capture ends the game), KKvK reads
        // KvK, and KvKK is read off its mirror, KKvK.
        let v = crate::variant("english").unwrap();
        let steps = plan(v, 3);
        let find = |name: &str| {
            steps
                .iter()
                .find(|s| s.material.name() == name)
                .unwrap()
                .clone()
        };
        assert_eq!(find("KvK").wave, 1);
        assert_eq!(find("KvK").method, Method::Solved);
        assert_eq!(find("KKvK").needs, vec![Material::parse("KvK").unwrap()]);
        assert_eq!(find("KKvK").wave, 2);
        let kvkk = find("KvKK");
        assert_eq!(kvkk.method, Method::Mirror);
        assert!(kvkk.needs.contains(&Material::parse("KKvK").unwrap()));
        assert_eq!(kvkk.wave, 3);
        // One-way checkers has no colour symmetry: nothing is read off a mirror.
        let v = crate::variant("one-way").unwrap();
        assert!(plan(v, 3).iter().all(|s| s.method != Method::Mirror));
    }

    #[test]
    fn a_build_needs_no_memory_for_the_tables_it_holds() {
        let v = crate::variant("english").unwrap();
        let m = Material::parse("KMvKM").unwrap();
        let all = reachable(v, &m);
        let none = build_memory(v, &m, &|_| false).unwrap();
        let every = build_memory(v, &m, &|_| true).unwrap();
        assert_eq!(every, 0);
        // At least every table it makes, and the working memory of its own solve.
        let steps = plan(v, 4);
        let made: u64 = all
            .iter()
            .map(|r| steps.iter().find(|s| s.material == *r).unwrap().file_bytes)
            .sum();
        let own = steps
            .iter()
            .find(|s| s.material == m)
            .unwrap()
            .working_bytes;
        assert!(none >= made && none >= own, "{none} {made} {own}");
        // Holding the smaller tables leaves less to make.
        let small = build_memory(v, &m, &|r| r.pieces() < 4).unwrap();
        assert!(small < none && small >= own, "{small} {none} {own}");
        // English has no parachutists.
        let para = Material::parse("PvK").unwrap();
        assert_eq!(build_memory(v, &para, &|_| false), None);
    }
}
