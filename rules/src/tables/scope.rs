//! What a table holds beyond pieces on cells: the material of the table that holds a
//! position (a drop game's stones in hand count), the games solved whole, and what a build
//! weighs against a bound.

use crate::material::Material;
use crate::position::{Color, Kind, Position};
use crate::variant::Variant;

use super::graph;
use super::numbering::Numbering;

/// The material of the table that holds `pos`: its pieces on the board ([`Material::of`]),
/// and in the drop games its stones in hand too, counted as men (a drop game's tables hold
/// every split of a side's stones between board and hand, see [`whole_game`]).
pub fn material_of(variant: &Variant, pos: &Position) -> Material {
    let mut m = Material::of(pos);
    if variant.rules().stones_in_hand != 0 {
        for c in Color::BOTH {
            let n = &mut m.counts[c as usize][Kind::Man as usize];
            *n = n.saturating_add(pos.hand(c));
        }
    }
    m
}

/// Whether the variant's tables solve whole games: the drop games, whose materials count the
/// stones in hand, so that the tables of the stones a side starts with hold every position of
/// a game from the start (the drops included). Such a material has more pieces than the
/// tables of other variants (8 to 10), on a board of 10 to 13 points: it is bounded by its
/// number of positions, not of pieces.
pub fn whole_game(variant: &Variant) -> bool {
    variant.rules().stones_in_hand != 0
}

/// What building the table of `m` weighs against a bound on positions, or `None` when
/// `variant` cannot have that material: its number of positions ([`super::positions`]) for the
/// tables solved by taking moves back, which hold about 8 bytes a position while they solve;
/// for the tables solved over an explicit graph (the drop games, BrainKing's Alquerque, the
/// Camelot family), which hold each move both ways besides, their working memory in units of
/// those 8 bytes ([`graph::working_bytes`]: from about 40 bytes an index on BrainKing's
/// Alquerque to 100 on Cam and 150 on Camelot's larger board).
pub fn build_cost(variant: &Variant, m: &Material) -> Option<u64> {
    let n = Numbering::new(variant, m)?;
    if !graph::needed(variant) {
        return Some(n.size());
    }
    Some(graph::working_bytes(variant, &n).div_ceil(8))
}
