//! A replica computing endgame tables on first use stays within the memory limit of the
//! Kubernetes manifests: run with the base Deployment's settings under that limit (`prlimit
//! --data`, which fails an allocation past it and so aborts the process), it is sent the
//! worst sequence of first-use requests known: bursts of 4-piece positions over ten variants
//! at once (two men and two kings, and the largest table the replica computes, of the 12×12
//! boards, international, Killer and six 8×8 variants), then two men and two kings again in
//! the other order, so that builds have to make room among the tables of the others. Every request is answered (200, or 404 for a material the replica
//! does not compute, as its tables list says), the process lives, and its peak resident memory
//! stays under the limit.

#![cfg(target_os = "linux")]

use std::collections::HashMap;
use std::process::Command;
use std::time::{Duration, Instant};

use arbiter_rules::tables::{self, Material};
use serde_json::Value;

/// The variants of the bursts: the two 12×12 boards, two 10×10 ones and six 8×8 ones.
const VARIANTS: [&str; 10] = [
    "canadian",
    "sri-lankan",
    "international",
    "killer",
    "english",
    "russian",
    "brazilian",
    "italian",
    "czech",
    "portuguese",
];

/// The longest the whole sequence may take (it takes a few minutes on 2 cores).
const DEADLINE: Duration = Duration::from_secs(25 * 60);

fn arbiter() -> String {
    env!("CARGO_BIN_EXE_arbiter").to_string()
}

/// The base Deployment's container settings: its environment and its memory limit in bytes.
fn manifest() -> (HashMap<String, String>, u64) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/k8s/base/deployment.yaml");
    let text = std::fs::read_to_string(path).expect("read k8s/base/deployment.yaml");
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let mut env = HashMap::new();
    for (i, l) in lines.iter().enumerate() {
        if let Some(name) = l.strip_prefix("- name: ") {
            let value = lines[i + 1..]
                .iter()
                .find_map(|v| v.strip_prefix("value: "))
                .expect("a value after a name");
            env.insert(name.to_string(), value.trim_matches('"').to_string());
        }
    }
    let limits = lines
        .iter()
        .position(|l| *l == "limits:")
        .expect("resources.limits");
    let memory = lines[limits..]
        .iter()
        .find_map(|l| l.strip_prefix("memory: "))
        .expect("limits.memory");
    let mib: u64 = memory
        .strip_suffix("Mi")
        .and_then(|n| n.parse().ok())
        .expect("a memory limit in Mi");
    (env, mib << 20)
}

#[path = "support/replica.rs"]
mod replica;
use replica::Replica;

/// A replica with the manifest's settings `env`, under the memory limit `limit`.
fn start(env: &HashMap<String, String>, limit: u64) -> Replica {
    let mut cmd = Command::new("prlimit");
    cmd.arg(format!("--data={limit}:{limit}"))
        .arg("--")
        .arg(arbiter())
        .arg("serve");
    for key in [
        "ARBITER_MAX_JOBS",
        "ARBITER_WORKERS",
        "ARBITER_TABLES_BUILTIN_PIECES",
        "ARBITER_TABLES_MEMORY_BYTES",
        "ARBITER_TABLES_BUILD_WAIT",
    ] {
        let value = env
            .get(key)
            .unwrap_or_else(|| panic!("{key} in the manifest"));
        cmd.env(key, value);
    }
    cmd.env("ARBITER_TABLES_DIR", "")
        .env_remove("ARBITER_ADMIN_ADDR");
    // prlimit (util-linux) execs arbiter: the replica's process is the child.
    Replica::start(cmd)
}

/// A legal position of `variant` with material `m`, White to move: men on their side's
/// starting squares, kings anywhere free, drawn by `next` until the variant accepts one.
fn position(variant: &str, m: &Material, next: &mut impl FnMut() -> usize) -> String {
    let v = arbiter_rules::variant(variant).unwrap();
    let start = v.fen(&v.start());
    let squares = |prefix: char| -> Vec<String> {
        start
            .split(':')
            .skip(1)
            .find_map(|f| f.strip_prefix(prefix))
            .unwrap_or_default()
            .split(',')
            .filter(|s| !s.is_empty())
            .map(|s| s.trim_start_matches('K').to_string())
            .collect()
    };
    let (white, black) = (squares('W'), squares('B'));
    let all: Vec<&String> = white.iter().chain(&black).collect();
    let (w, b) = m
        .name()
        .split_once('v')
        .map(|(w, b)| (w.to_string(), b.to_string()))
        .unwrap();
    for _ in 0..10_000 {
        let mut used: Vec<String> = Vec::new();
        let mut side = |pieces: &str, own: &[String]| -> String {
            let mut out = Vec::new();
            for p in pieces.chars() {
                let from: Vec<&String> = if p == 'M' {
                    own.iter().collect()
                } else {
                    all.clone()
                };
                let sq = loop {
                    let s = from[next() % from.len()].clone();
                    if !used.contains(&s) {
                        break s;
                    }
                };
                used.push(sq.clone());
                out.push(if p == 'K' { format!("K{sq}") } else { sq });
            }
            out.join(",")
        };
        let fen = format!("W:W{}:B{}", side(&w, &white), side(&b, &black));
        if let Ok(pos) = v.parse_fen(&fen) {
            if tables::material_of(v, &pos) == *m {
                return fen;
            }
        }
    }
    panic!("no position of {variant} {m}");
}

