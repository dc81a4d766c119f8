//! Shared pieces of Arbiter's fuzz targets: the work budget of one input, the choice of a
//! variant by a byte, a fixed list of rich positions, and the move checks the targets share.

use arbiter_rules::{variant, variants, Budget, DescribedMove, MoveError, Position, Variant};

/// Work units allowed for one engine call of a fuzz input (a few milliseconds at most).
pub const BUDGET: u64 = 200_000;

/// A fresh budget of [`BUDGET`] units.
pub fn budget() -> Budget {
    Budget::new(BUDGET)
}

/// The variant of the catalogue chosen by a byte.
pub fn pick_variant(byte: u8) -> &'static Variant {
    let all = variants();
    &all[byte as usize % all.len()]
}

/// Positions to read move text against: every variant's start position (an empty FEN), then
/// the positions of the rule cases in `rules/tests/data/cases/*.txt` (kings, long captures,
/// ambiguous moves, promotions). The order is part of the committed `move_text` corpus (its
/// first byte picks an entry): add new positions at the end.
pub const POSITIONS: &[(&str, &str)] = &[
    ("international", ""),
    ("english", ""),
    ("russian", ""),
    ("brazilian", ""),
    ("canadian", ""),
    ("czech", ""),
    ("italian", ""),
    ("portuguese", ""),
    ("thai", ""),
    ("checkers", ""),
    ("paraszt", ""),
    ("anti-checkers", ""),
    ("corner", ""),
    ("one-way", ""),
    ("parachute", ""),
    ("frisian", ""),
    ("pool", ""),
    ("antidraughts", ""),
    ("czech", "W:Wa3,Kh6:Bb4,b6,g7"),
    ("czech", "W:Wa3,g3:Bb4,b6,f4"),
    ("czech", "W:We3:Bd2"),
    ("czech", "W:WKa1:Bc3,e7,d8"),
    ("corner", "W:Wc7,g7:Ba3"),
    ("corner", "W:Wb6:Bh6"),
    ("corner", "W:Wd8,h8,e3:Ba5"),
    ("corner", "B:Wc3:Bf2,g3"),
    ("corner", "W:Wa3,Kh6:Bb4,b6,g7"),
    ("one-way", "B:Wh2:Bd4"),
    ("one-way", "B:We5,c3:Bd4"),
    ("one-way", "W:We5,c3:Bd6"),
    ("one-way", "B:Wa1:Bc7"),
    ("one-way", "B:Wc7:Bb6"),
    ("parachute", "W:Wc3,Pb8:Bh6"),
    ("parachute", "W:WPd8:Be7,g7,e5"),
    ("parachute", "B:Wd2,h4:BPc1"),
    ("parachute", "W:WKa1,Pd8:Bc3,e7"),
    ("parachute", "W:Wc3,Pd8:Bd4,e7"),
    ("czech", "W:Wc3:BKd4"),
    ("parachute", "W:Wc3,Pd8:Be7"),
    ("checkers", "W:W21-32:B1-12"),
    ("paraszt", "W:W21-32:B1-12"),
    ("anti-checkers", "W:W21-32:B1-12"),
    ("checkers", "W:W9:B6,7"),
    ("checkers", "W:W23,K10:B26,14"),
    ("paraszt", "W:W22,23:B18,10,19"),
    ("paraszt", "W:WK22:B11"),
    ("anti-checkers", "W:W:B1"),
    ("anti-checkers", "W:W29:B25,22"),
    ("anti-checkers", "B:W8,11:B4"),
    ("anti-checkers", "W:W22,24:B18"),
    ("brazilian", "W:Wc3,e1:Bd4,d6,f2"),
    ("brazilian", "W:Wb6:Bc7,e7,c3"),
    (
        "brazilian",
        "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
    ),
    ("canadian", "W:W72:B1"),
    ("canadian", "B:W72:B1"),
    ("canadian", "W:WK67:B12"),
    ("canadian", "W:WK67:B56"),
    ("antidraughts", "W:W:B1"),
    ("antidraughts", "W:W46:B41,37"),
    ("pool", "W:W9:B6,7,22"),
    ("pool", "W:W23:B18,19,11"),
    ("pool", "W:W18:B23"),
    ("international", "W:WK38:B18,19,32,33"),
    ("international", "W:WK47:B14,19,29,31,42"),
    ("international", "W:W13:B5,7,8"),
    ("international", "W:W45,K46:B23,37,40"),
    ("international", "W:W13:B8,45"),
    ("russian", "W:Wb6:Bc7,f6,h8"),
    ("russian", "W:WKa1:Bc3,f4"),
    ("russian", "W:We3:Bd4,f4,f6"),
    ("russian", "W:W21-32:B1-12"),
    ("english", "W:W10:B7,8"),
    ("english", "B:W18:B1,23"),
    ("english", "W:WK23:B18,27"),
    ("english", "B:W14,15,22:B9,10"),
    ("english", "B:W32:B28"),
    ("english", "W:W:B1,2"),
    ("frisian", "W:W28:B18"),
    ("frisian", "W:W28:B29"),
    ("frisian", "W:W28:B38"),
    ("frisian", "W:WK46:B26"),
    ("frisian", "W:W28:BK22,23"),
    ("frisian", "W:W28:BK22,23,14"),
    ("frisian", "W:W28,K50:B23,30"),
    ("frisian", "W:WK46,48:BK1"),
    ("frisian", "W:WK46:BK1"),
    ("italian", "W:W21-32:B1-12"),
    ("italian", "W:W22:BK19"),
    ("italian", "W:W22:B18,K19"),
    ("italian", "W:WK22:BK19"),
    ("italian", "W:W22,K32:B18,10,28"),
    ("italian", "W:W22,K32:B18,28"),
    ("italian", "W:WK23:B19,K20"),
    ("italian", "W:WK23:B19,10,K20"),
    ("italian", "W:WK22:BK18,10,19,K12"),
    ("italian", "W:WK30:BK27,K19,10,20,K12"),
    ("italian", "W:W22:B26"),
    ("italian", "W:W6:B20"),
    ("italian", "W:WK14:B1"),
    ("czech", "B:Wg3,e7,g7,g5:BKd6"),
    ("paraszt", "W:WK30:BK17,K18,19,K25,K26"),
    ("thai", "B:BK14:W7,17,20,2,8,27"),
    ("frisian", "B:WK2,K7,13,19,32,47,K49:BK23"),
    (
        "frisian",
        "B:W11,14,16,21,22,23,24,25,28,31,36,39,41,47:BK17",
    ),
    ("portuguese", "W:W1-12:B21-32"),
    ("portuguese", "W:W11,K17:B15,23,K10"),
    ("portuguese", "W:W11,K17:B15,10"),
    ("portuguese", "W:W11,K17:BK15,10"),
    ("portuguese", "W:W11:B7"),
    ("portuguese", "W:WK1:B32"),
    ("portuguese", "W:WK1:B19,27"),
    ("thai", "B:W1-8:B25-32"),
    ("thai", "B:W18:BK29"),
    ("thai", "B:W15,25:BK22"),
    ("thai", "B:W18:B15"),
    ("thai", "B:W7:B10"),
    ("thai", "B:W1:BK29"),
    // The other variants: start positions and distinctive rules.
    ("frysk", ""),
    ("breakthrough", "W:W9:B45"),
    (
        "killer",
        "B:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46:BK17,K24",
    ),
    ("spanish", ""),
    ("sri-lankan", ""),
    ("turkish", ""),
    ("turkish", "W:WKd4:Bd6,f4,d2,b4"),
    ("croda", ""),
    ("dameo", ""),
    ("gothic", ""),
    ("hawaiian", ""),
    ("alquerque", ""),
    ("seth", "W:Wa1:Ba2,b4,e1"),
    ("vilbergen", ""),
    ("vilbergen", "W:Wa1,d3:Bb1,c2"),
    ("vilbergen-salo", "B:Wa1,b1,c1,a2:Bc2,d2,a3,b3:S1,1"),
    ("lahti", "B:Wc2,e2:Ba1:S2,3"),
    ("lahti", "W:Wa1:Bb1,d1,b2"),
];

