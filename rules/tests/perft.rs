//! Perft against the published tables in `tests/data/perft.txt` (drop-duplicates convention).
//! Shallow entries run always; deep ones with `cargo test --release -- --ignored`.

mod common;

use arbiter_rules::{perft, perft_general, perft_keep, variant, variants, Budget};
use common::Rng;

struct Entry {
    line: usize,
    /// Count every capture route ("keep duplicates") rather than every move.
    keep: bool,
    variant: String,
    depth: u32,
    nodes: u64,
    fen: Option<String>,
}

fn entries() -> Vec<Entry> {
    include_str!("data/perft.txt")
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, l)| {
            let mut w = l.split_whitespace().peekable();
            let keep = w.next_if_eq(&"keep").is_some();
            Entry {
                line: i + 1,
                keep,
                variant: w.next().unwrap().to_string(),
                depth: w.next().unwrap().parse().unwrap(),
                nodes: w.next().unwrap().parse().unwrap(),
                fen: w.next().map(str::to_string),
            }
        })
        .collect()
}

/// Entries that run in every test run: published figures up to depth 7, or small ones.
fn shallow(e: &Entry) -> bool {
    e.depth <= 7 || e.nodes <= 2_000_000
}

fn check(e: &Entry) -> Result<(), String> {
    let v = variant(&e.variant).ok_or(format!("line {}: unknown variant", e.line))?;
    let pos = match &e.fen {
        Some(f) => v
            .parse_fen(f)
            .map_err(|err| format!("line {}: {err}", e.line))?,
        None => v.start(),
    };
    let count = if e.keep { perft_keep } else { perft };
    let got = count(v, &pos, e.depth).map_err(|err| format!("line {}: {err}", e.line))?;
    if got == e.nodes {
        Ok(())
    } else {
        Err(format!(
            "line {}: {}{} perft({}) = {got}, published {}",
            e.line,
            if e.keep { "keep " } else { "" },
            e.variant,
            e.depth,
            e.nodes
        ))
    }
}

fn run(select: impl Fn(&Entry) -> bool) -> usize {
    let chosen: Vec<Entry> = entries().into_iter().filter(|e| select(e)).collect();
    let failures: Vec<String> = chosen.iter().filter_map(|e| check(e).err()).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    chosen.len()
}

#[test]
fn perft_published_shallow() {
    let n = run(shallow);
    assert!(
        n >= 21,
        "expected every depth 1-7 figure of three variants, ran {n}"
    );
}

#[test]
#[ignore = "deep perft: minutes in release mode"]
fn perft_published_deep() {
    run(|e| !shallow(e));
}

/// The general generator's count of a position's moves (perft's last ply: drops and the
/// non-capturing moves of a whole set of pieces counted, not built) is the number of moves it
/// builds, charged alike, in both route conventions; and perft with it is perft without it.
/// Every variant, along random games from the start.
#[test]
fn counting_the_last_ply_gives_the_moves_built() {
    let mut rng = Rng(0x5eed_c0de_0001);
    let mut positions = 0;
    for v in variants() {
        for _ in 0..6 {
            let mut pos = v.start();
            for ply in 0..60 {
                for dedup in [true, false] {
                    let (built, counted) = (Budget::unlimited(), Budget::unlimited());
                    let mut moves = Vec::new();
                    v.generate_paths(&pos, &built, dedup, &mut moves).unwrap();
                    let n = v.count_paths(&pos, &counted, dedup, &mut Vec::new());
                    assert_eq!(
                        n,
                        Ok(moves.len() as u64),
                        "{} {} dedup {dedup}",
                        v.id(),
                        v.fen(&pos)
                    );
                    assert_eq!(built.used(), counted.used(), "{} {}", v.id(), v.fen(&pos));
                }
                positions += 1;
                if ply % 20 == 10 {
                    assert_eq!(
                        perft(v, &pos, 2),
                        perft_general(v, &pos, 2),
                        "{} {}",
                        v.id(),
                        v.fen(&pos)
                    );
                }
                let moves = v.legal_moves(&pos, &Budget::unlimited()).unwrap();
                if moves.is_empty() {
                    break;
                }
                pos = v.play(&pos, &moves[rng.below(moves.len())]);
            }
        }
    }
    assert!(positions > 5_000, "{positions}");
}
