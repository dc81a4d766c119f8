//! Rule cases from `tests/data/cases/*.txt`: positions written by hand from the rules, with
//! the legal moves, captures, promotions and results the rules demand. The directives are
//! described at the top of `tests/data/cases/foundation.txt`.

use std::collections::BTreeSet;

use arbiter_rules::{
    judge, status, variant, Bits, Budget, Color, Kind, MoveError, Position, Status, Variant,
    Verdict,
};

struct Case {
    file: String,
    title: String,
    line: usize,
    directives: Vec<(usize, String, String)>,
}

fn cases() -> Vec<Case> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/cases");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/data/cases")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    let mut out: Vec<Case> = Vec::new();
    for path in files {
        let file = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).expect("case file");
        parse_file(&file, &text, &mut out);
    }
    out
}

fn parse_file(file: &str, text: &str, out: &mut Vec<Case>) {
    let first = out.len();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(title) = line.strip_prefix('[') {
            out.push(Case {
                file: file.to_string(),
                title: title.trim_end_matches(']').to_string(),
                line: i + 1,
                directives: Vec::new(),
            });
            continue;
        }
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        assert!(
            out.len() > first,
            "{file}:{}: directive before the first case",
            i + 1
        );
        out.last_mut().expect("a case").directives.push((
            i + 1,
            key.to_string(),
            rest.trim().to_string(),
        ));
    }
}

fn parse(v: &Variant, pos: &Position, text: &str, ctx: &str) -> arbiter_rules::DescribedMove {
    v.parse_move(pos, text, &arbiter_rules::Budget::unlimited())
        .unwrap_or_else(|e| panic!("{ctx}: '{text}' should name one legal move: {e}"))
}

