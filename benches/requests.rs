//! The operations' own work (criterion): what `POST /v1/variants/{variant}/moves`, `/play`,
//! `/judge`, `/v1/judge/pdn` and the diagram do between the parsed request and the JSON (or
//! SVG) answer, without the HTTP layer. `benches/wrk-ratio.sh` measures the whole
//! path with wrk. Run with `cargo bench --bench requests`.

use arbiter::ops::{diagram, judge, moves, play, records};
use arbiter_rules::adjudication::no_tables;
use arbiter_rules::Budget;
use criterion::{criterion_group, criterion_main, Criterion};

fn budget() -> Budget {
    Budget::new(arbiter::config::DEFAULT_WORK_BUDGET)
}

fn handlers(c: &mut Criterion) {
    let intl = arbiter_rules::variant("international").expect("variant");
    let mut group = c.benchmark_group("handlers");
    let start = intl.start();
    group.bench_function("fen/international-start", |b| b.iter(|| intl.fen(&start)));
    // The FENs of a /moves answer: the position's, then each move's resulting position's.
    let children: Vec<_> = intl
        .legal_moves(&start, &Budget::unlimited())
        .expect("moves")
        .into_iter()
        .map(|m| (m, intl.play(&start, &m)))
        .collect();
    group.bench_function("child-fens/international-start", |b| {
        b.iter(|| {
            let mut out = Vec::with_capacity(4096);
            let lists = intl.fen_into(&start, &mut out);
            let parent = out.clone();
            for (m, child) in &children {
                intl.child_fen_into(&start, &parent, &lists, m, child, &mut out);
            }
            out
        })
    });
    // What every request with a position does first.
    group.bench_function("parse-fen/international-start", |b| {
        b.iter(|| intl.parse_fen_counters("W:W31-50:B1-20").expect("fen"))
    });
    let middle = "B:W27,28,31,32,33,34,35,36,37,38,39,40,41,42,43,44,46,47,48,50:BK3,4,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23";
    group.bench_function("parse-fen/international-lists", |b| {
        b.iter(|| intl.parse_fen_counters(middle).expect("fen"))
    });
    group.bench_function("moves/international-start", |b| {
        b.iter(|| moves::list_moves(intl, None, &budget()).expect("moves"))
    });
    // What the moves endpoints do: the answer and its JSON text, written directly.
    group.bench_function("moves/international-start+json", |b| {
        b.iter(|| {
            moves::answer_moves(intl, None, &budget())
                .expect("moves")
                .to_json()
        })
    });
    group.bench_function("moves/international-kings", |b| {
        b.iter(|| {
            moves::list_moves(intl, Some("W:WK47:B14,19,29,31,42"), &budget()).expect("moves")
        })
    });
    let texts: Vec<String> = ["32-28", "19-23", "28x19", "14x23"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    group.bench_function("play/international-4-moves", |b| {
        b.iter(|| play::play_moves(intl, None, &texts, &budget()).expect("play"))
    });
    let game = judge::GameInput {
        moves: ["32-28", "19-23", "28x19", "14x23", "37-32", "20-24"]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        declared_result: Some(judge::ClaimedResult::Unknown),
        ..judge::GameInput::default()
    };
    group.bench_function("judge/international-6-plies", |b| {
        b.iter(|| judge::judge_game(intl, &game, &mut no_tables, &budget()).expect("judge"))
    });
    let file = "[GameType \"20\"]\n1. 32-28 19-23 2. 28x19 14x23 3. 37-32 20-24 *\n\n".repeat(10);
    group.bench_function("pdn/10-games", |b| {
        b.iter(|| {
            records::judge_pdn_text(
                &file,
                None,
                200,
                judge::JudgeOptions::default(),
                &mut no_tables,
                &budget(),
            )
            .expect("pdn")
        })
    });
    let input = diagram::DiagramInput {
        position: None,
        mv: None,
        flip: false,
        coordinates: true,
    };
    group.bench_function("diagram/international-start", |b| {
        b.iter(|| diagram::diagram_svg(intl, &input, &budget()).expect("svg"))
    });
    group.finish();
}

criterion_group!(benches, handlers);
criterion_main!(benches);
