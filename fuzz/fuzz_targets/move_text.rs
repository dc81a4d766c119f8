//! Move-text reader: arbitrary text read as a move of a fixed position (picked by the first
//! byte from `arbiter_fuzz::POSITIONS`).
//!
//! A move read is one of the legal moves and its notation and long form read back to it; an
//! ambiguous text lists candidates that each read back to a distinct move; an illegal one
//! lists the legal moves.

#![no_main]

use arbiter_fuzz::{budget, pick_position, reads_back};
use arbiter_rules::MoveError;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let (v, pos) = pick_position(pick);
    let text = String::from_utf8_lossy(rest);
    let result = v.parse_move(&pos, &text, &budget());
    let Ok(legal) = v.describe_moves(&pos, &budget()) else {
        return;
    };
    match result {
        Ok(d) => {
            let same: Vec<_> = legal.iter().filter(|l| l.mv == d.mv).collect();
            assert_eq!(
                same.len(),
                1,
                "{}: '{text}' read as {:?}, not one legal move of {}",
                v.id(),
                d.mv,
                v.fen(&pos)
            );
            assert_eq!(same[0], &d, "{}: '{text}' described differently", v.id());
            reads_back(v, &pos, &d, &d.notation);
            reads_back(v, &pos, &d, &d.long);
        }
        Err(MoveError::Ambiguous { candidates }) => {
            assert!(
                candidates.len() >= 2,
                "{}: '{text}': {candidates:?}",
                v.id()
            );
            let mut read = Vec::new();
            for c in &candidates {
                match v.parse_move(&pos, c, &budget()) {
                    Ok(d) => read.push(d.mv),
                    Err(MoveError::Gen(_)) => return,
                    Err(e) => panic!(
                        "{}: candidate '{c}' of the ambiguous '{text}' does not read back in {}: {e}",
                        v.id(),
                        v.fen(&pos)
                    ),
                }
            }
            for (i, a) in read.iter().enumerate() {
                assert!(
                    !read[i + 1..].contains(a),
                    "{}: two candidates of '{text}' name one move: {candidates:?}",
                    v.id()
                );
            }
        }
        Err(MoveError::Illegal { legal: listed, .. }) => {
            let notations: Vec<&str> = legal.iter().map(|d| d.notation.as_str()).collect();
            assert_eq!(listed, notations, "{}: '{text}'", v.id());
        }
        Err(_) => {}
    }
});