/// The variant and position of [`POSITIONS`] chosen by a byte.
pub fn pick_position(byte: u8) -> (&'static Variant, Position) {
    let (id, fen) = POSITIONS[byte as usize % POSITIONS.len()];
    let v = variant(id).unwrap_or_else(|| panic!("POSITIONS: unknown variant {id}"));
    let pos = if fen.is_empty() {
        v.start()
    } else {
        v.parse_fen(fen)
            .unwrap_or_else(|e| panic!("POSITIONS: {id} {fen}: {e}"))
    };
    (v, pos)
}

/// Checks that `text`, a text the engine itself wrote for the move `d` of `pos`, reads back
/// to that move. Running out of budget is allowed; any other refusal is a bug.
pub fn reads_back(v: &Variant, pos: &Position, d: &DescribedMove, text: &str) {
    match v.parse_move(pos, text, &budget()) {
        Ok(again) => assert_eq!(
            again.mv,
            d.mv,
            "{}: '{text}' (written for {:?}) reads back as another move in {}",
            v.id(),
            d.mv,
            v.fen(pos)
        ),
        Err(MoveError::Gen(_)) => {}
        Err(e) => panic!(
            "{}: '{text}', written by the engine for {:?}, does not read back in {}: {e}",
            v.id(),
            d.mv,
            v.fen(pos)
        ),
    }
}

/// Checks that the position after a legal move is one a client can send back: its FEN
/// parses, to the same pieces and side.
pub fn fen_after_reads_back(v: &Variant, pos: &Position, d: &DescribedMove) {
    let next = v.play(pos, &d.mv);
    let fen = v.fen(&next);
    match v.parse_fen(&fen) {
        Ok(p) => assert_eq!(
            v.fen(&p),
            fen,
            "{}: the FEN after {} does not round-trip",
            v.id(),
            d.long
        ),
        Err(e) => panic!(
            "{}: {} from {} reaches {fen}, which does not parse: {e}",
            v.id(),
            d.long,
            v.fen(pos)
        ),
    }
}