fn run_case(case: &Case) {
    let mut v: Option<&Variant> = None;
    let mut pos: Option<Position> = None;
    for (line, key, rest) in &case.directives {
        let ctx = format!("{}:{line} [{}]", case.file, case.title);
        if key == "variant" {
            v = Some(variant(rest).unwrap_or_else(|| panic!("{ctx}: unknown variant")));
            continue;
        }
        let v = v.unwrap_or_else(|| panic!("{ctx}: no variant yet"));
        if key == "start" {
            pos = Some(v.start());
            continue;
        }
        if key == "bad_fen" {
            if let Ok(p) = v.parse_fen(rest) {
                panic!("{ctx}: {rest} should be refused, read as {}", v.fen(&p));
            }
            continue;
        }
        if key == "bad_start" {
            let p = v
                .parse_fen(rest)
                .unwrap_or_else(|e| panic!("{ctx}: bad FEN: {e}"));
            assert!(
                v.check_start(&p).is_err() && v.parse_start_fen(rest).is_err(),
                "{ctx}: no game should start from {rest}"
            );
            continue;
        }
        if key == "fen" {
            pos = Some(
                v.parse_fen(rest)
                    .unwrap_or_else(|e| panic!("{ctx}: bad FEN: {e}")),
            );
            continue;
        }
        let p = pos.unwrap_or_else(|| panic!("{ctx}: no position yet"));
        if key == "sequence" {
            let mut cur = p;
            for m in rest.split_whitespace() {
                let d = parse(v, &cur, m, &ctx);
                cur = v.play(&cur, &d.mv);
            }
            pos = Some(cur);
            continue;
        }
        let legal = v
            .describe_moves(&p, &arbiter_rules::Budget::unlimited())
            .expect("generation");
        match key.as_str() {
            "moves" => {
                let named: Vec<_> = rest
                    .split_whitespace()
                    .map(|t| parse(v, &p, t, &ctx).mv)
                    .collect();
                let distinct: BTreeSet<String> = named.iter().map(|m| format!("{m:?}")).collect();
                assert_eq!(
                    distinct.len(),
                    named.len(),
                    "{ctx}: two texts name one move"
                );
                let all: Vec<String> = legal.iter().map(|d| d.notation.clone()).collect();
                assert_eq!(
                    named.len(),
                    legal.len(),
                    "{ctx}: expected exactly these moves, the engine has {all:?}"
                );
            }
            "order" => {
                let got: Vec<&str> = legal.iter().map(|d| d.notation.as_str()).collect();
                let want: Vec<&str> = rest.split_whitespace().collect();
                assert_eq!(got, want, "{ctx}: the documented order of the move list");
            }
            "distinct" => {
                let named: Vec<_> = rest
                    .split_whitespace()
                    .map(|t| parse(v, &p, t, &ctx).mv)
                    .collect();
                let distinct: BTreeSet<String> = named.iter().map(|m| format!("{m:?}")).collect();
                assert_eq!(
                    distinct.len(),
                    named.len(),
                    "{ctx}: two texts name one move"
                );
            }
            "count" => {
                let all: Vec<String> = legal.iter().map(|d| d.notation.clone()).collect();
                assert_eq!(
                    legal.len(),
                    rest.parse::<usize>().unwrap(),
                    "{ctx}: moves {all:?}"
                );
            }
            "promotes" => {
                let (m, yes) = rest.split_once(' ').unwrap();
                let d = parse(v, &p, m, &ctx);
                assert_eq!(d.mv.is_promotion(), yes == "yes", "{ctx}: promotion of {m}");
            }
            "captures" => {
                let mut words = rest.split_whitespace();
                let m = words.next().unwrap();
                let d = parse(v, &p, m, &ctx);
                let want: BTreeSet<usize> = words
                    .map(|s| {
                        v.parse_square(s)
                            .unwrap_or_else(|| panic!("{ctx}: square {s}"))
                    })
                    .collect();
                let got: BTreeSet<usize> = d.mv.captured().iter().collect();
                assert_eq!(got, want, "{ctx}: captured set of {m}");
                let in_order: BTreeSet<usize> = d.captured.iter().copied().collect();
                assert_eq!(in_order, want, "{ctx}: captured list of {m}");
            }
            "play" => {
                let (m, fen) = rest.split_once("=>").unwrap();
                let d = parse(v, &p, m.trim(), &ctx);
                let want = v.parse_fen(fen.trim()).unwrap();
                let got = v.play(&p, &d.mv);
                assert_eq!(v.fen(&got), v.fen(&want), "{ctx}: position after {m}");
                // Piece by piece too: every piece has one side and one kind.
                for c in [Color::White, Color::Black] {
                    for k in Kind::ALL {
                        assert_eq!(
                            got.pieces(c, k),
                            want.pieces(c, k),
                            "{ctx}: {c:?} {k:?} after {m}"
                        );
                    }
                    let kinds = Kind::ALL
                        .iter()
                        .fold(Bits::EMPTY, |a, &k| a.union(got.pieces(c, k)));
                    assert_eq!(kinds, got.side_pieces(c), "{ctx}: {c:?} after {m}");
                }
            }
            "notation" => {
                let (m, want) = rest.split_once("=>").unwrap();
                let d = parse(v, &p, m.trim(), &ctx);
                assert_eq!(d.notation, want.trim(), "{ctx}: notation of {m}");
            }
            "ambiguous" => {
                let (m, want) = rest.split_once("=>").unwrap();
                match v.parse_move(&p, m.trim(), &arbiter_rules::Budget::unlimited()) {
                    Err(MoveError::Ambiguous { candidates }) => {
                        let got: BTreeSet<&str> = candidates.iter().map(|s| s.as_str()).collect();
                        let want: BTreeSet<&str> = want.split_whitespace().collect();
                        assert_eq!(got, want, "{ctx}: candidates of {m}");
                    }
                    other => panic!("{ctx}: {m} should be ambiguous, got {other:?}"),
                }
            }
            "illegal" => match v.parse_move(&p, rest, &arbiter_rules::Budget::unlimited()) {
                Err(MoveError::Illegal { legal: l, .. }) => {
                    assert_eq!(
                        l.len(),
                        legal.len(),
                        "{ctx}: the error lists every legal move"
                    )
                }
                other => panic!("{ctx}: {rest} should be illegal, got {other:?}"),
            },
            "side" => assert_eq!(p.side().name(), rest, "{ctx}: side to move"),
            "status" => {
                let s = status(v, &p, &Budget::unlimited()).unwrap();
                let (got, reason) = match s {
                    Status::Ongoing => ("ongoing", None),
                    Status::Won { winner, reason } => match winner {
                        arbiter_rules::Color::White => ("white_wins", Some(reason)),
                        arbiter_rules::Color::Black => ("black_wins", Some(reason)),
                    },
                    Status::Drawn { reason } => ("draw", Some(reason)),
                };
                let mut want = rest.split_whitespace();
                assert_eq!(Some(got), want.next(), "{ctx}: status");
                if let Some(code) = want.next() {
                    assert_eq!(reason.map(|r| r.code()), Some(code), "{ctx}: reason");
                }
            }
            "judge" => {
                let (moves, want) = rest.split_once("=>").unwrap();
                let moves: Vec<&str> = moves.split_whitespace().collect();
                let j = judge(v, p, &moves, &Budget::unlimited()).expect("generation");
                let verdict = match j.verdict {
                    Verdict::WhiteWins => "white_wins",
                    Verdict::BlackWins => "black_wins",
                    Verdict::Draw => "draw",
                    Verdict::Undecided => "undecided",
                    Verdict::Invalid => "invalid",
                };
                let mut want = want.split_whitespace();
                assert_eq!(
                    Some(verdict),
                    want.next(),
                    "{ctx}: verdict of {moves:?} ({:?}, decided at {:?})",
                    j.reason,
                    j.decided_at_ply
                );
                if let Some(code) = want.next() {
                    assert_eq!(j.reason.map(|r| r.code()), Some(code), "{ctx}: reason");
                }
                if let Some(ply) = want.next() {
                    assert_eq!(
                        j.decided_at_ply,
                        Some(ply.parse().unwrap()),
                        "{ctx}: decided at ply"
                    );
                }
            }
            other => panic!("{ctx}: unknown directive {other}"),
        }
    }
}

#[test]
fn rule_cases_from_data_file() {
    let cases = cases();
    assert!(
        cases.len() >= 10,
        "the data file should hold the rule cases"
    );
    let mut failures = Vec::new();
    for case in &cases {
        if let Err(e) = std::panic::catch_unwind(|| run_case(case)) {
            let msg = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            failures.push(format!("{}:{}: {msg}", case.file, case.line));
        }
    }
    assert!(
        failures.is_empty(),
        "{} case(s) failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
