//! FEN reader: arbitrary text read as a FEN of a variant picked by the first byte.
//!
//! A first byte with its high bit set picks a second mode that reaches rich positions (many
//! kings, long captures) far sooner than text does: the rest is read two bytes a piece (kind
//! and colour, square number) and written as a FEN for the reader.
//!
//! When the text parses: the written FEN reads back to the same position, move generation
//! under a budget ends with moves or a `GenError` (never a panic), the budget does not change
//! the moves found, and every move's notation, long form and resulting FEN read back.

#![no_main]

use arbiter_fuzz::{budget, fen_after_reads_back, pick_variant, reads_back, BUDGET};
use arbiter_rules::{Budget, Color, Kind, Variant};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let v = pick_variant(pick & 0x7f);
    let text = if pick & 0x80 == 0 {
        String::from_utf8_lossy(rest).into_owned()
    } else {
        pieces_fen(v, rest)
    };
    let Ok(pos) = v.parse_fen(&text) else {
        return;
    };
    let fen = v.fen(&pos);
    let again = v
        .parse_fen(&fen)
        .unwrap_or_else(|e| panic!("{}: written FEN {fen} does not parse: {e}", v.id()));
    assert_eq!(again, pos, "{}: {fen} does not round-trip", v.id());
    assert_eq!(v.fen(&again), fen);

    let spent = budget();
    let Ok(moves) = v.legal_moves(&pos, &spent) else {
        return;
    };
    // A budget stops work; it never changes the answer.
    let unbounded = v
        .legal_moves(&pos, &Budget::unlimited())
        .expect("generation that fits a budget fits no budget");
    assert_eq!(moves, unbounded, "{}: {fen}", v.id());
    // Keeping every capture route finds the same moves, some of them several times.
    let mut routes = Vec::new();
    if v.generate_paths(&pos, &budget(), false, &mut routes)
        .is_ok()
    {
        assert!(routes.len() >= moves.len(), "{}: {fen}", v.id());
        for r in &routes {
            assert!(
                moves.iter().any(|m| m.same_identity(r)),
                "{}: {fen}: route of {r:?} is no legal move",
                v.id()
            );
        }
        for m in &moves {
            assert!(
                routes.iter().any(|r| r.same_identity(m)),
                "{}: {fen}",
                v.id()
            );
        }
    }

    let Ok(described) = v.describe_moves(&pos, &budget()) else {
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
    // Reading move text costs a generation each: check the first few moves only, fewer
    // when a generation is long (a few thousand moves: each read is one more).
    let reads = (4 * BUDGET / spent.used().max(1)).clamp(1, 8) as usize;
    for d in described.iter().take(reads) {
        reads_back(v, &pos, d, &d.notation);
        reads_back(v, &pos, d, &d.long);
    }
});

/// A FEN built from bytes: the side to move, then two bytes a piece (bit 0: colour, bits 1-2:
/// the kind, in the order of `Kind::ALL`; then the square number). A square given twice keeps
/// its first piece, a kind the variant lacks is the variant's first kind, and a man on its
/// promotion square is a king.
fn pieces_fen(v: &Variant, bytes: &[u8]) -> String {
    let Some((&side, rest)) = bytes.split_first() else {
        return String::new();
    };
    let squares = v.board().len();
    let mut used = vec![false; squares + 1];
    let mut lists = [Vec::new(), Vec::new()];
    for pair in rest.chunks_exact(2) {
        let color = if pair[0] & 1 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let n = pair[1] as usize % squares + 1;
        if used[n] {
            continue;
        }
        used[n] = true;
        let Some(cell) = v.cell_of_number(n as u32) else {
            continue;
        };
        let has = |k: Kind| {
            let rules = v.rules().piece(k);
            !rules.moves[color as usize].is_empty() || !rules.captures[color as usize].is_empty()
        };
        let mut kind = Kind::ALL[usize::from(pair[0] >> 1) % Kind::ALL.len()];
        if !has(kind) {
            kind = Kind::ALL.into_iter().find(|&k| has(k)).unwrap_or(Kind::Man);
        }
        if kind == Kind::Man && v.promotion(color).contains(cell) {
            kind = Kind::King;
        }
        let prefix = kind
            .prefix()
            .map_or(String::new(), |p| char::from(p).to_string());
        lists[color as usize].push(format!("{prefix}{n}"));
    }
    format!(
        "{}:W{}:B{}",
        if side & 1 == 0 { 'W' } else { 'B' },
        lists[0].join(","),
        lists[1].join(",")
    )
}
