//! Building endgame tables (criterion): every material of a few pieces, from nothing, for an
//! 8×8 variant and for international draughts. Positions per second: divide the position
//! count in the benchmark id by the time criterion reports.
//! Run with `cargo bench --bench tables`.

use arbiter_rules::tables::{materials_up_to, Tables};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

/// Every table of `id` with at most `pieces` pieces, built from nothing.
fn build_all(id: &str, pieces: u32) -> Tables {
    let v = arbiter_rules::variant(id).expect("variant in catalogue");
    let mut tables = Tables::new(v).expect("variant with tables");
    for m in materials_up_to(v, pieces) {
        tables.build(m, &mut |_| {}).expect("table built");
    }
    tables
}

fn build(c: &mut Criterion) {
    let mut group = c.benchmark_group("tables");
    group.sample_size(10);
    for (id, pieces) in [("russian", 4), ("international", 3)] {
        let tables = build_all(id, pieces);
        let positions: u64 = tables
            .materials()
            .iter()
            .map(|m| tables.get(m).expect("held").stats().positions)
            .sum();
        group.throughput(Throughput::Elements(positions));
        group.bench_with_input(
            BenchmarkId::new(id, format!("{pieces}-pieces-{positions}-positions")),
            &pieces,
            |b, &pieces| b.iter(|| build_all(id, pieces)),
        );
    }
    group.finish();
}

criterion_group!(benches, build);
criterion_main!(benches);
