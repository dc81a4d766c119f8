//! The materials of a variant's tables: which exist, how large each is, and which a game of
//! one material can come to (in build order).

use crate::material::Material;
use crate::position::{Color, Kind, KINDS};
use crate::variant::Variant;

use super::numbering::Numbering;

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
/// men into kings, a parachutist becomes a man, knights stay knights), `m` included, in build
/// order; sides left
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
