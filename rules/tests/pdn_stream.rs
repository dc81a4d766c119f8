//! A PDN file read in pieces of any size gives the games of the file read whole: every real
//! record of `tests/data/games/` (at the workspace root) through a [`PdnSplitter`].
//!
//! A missing folder fails the test.

use std::path::PathBuf;

use arbiter_rules::notation::pdn::{PdnGame, PdnLimits, PdnReader};
use arbiter_rules::notation::pdn::{PdnSplitter, Piece};

fn files() -> Vec<(String, Vec<u8>)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data/games");
    let mut out = Vec::new();
    for dir in std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: the real game records are missing: {e}", root.display()))
    {
        let dir = dir.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(&dir).unwrap() {
            let f = f.unwrap().path();
            if f.extension().is_some_and(|e| e == "pdn") {
                out.push((f.display().to_string(), std::fs::read(&f).unwrap()));
            }
        }
    }
    out.sort();
    assert!(out.len() >= 20, "only {} PDN files", out.len());
    out
}

fn limits() -> PdnLimits {
    PdnLimits {
        max_plies: 1000,
        max_tags: 100,
        max_token: 4096,
    }
}

fn whole(bytes: &[u8]) -> Vec<PdnGame> {
    let text = match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => bytes.iter().map(|&b| b as char).collect(),
    };
    PdnReader::new(&text, limits()).map(comparable).collect()
}

/// A game as both readings must agree on: where its text starts differs by design (a split
/// game starts after the blank lines before it, a game read whole right after the previous
/// game), where it ends does not.
fn comparable(mut g: PdnGame) -> PdnGame {
    g.span.start = 0;
    g.span_line = 0;
    g.text_column = 0;
    g
}

fn in_pieces(bytes: &[u8], piece: usize) -> Vec<PdnGame> {
    let mut s = PdnSplitter::new(limits(), 1 << 20);
    let mut out = Vec::new();
    let take = |s: &mut PdnSplitter, out: &mut Vec<PdnGame>| {
        while let Some(p) = s.next_piece() {
            match p {
                Piece::Game(g) => out.push(comparable(g)),
                other => panic!("{other:?}"),
            }
        }
    };
    for chunk in bytes.chunks(piece) {
        s.push(chunk);
        take(&mut s, &mut out);
    }
    s.finish();
    take(&mut s, &mut out);
    out
}

/// Whether a file is read the same as UTF-8 up to its first byte that is not and as
/// ISO-8859-1 whole (it has no character over 0x7f before that byte).
fn same_decoding(bytes: &[u8]) -> bool {
    match std::str::from_utf8(bytes) {
        Ok(_) => true,
        Err(e) => bytes[..e.valid_up_to()].is_ascii(),
    }
}

#[test]
fn every_real_file_in_pieces_of_many_sizes() {
    let mut games = 0;
    for (name, bytes) in files() {
        if !same_decoding(&bytes) {
            continue;
        }
        let expected = whole(&bytes);
        games += expected.len();
        for piece in [1, 2, 3, 5, 7, 13, 64, 1000, 4096, 65536, bytes.len().max(1)] {
            let got = in_pieces(&bytes, piece);
            assert_eq!(got.len(), expected.len(), "{name}, pieces of {piece}");
            for (i, (a, b)) in got.iter().zip(&expected).enumerate() {
                assert_eq!(a, b, "{name}, pieces of {piece}: game {}", i + 1);
            }
        }
    }
    assert!(games > 2000, "{games} games");
}

#[test]
fn one_file_in_pieces_of_every_size() {
    let (name, bytes) = files()
        .into_iter()
        .find(|(n, _)| n.ends_with("pdnstd_Principles_of_Strategy.pdn"))
        .expect("pdnstd_Principles_of_Strategy.pdn");
    let expected = whole(&bytes);
    assert!(expected.len() > 5);
    for piece in 1..=bytes.len() {
        assert_eq!(
            in_pieces(&bytes, piece),
            expected,
            "{name}, pieces of {piece}"
        );
    }
}
