//! The games the tables solve whole: the value of their start positions.
//!
//! The drop games' tables hold every position of a game from the start ([`super::whole_game`]),
//! so the start position has a value like any other: who wins with best play, and in how many
//! plies. Computing it means building the tables (seconds to a minute), so the values are
//! kept here for the variants' descriptions; the engine's tests build the tables and check
//! every value below against them, and against a second solver written from the rules.

use crate::variant::Variant;

use super::table::Value;

/// The start positions' values, by variant id: for the side to move there (White), with the
/// plies of the game under best play (the winner hurrying, the loser delaying).
const START: &[(&str, Value)] = &[
    ("hageby", Value::Win(25)),
    ("lahti", Value::Win(27)),
    ("vilbergen", Value::Win(21)),
    ("vilbergen-salo", Value::Win(31)),
];

/// The value of `variant`'s start position under best play, where the tables solve the game
/// whole; `None` for the other variants.
pub fn start_value(variant: &Variant) -> Option<Value> {
    START
        .iter()
        .find(|(id, _)| *id == variant.id())
        .map(|(_, v)| *v)
}