/// Asks for `fen`'s value until the answer is not 503 `endgame-building`; the final status.
fn ask(client: &reqwest::blocking::Client, base: &str, variant: &str, fen: &str) -> (u16, Value) {
    let started = Instant::now();
    loop {
        let r = client
            .get(format!("{base}/v1/variants/{variant}/endgame"))
            .query(&[("position", fen)])
            .timeout(Duration::from_secs(120))
            .send()
            .unwrap_or_else(|e| panic!("{variant} {fen}: no answer: {e}"));
        let status = r.status().as_u16();
        let body: Value = r.json().unwrap_or(Value::Null);
        if status != 503 {
            return (status, body);
        }
        assert_eq!(
            body["type"]
                .as_str()
                .map(|t| t.ends_with("endgame-building")),
            Some(true),
            "{variant} {fen}: {body}"
        );
        assert!(
            started.elapsed() < DEADLINE,
            "{variant} {fen}: still building"
        );
        std::thread::sleep(Duration::from_millis(500));
    }
}

#[test]
fn first_use_builds_stay_within_the_replicas_memory_limit() {
    let (env, limit) = manifest();
    let budget: u64 = env["ARBITER_TABLES_MEMORY_BYTES"].parse().unwrap();
    assert!(
        budget < limit,
        "the budget ({budget}) leaves the service room under {limit}"
    );
    let replica = start(&env, limit);
    let client = reqwest::blocking::Client::new();

    // Per variant: two men and two kings, and the largest 4-piece table the replica lists
    // as computed on first use (the largest build it lets itself do).
    let mut seed = 0x9e37_79b9_u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 16) as usize
    };
    let mut requests: Vec<(&str, Material, String, bool)> = Vec::new();
    for id in VARIANTS {
        let v = arbiter_rules::variant(id).unwrap();
        let list: Value = client
            .get(format!("{}/v1/variants/{id}/endgame/tables", replica.base))
            .send()
            .and_then(|r| r.json())
            .expect("the tables list");
        let listed = |m: &Material| {
            list["builtin"]
                .as_array()
                .unwrap()
                .iter()
                .any(|x| x.as_str() == Some(&m.name()))
        };
        let scratch = |m: &Material| arbiter::tables::first_use_memory(v, m).unwrap_or(0);
        let largest = tables::materials_up_to(v, 4)
            .into_iter()
            .filter(|m| m.pieces() == 4 && listed(m))
            .max_by_key(scratch)
            .expect("a 4-piece table computed on first use");
        let kmvkm = Material::parse("KMvKM").unwrap();
        for m in [kmvkm, largest] {
            let fen = position(id, &m, &mut next);
            requests.push((id, m, fen, listed(&m)));
        }
    }

    let started = Instant::now();
    for burst in 0..2 {
        let mut order: Vec<usize> = (0..VARIANTS.len()).collect();
        if burst == 1 {
            order.reverse();
        }
        std::thread::scope(|s| {
            for i in order {
                let (client, base, requests) = (&client, &replica.base, &requests);
                s.spawn(move || {
                    // The second burst asks for the two men and two kings only.
                    let mine = requests
                        .iter()
                        .filter(|r| r.0 == VARIANTS[i])
                        .take(if burst == 0 { 2 } else { 1 });
                    for (id, m, fen, listed) in mine {
                        let (status, body) = ask(client, base, id, fen);
                        if *listed {
                            assert_eq!(status, 200, "{id} {m} {fen}: {body}");
                        } else {
                            assert_eq!(status, 404, "{id} {m} {fen}: {body}");
                            let detail = body["detail"].as_str().unwrap_or_default();
                            assert!(detail.contains("memory budget"), "{id} {m}: {body}");
                        }
                    }
                });
            }
        });
    }
    let peak = replica.status("VmHWM:");
    eprintln!(
        "first-use bursts: {:.0} s, peak {} MiB under a limit of {} MiB (budget {} MiB)",
        started.elapsed().as_secs_f64(),
        peak >> 20,
        limit >> 20,
        budget >> 20
    );
    let mut replica = replica;
    assert!(
        replica
            .child
            .try_wait()
            .expect("the replica's status")
            .is_none(),
        "the replica died"
    );
    assert!(
        peak <= limit,
        "peak resident memory {} MiB past the limit {} MiB",
        peak >> 20,
        limit >> 20
    );
}
