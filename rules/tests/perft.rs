//! Perft against the published tables in `tests/data/perft.txt` (drop-duplicates convention).
//! Shallow entries run always; deep ones with `cargo test --release -- --ignored`.

use arbiter_rules::{perft, perft_keep, variant};

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
