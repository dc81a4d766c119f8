//! Perft per variant from the start position (criterion). Leaves per second: divide the
//! node count printed in the benchmark id by the time criterion reports.
//! Run with `cargo bench --bench perft`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

fn perft_start(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for (id, depth) in [
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
    ] {
        let v = arbiter_rules::variant(id).expect("variant in catalogue");
        let start = v.start();
        let nodes = arbiter_rules::perft(v, &start, depth).expect("perft");
        group.throughput(Throughput::Elements(nodes));
        group.bench_with_input(BenchmarkId::new(id, depth), &depth, |b, &d| {
            b.iter(|| arbiter_rules::perft(v, &start, d).expect("perft"))
        });
    }
    group.finish();
}

/// The general generator (the one `/moves`, `/play` and `/judge` use, and perft for the
/// variants the narrow generator does not serve), on the same start positions.
fn perft_general(c: &mut Criterion) {
    let mut group = c.benchmark_group("general");
    group.sample_size(10);
    for (id, depth) in [("international", 5), ("russian", 7), ("frisian", 6)] {
        let v = arbiter_rules::variant(id).expect("variant in catalogue");
        let start = v.start();
        let nodes = arbiter_rules::perft_general(v, &start, depth).expect("perft");
        group.throughput(Throughput::Elements(nodes));
        group.bench_with_input(BenchmarkId::new(id, depth), &depth, |b, &d| {
            b.iter(|| arbiter_rules::perft_general(v, &start, d).expect("perft"))
        });
    }
    group.finish();
}

fn move_generation(c: &mut Criterion) {
    // A middle-game position with kings and captures (diagonal.md §6.4 example).
    let v = arbiter_rules::variant("international").expect("variant");
    let pos = v.parse_fen("W:WK47:B14,19,29,31,42").expect("fen");
    c.bench_function("describe_moves/international-ambiguous", |b| {
        b.iter(|| v.describe_moves(&pos).expect("moves"))
    });
}

criterion_group!(benches, perft_start, perft_general, move_generation);
criterion_main!(benches);
