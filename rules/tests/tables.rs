//! The endgame tables (`arbiter_rules::tables`) checked three ways, each from the rules and
//! never from the solver's own output:
//!
//! 1. against a second solver written from the rules alone (`tables/oracle.rs`): every
//!    position of every table built here has the same value and the same distance;
//! 2. for consistency with their own moves: a win has a move to a loss one ply shorter and
//!    none to a shorter one, a loss has only moves to wins and the slowest is one ply
//!    shorter, a draw has a move to a draw and none to a loss;
//! 3. against published endgame theory (each case cites its source).
//!
//! The values are the game-theoretic ones: the draw rules that count moves (FMJD's 16- and
//! 5-move endings, FMJD-64's 15-move and main-road rules, repetition) are not part of them.
//!
//! Run with `cargo test --release -p arbiter-rules --test tables`.

#[path = "tables/oracle.rs"]
mod oracle;

use arbiter_rules::tables::{materials_up_to, Material, Table, Tables, Value};
use arbiter_rules::{status, variant, Budget, Color, Position, Status, Variant};
use oracle::{enumerate, Graph, Val};

fn var(id: &str) -> &'static Variant {
    variant(id).unwrap_or_else(|| panic!("{id}: not in the catalogue"))
}

fn material(name: &str) -> Material {
    Material::parse(name).unwrap_or_else(|| panic!("{name}: not a material"))
}

/// The tables of `roots` (each with every table it leads to) for variant `id`.
fn build(id: &str, roots: &[Material]) -> Tables {
    let v = var(id);
    let mut tables = Tables::new(v).unwrap_or_else(|e| panic!("{id}: no tables: {}", e.reason));
    for &m in roots {
        tables
            .build(m, &mut |_| {})
            .unwrap_or_else(|e| panic!("{id}: building {m}: {e}"));
    }
    tables
}

fn val(v: Value) -> Val {
    match v {
        Value::Win(n) => Val::Win(n),
        Value::Draw => Val::Draw,
        Value::Loss(n) => Val::Loss(n),
    }
}

/// The value of `pos` from `tables`, which must have it.
fn probe(tables: &Tables, pos: &Position) -> Value {
    let v = tables.variant();
    tables
        .probe(pos)
        .unwrap_or_else(|| panic!("{}: no value for {}", v.id(), v.fen(pos)))
}

