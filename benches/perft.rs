//! Perft per variant from the start position (criterion). Leaves per second: divide the
//! node count printed in the benchmark id by the time criterion reports.
//! Run with `cargo bench --bench perft`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

type PerftFn = fn(
    &arbiter_rules::Variant,
    &arbiter_rules::Position,
    u32,
) -> Result<u64, arbiter_rules::GenError>;

/// One criterion group: `count` from each variant's start position to its depth.
fn perft_group(c: &mut Criterion, name: &str, count: PerftFn, variants: &[(&str, u32)]) {
    let mut group = c.benchmark_group(name);
    group.sample_size(10);
    for &(id, depth) in variants {
        let v = arbiter_rules::variant(id).expect("variant in catalogue");
        let start = v.start();
        let nodes = count(v, &start, depth).expect("perft");
        group.throughput(Throughput::Elements(nodes));
        group.bench_with_input(BenchmarkId::new(id, depth), &depth, |b, &d| {
            b.iter(|| count(v, &start, d).expect("perft"))
        });
    }
    group.finish();
}

/// Perft as `arbiter perft` counts it (the narrow generator where the variant has one).
fn perft_start(c: &mut Criterion) {
    let variants = [
        ("international", 6),
        ("english", 8),
        ("russian", 7),
        ("brazilian", 7),
        ("canadian", 5),
        ("czech", 7),
        ("italian", 7),
        ("portuguese", 7),
        ("thai", 7),
        ("frisian", 6),
        ("pool", 7),
        ("frysk", 7),
        ("breakthrough", 6),
        ("killer", 6),
        ("spanish", 7),
        ("sri-lankan", 5),
        ("turkish", 6),
        ("croda", 4),
        ("dameo", 4),
        ("gothic", 5),
        ("hawaiian", 7),
    ];
    perft_group(c, "perft", arbiter_rules::perft, &variants);
}

/// The general generator (the one `/moves`, `/play` and `/judge` use, and perft for the
/// variants the narrow generator does not serve), on the same start positions.
fn perft_general(c: &mut Criterion) {
    let variants = [("international", 5), ("russian", 7), ("frisian", 6)];
    perft_group(c, "general", arbiter_rules::perft_general, &variants);
}

fn move_generation(c: &mut Criterion) {
    // A middle-game position with kings and captures (PDN 3.0's capture disambiguation example).
    let v = arbiter_rules::variant("international").expect("variant");
    let pos = v.parse_fen("W:WK47:B14,19,29,31,42").expect("fen");
    c.bench_function("describe_moves/international-ambiguous", |b| {
        b.iter(|| {
            v.describe_moves(&pos, &arbiter_rules::Budget::unlimited())
                .expect("moves")
        })
    });
    // Many capture moves, each reached by many routes (64,590 routes, 3,677 moves): finding
    // a route's move among those already found must not grow with their number.
    let v = arbiter_rules::variant("gothic").expect("variant");
    let pos = v
        .parse_fen(
            "B:W1,2,K64,36,38,23,13,K3,24,K45,31,7,25,51,K59,53,29,K33,K50,56,6,39,K61,43,\
             K37,K35,21,47:BK62,K54,K15,K63,K16,K34,K52",
        )
        .expect("fen");
    let mut group = c.benchmark_group("legal_moves");
    group.sample_size(10);
    group.bench_function("gothic-3677-moves", |b| {
        b.iter(|| {
            v.legal_moves(&pos, &arbiter_rules::Budget::unlimited())
                .expect("moves")
        })
    });
    group.finish();
}

criterion_group!(benches, perft_start, perft_general, move_generation);
criterion_main!(benches);
