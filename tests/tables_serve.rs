//! A replica serving prebuilt table files reads them in place, memory-mapped: after probing
//! positions of every material of the set, its anonymous memory (`RssAnon`, Linux) stays
//! within a fixed allowance of the same replica without tables, far below the size of the
//! files, which the kernel's page cache holds instead.

#![cfg(target_os = "linux")]

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

const VARIANT: &str = "international";
/// The set: every material of up to 3 pieces, then these of 4 (in an order where each finds
/// the tables it leads to), 25 MB of files built in about 20 seconds.
const FOUR: [&str; 5] = ["KKvKK", "KKKvK", "KvKKK", "KKvKM", "KMvKK"];

/// What the replica with tables may hold beyond the one without, in bytes: the tables' own
/// structures (headers, numberings) and the probes' buffers. Measured: about 1 MiB for the
/// international 4-piece set (118 MB of files).
const ALLOWANCE: u64 = 8 << 20;

fn arbiter() -> Command {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
}

#[path = "support/replica.rs"]
mod replica;
use replica::Replica;

/// A replica with `tables` as `ARBITER_TABLES_DIR` (empty: none), computing no table itself.
fn start(tables: &str) -> Replica {
    let mut cmd = arbiter();
    cmd.arg("serve")
        .env("ARBITER_WORKERS", "2")
        .env("ARBITER_TABLES_DIR", tables)
        .env("ARBITER_TABLES_BUILTIN_PIECES", "0");
    Replica::start(cmd)
}

/// The set's files, built once into a directory of their own; with their total size.
fn build_set() -> (PathBuf, u64) {
    let dir = std::env::temp_dir().join(format!("arbiter-serve-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let build = |extra: &[&str]| {
        let out = arbiter()
            .args(["tables", "build", "--variant", VARIANT])
            .args(extra)
            .arg("--out")
            .arg(&dir)
            .env_remove("JOB_COMPLETION_INDEX")
            .output()
            .expect("run arbiter tables build");
        assert!(
            out.status.success(),
            "{extra:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    build(&["--pieces", "3"]);
    for m in FOUR {
        build(&["--material", m]);
    }
    let total = files(&dir).iter().map(|(_, n)| n).sum();
    (dir, total)
}

fn files(dir: &Path) -> Vec<(String, u64)> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                e.metadata().unwrap().len(),
            )
        })
        .filter(|(n, _)| n.ends_with(".arbtb"))
        .collect()
}

/// A position of international draughts with the material `m` (`KMvK`: White's pieces, `v`,
/// Black's) on squares drawn by `next`: men off their own promotion row, squares distinct.
fn position(m: &str, next: &mut impl FnMut() -> u32) -> String {
    let (white, black) = m.split_once('v').unwrap();
    let mut used = Vec::new();
    let mut side = |pieces: &str, promotion: std::ops::RangeInclusive<u32>| {
        let mut out = Vec::new();
        for p in pieces.chars() {
            let sq = loop {
                let s = 1 + next() % 50;
                let taken = used.contains(&s) || (p == 'M' && promotion.contains(&s));
                if !taken {
                    break s;
                }
            };
            used.push(sq);
            out.push(if p == 'K' {
                format!("K{sq}")
            } else {
                sq.to_string()
            });
        }
        out.join(",")
    };
    let w = side(white, 1..=5);
    let b = side(black, 46..=50);
    let to_move = if next() % 2 == 0 { 'W' } else { 'B' };
    format!("{to_move}:W{w}:B{b}")
}

#[test]
fn a_replica_serving_files_keeps_its_own_memory_small() {
    let (dir, total) = build_set();
    assert!(
        total > 2 * ALLOWANCE,
        "the set ({total} bytes) is large enough for the check to mean something"
    );

    let bare = start("");
    let mut client = reqwest::blocking::Client::new();
    // The replica without tables, after answering the same kind of request.
    let probe = |client: &mut reqwest::blocking::Client, base: &str, fen: &str| {
        client
            .get(format!("{base}/v1/variants/{VARIANT}/endgame"))
            .query(&[("position", fen)])
            .send()
            .expect("an endgame request")
    };
    for _ in 0..50 {
        let _ = probe(&mut client, &bare.base, "W:WK12,K30:BK40,19").bytes();
    }
    let without = bare.status("RssAnon:");
    drop(bare);

    let replica = start(dir.to_str().unwrap());
    let at_ready = replica.status("RssAnon:");
    let mut seed: u32 = 0x2545_f491;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        seed
    };
    let materials: Vec<String> = files(&dir)
        .into_iter()
        .map(|(n, _)| {
            n.trim_start_matches("international-")
                .trim_end_matches(".arbtb")
                .to_string()
        })
        .collect();
    let (mut answered, mut sent) = (0, 0);
    for m in &materials {
        for _ in 0..40 {
            let fen = position(m, &mut next);
            let r = probe(&mut client, &replica.base, &fen);
            sent += 1;
            if r.status().is_success() {
                let v: Value = r.json().expect("a JSON answer");
                assert!(
                    ["win", "draw", "loss"].contains(&v["category"].as_str().unwrap_or("")),
                    "{fen}: {v}"
                );
                answered += 1;
            }
        }
    }
    assert!(
        answered * 2 > sent,
        "most positions answered from the files ({answered} of {sent})"
    );
    let after = replica.status("RssAnon:");
    eprintln!(
        "files {total} bytes; RssAnon without tables {without}, with them at readiness \
         {at_ready}, after {sent} probes {after}"
    );
    assert!(
        after < without + ALLOWANCE,
        "RssAnon {after} bytes after probing, {without} without tables: the files are copied \
         into the replica's memory"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