/// Part 1: builds the tables of `roots`, solves every material they hold with the oracle
/// (and whatever the oracle's moves lead to), and compares every position. Then checks
/// every table for consistency (part 2), its statistics, and its file form.
fn agree(id: &str, roots: &[Material]) -> Tables {
    let v = var(id);
    let tables = build(id, roots);
    let held = tables.materials();
    assert!(!held.is_empty(), "{id}: nothing built");
    let counts: Vec<_> = held.iter().map(|m| m.counts).collect();
    let graph = Graph::solve(v, &counts);

    let mut wrong = Vec::new();
    for (i, pos) in graph.positions.iter().enumerate() {
        let ours = graph.values[i];
        let theirs = tables.probe(pos).map(val);
        if theirs != Some(ours) {
            wrong.push(format!(
                "{}: tables {theirs:?}, oracle {ours:?}",
                v.fen(pos)
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{id}: {} of {} positions differ, e.g.\n{}",
        wrong.len(),
        graph.positions.len(),
        wrong[..wrong.len().min(12)].join("\n")
    );
    for m in &held {
        check_stats(&graph, tables.get(m).expect("held"));
        check_file(v, tables.get(m).expect("held"));
    }
    consistent(&tables);
    tables
}

/// The statistics a table reports are those of its positions' values.
fn check_stats(graph: &Graph, table: &Table) {
    let v = graph.variant;
    let m = table.material();
    let (mut positions, mut wins, mut draws, mut losses, mut longest) = (0u64, 0, 0, 0, 0);
    for p in enumerate(v, &m.counts) {
        positions += 1;
        match graph.value(&p).expect("enumerated") {
            Val::Win(n) => {
                wins += 1;
                longest = longest.max(n);
            }
            Val::Draw => draws += 1,
            Val::Loss(_) => losses += 1,
        }
    }
    let s = table.stats();
    assert_eq!(
        (s.positions, s.wins, s.draws, s.losses, s.longest),
        (positions, wins, draws, losses, longest),
        "{} {m}: stats (positions, wins, draws, losses, longest win)",
        v.id()
    );
}

/// A table read back from its file form gives the same value for every position, and the
/// file of another material or variant is refused.
fn check_file(v: &'static Variant, table: &Table) {
    let bytes = table.to_bytes();
    let back = Table::from_bytes(v, &bytes)
        .unwrap_or_else(|e| panic!("{} {}: reading back: {e}", v.id(), table.material()));
    assert_eq!(back.material(), table.material());
    for p in enumerate(v, &table.material().counts) {
        assert_eq!(back.probe(&p), table.probe(&p), "{}", v.fen(&p));
    }
    let mut cut = bytes.clone();
    cut.pop();
    assert!(
        Table::from_bytes(v, &cut).is_err(),
        "a truncated file is refused"
    );
    let other = var(if v.id() == "russian" {
        "english"
    } else {
        "russian"
    });
    assert!(
        Table::from_bytes(other, &bytes).is_err(),
        "{} {}: a file read as another variant's is refused",
        v.id(),
        table.material()
    );
}

/// Part 2: every position of every table held agrees with the values of its moves.
fn consistent(tables: &Tables) {
    let v = tables.variant();
    let b = Budget::unlimited();
    for m in tables.materials() {
        for pos in enumerate(v, &m.counts) {
            let value = probe(tables, &pos);
            let fen = v.fen(&pos);
            let decided = !matches!(status(v, &pos, &b).unwrap(), Status::Ongoing);
            if decided {
                assert!(
                    matches!(value, Value::Win(0) | Value::Loss(0) | Value::Draw),
                    "{} {m} {fen}: a decided position is {value:?}",
                    v.id()
                );
                continue;
            }
            // What each move gives the mover: the opposite of the next position's value,
            // one ply longer.
            let after: Vec<Value> = v
                .legal_moves(&pos, &b)
                .unwrap()
                .iter()
                .map(|mv| match probe(tables, &v.play(&pos, mv)) {
                    Value::Win(n) => Value::Loss(n + 1),
                    Value::Loss(n) => Value::Win(n + 1),
                    Value::Draw => Value::Draw,
                })
                .collect();
            let fastest_win = after
                .iter()
                .filter_map(|a| match a {
                    Value::Win(n) => Some(*n),
                    _ => None,
                })
                .min();
            let slowest_loss = after
                .iter()
                .filter_map(|a| match a {
                    Value::Loss(n) => Some(*n),
                    _ => None,
                })
                .max();
            let any_draw = after.contains(&Value::Draw);
            let expected = match (fastest_win, any_draw, slowest_loss) {
                (Some(n), _, _) => Value::Win(n),
                (None, true, _) => Value::Draw,
                (None, false, Some(n)) => Value::Loss(n),
                (None, false, None) => unreachable!("an ongoing position has moves"),
            };
            assert_eq!(
                value,
                expected,
                "{} {m} {fen}: the value does not follow from its moves",
                v.id()
            );
        }
    }
}

/// Every material of up to `pieces` pieces the variant has.
fn up_to(id: &str, pieces: u32) -> Vec<Material> {
    materials_up_to(var(id), pieces)
}

// ---------------------------------------------------------------------------------------
// Part 1 and 2: the oracle, on several families of rules.

#[test]
fn english_up_to_three_pieces_agree_with_the_oracle() {
    agree("english", &up_to("english", 3));
}

#[test]
fn russian_up_to_three_pieces_and_three_kings_against_one_agree_with_the_oracle() {
    let mut roots = up_to("russian", 3);
    roots.push(material("KKKvK"));
    agree("russian", &roots);
}

#[test]
fn international_up_to_three_pieces_agree_with_the_oracle() {
    agree("international", &up_to("international", 3));
}

#[test]
fn turkish_kings_agree_with_the_oracle() {
    // Orthogonal flying kings, immediate removal, and two end rules (a lone king beats a lone
    // man; two lone kings draw) that decide positions before any move.
    let mut roots = up_to("turkish", 2);
    roots.extend([material("KKvK"), material("KvKK")]);
    agree("turkish", &roots);
}

#[test]
fn anti_checkers_up_to_three_pieces_agree_with_the_oracle() {
    // A giveaway variant: the side to move without a legal move wins.
    let v = var("anti-checkers");
    assert_eq!(v.no_moves_winner(Color::White), Color::White);
    agree("anti-checkers", &up_to("anti-checkers", 3));
}

#[test]
fn alquerque_up_to_four_pieces_agree_with_the_oracle() {
    // A point-and-line board: orthogonal and diagonal lines, single captures.
    agree("alquerque", &up_to("alquerque", 4));
}
