//! FEN reader: arbitrary text read as a FEN of a variant picked by the first byte.
//!
//! When the text parses: the written FEN reads back to the same position, move generation
//! under a budget ends with moves or a `GenError` (never a panic), the budget does not change
//! the moves found, and every move's notation, long form and resulting FEN read back.

#![no_main]

use arbiter_fuzz::{budget, fen_after_reads_back, pick_variant, reads_back};
use arbiter_rules::Budget;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let v = pick_variant(pick);
    let text = String::from_utf8_lossy(rest);
    let Ok(pos) = v.parse_fen(&text) else {
        return;
    };
    let fen = v.fen(&pos);
    let again = v
        .parse_fen(&fen)
        .unwrap_or_else(|e| panic!("{}: written FEN {fen} does not parse: {e}", v.id()));
    assert_eq!(again, pos, "{}: {fen} does not round-trip", v.id());
    assert_eq!(v.fen(&again), fen);

    let Ok(moves) = v.legal_moves_within(&pos, &budget()) else {
        return;
    };
    // A budget stops work; it never changes the answer.
    let unbounded = v
        .legal_moves_within(&pos, &Budget::unlimited())
        .expect("generation that fits a budget fits no budget");
    assert_eq!(moves, unbounded, "{}: {fen}", v.id());

    let Ok(described) = v.describe_moves_within(&pos, &budget()) else {
        return;
    };
    assert_eq!(
        described.len(),
        moves.len(),
        "{}: {fen}: described and generated moves differ",
        v.id()
    );
    for d in &described {
        assert!(
            moves.iter().any(|m| m.same_identity(&d.mv)),
            "{}: {fen}: described move {} is not generated",
            v.id(),
            d.long
        );
        fen_after_reads_back(v, &pos, d);
    }
    // Reading move text costs a generation each: check the first few moves only.
    for d in described.iter().take(8) {
        reads_back(v, &pos, d, &d.notation);
        reads_back(v, &pos, d, &d.long);
    }
});
