//! Adjudication on top of the rules (`arbiter_rules::adjudication::adjudicate`): the endgame
//! tables and the move limit, as match runners adjudicate unfinished games.
//!
//! Most tests probe with a stand-in closure whose answer they choose, so that they pin the
//! adjudication itself (who wins, at which ply, what the reason says, what is left alone);
//! `real_tables_*` probe the engine's own tables.

use std::cell::RefCell;

use arbiter_rules::adjudication::{
    adjudicate, check_declared, judge_pdn_game, no_tables, Adjudication, ReadOptions, PROBE_UNITS,
};
use arbiter_rules::notation::pdn::parse_pdn;
use arbiter_rules::tables::{Material, RuleValue, TableValue, Value};
use arbiter_rules::{
    read_record, variant, Budget, DrawClock, Judgement, Position, Reason, RecordOptions,
    RecordWarning, Variant, Verdict,
};

/// An English game that ends undecided in two white kings against one black king (KKvK),
/// White to move in the start position, Black to move after it.
/// A probe's answer where the value under the counting rules is the game-theoretic one.
fn same(answer: Result<Option<Value>, String>) -> Result<Option<TableValue>, String> {
    answer.map(|v| {
        v.map(|value| TableValue {
            value,
            rules: RuleValue {
                value,
                searched: false,
            },
            drawn_by: None,
        })
    })
}

const KKVK: &str = "W:WK18,K22:BK3";
const KKVK_MOVES: [&str; 5] = ["22-17", "3-7", "17-13", "7-3", "18-15"];

fn english() -> &'static Variant {
    variant("english").unwrap()
}

/// Reads `moves` from `fen` with the move limit of `adj` and adjudicates the judgement with a
/// probe answering `answer`; returns the judgement, the warnings and the positions probed.
fn judged(
    v: &'static Variant,
    fen: &str,
    moves: &[&str],
    adj: Adjudication,
    answer: Result<Option<Value>, String>,
) -> (Judgement, Vec<RecordWarning>, Vec<Position>) {
    let budget = Budget::unlimited();
    let options = RecordOptions {
        max_plies: adj.max_plies,
        ..RecordOptions::default()
    };
    let record = read_record(v, v.parse_fen(fen).unwrap(), moves, options, &budget).unwrap();
    let mut j = record.judgement;
    let probed = RefCell::new(Vec::new());
    let mut probe = |pv: &'static Variant, p: &Position, _: &DrawClock, _: &Budget| {
        assert_eq!(pv.id(), v.id());
        probed.borrow_mut().push(*p);
        same(answer.clone())
    };
    let warnings = adjudicate(v, &mut j, adj, &mut probe, &budget).unwrap();
    (j, warnings, probed.into_inner())
}

const TABLES: Adjudication = Adjudication {
    tables: true,
    max_plies: None,
};

fn limit(n: usize, tables: bool) -> Adjudication {
    Adjudication {
        tables,
        max_plies: Some(n),
    }
}

#[test]
fn without_adjudication_the_game_stays_undecided() {
    let (j, w, probed) = judged(
        english(),
        KKVK,
        &KKVK_MOVES,
        Adjudication::default(),
        Ok(Some(Value::Win(9))),
    );
    assert_eq!(j.verdict, Verdict::Undecided);
    assert_eq!(j.reason, None);
    assert_eq!(j.moves.len(), 5);
    assert!(w.is_empty() && probed.is_empty());
}

#[test]
fn tables_decide_an_undecided_game_for_the_side_to_move() {
    // Black is to move after 5 plies: a win for the side to move is a Black win.
    let (j, w, probed) = judged(
        english(),
        KKVK,
        &KKVK_MOVES,
        TABLES,
        Ok(Some(Value::Win(9))),
    );
    assert_eq!(probed, vec![j.final_position]);
    assert_eq!(j.verdict, Verdict::BlackWins);
    assert_eq!(j.decided_at_ply, Some(5));
    assert_eq!(j.moves_after_end, 0);
    assert!(w.is_empty());
    let Some(Reason::EndgameTables {
        material,
        plies,
        move_limit,
        ..
    }) = j.reason
    else {
        panic!("{:?}", j.reason)
    };
    assert_eq!(material.name(), "KKvK");
    assert_eq!(plies, Some(9));
    assert_eq!(move_limit, None);
    assert_eq!(j.reason.unwrap().code(), "ENDGAME_TABLES");

    // A loss for the side to move is a win for the other side; a draw is a draw.
    let (j, ..) = judged(
        english(),
        KKVK,
        &KKVK_MOVES,
        TABLES,
        Ok(Some(Value::Loss(8))),
    );
    assert_eq!(j.verdict, Verdict::WhiteWins);
    let (j, ..) = judged(english(), KKVK, &KKVK_MOVES, TABLES, Ok(Some(Value::Draw)));
    assert_eq!(j.verdict, Verdict::Draw);
    assert!(matches!(
        j.reason,
        Some(Reason::EndgameTables { plies: None, .. })
    ));
}

#[test]
fn a_position_outside_the_tables_stays_undecided() {
    let (j, w, probed) = judged(english(), KKVK, &KKVK_MOVES, TABLES, Ok(None));
    assert_eq!(probed.len(), 1);
    assert_eq!(j.verdict, Verdict::Undecided);
    assert_eq!((j.reason, j.decided_at_ply), (None, None));
    assert!(w.is_empty());
}

#[test]
fn the_move_limit_stops_the_game_and_the_tables_decide_there() {
    let (j, w, probed) = judged(
        english(),
        KKVK,
        &KKVK_MOVES,
        limit(3, true),
        Ok(Some(Value::Loss(6))),
    );
    // Plies 4 and 5 are not played: counted like moves after the end.
    assert_eq!(j.moves.len(), 3);
    assert_eq!(j.moves_after_end, 2);
    assert_eq!(probed, vec![j.final_position]);
    // Black is to move after 3 plies and loses.
    assert_eq!(j.verdict, Verdict::WhiteWins);
    assert_eq!(j.decided_at_ply, Some(3));
    assert_eq!(
        j.reason,
        Some(Reason::EndgameTables {
            material: Material::of(&j.final_position),
            plies: Some(6),
            move_limit: Some(3),
            drawn_by: None,
        })
    );
    assert!(w.is_empty());
}

#[test]
fn the_move_limit_draws_a_game_the_tables_cannot_decide() {
    for (adj, answer) in [
        (limit(4, true), Ok(None)),
        // Without the tables, the probe is not asked.
        (limit(4, false), Ok(Some(Value::Win(3)))),
    ] {
        let (j, w, probed) = judged(english(), KKVK, &KKVK_MOVES, adj, answer);
        assert_eq!(probed.len(), usize::from(adj.tables));
        assert_eq!(j.verdict, Verdict::Draw);
        assert_eq!(j.reason, Some(Reason::MoveLimit { limit: 4 }));
        assert_eq!(j.reason.unwrap().code(), "MOVE_LIMIT");
        assert_eq!(j.decided_at_ply, Some(4));
        assert_eq!((j.moves.len(), j.moves_after_end), (4, 1));
        assert!(w.is_empty());
    }
    // A game of exactly the limit is still running there: decided at the limit.
    let (j, ..) = judged(english(), KKVK, &KKVK_MOVES, limit(5, false), Ok(None));
    assert_eq!(j.reason, Some(Reason::MoveLimit { limit: 5 }));
    assert_eq!((j.moves.len(), j.moves_after_end), (5, 0));
    // A game shorter than the limit is not.
    let (j, ..) = judged(english(), KKVK, &KKVK_MOVES, limit(6, false), Ok(None));
    assert_eq!(j.verdict, Verdict::Undecided);
    assert_eq!(j.reason, None);
}

#[test]
fn a_game_the_rules_end_before_the_limit_is_untouched() {
    // White's king takes Black's last piece at ply 1: the rules end the game.
    let v = english();
    let fen = "W:WK18:B15";
    let (plain, ..) = judged(v, fen, &["18x11"], Adjudication::default(), Ok(None));
    assert_eq!(plain.verdict, Verdict::WhiteWins);
    assert_eq!(plain.reason.unwrap().code(), "NO_LEGAL_MOVES");
    let (j, w, probed) = judged(v, fen, &["18x11"], limit(1, true), Ok(Some(Value::Draw)));
    assert!(probed.is_empty() && w.is_empty());
    assert_eq!(j, plain);

    // International, two kings against one going back and forth: a draw rule (repetition,
    // the FMJD endgame count) draws before a limit of 12 plies; the tables are not asked
    // even if they would say a win.
    let v = variant("international").unwrap();
    let fen = "W:WK36,K45:BK5";
    let moves = [
        "36-31", "5-10", "31-36", "10-5", "36-31", "5-10", "31-36", "10-5", "36-31", "5-10",
        "31-36", "10-5",
    ];
    let (plain, ..) = judged(v, fen, &moves, Adjudication::default(), Ok(None));
    assert_eq!(plain.verdict, Verdict::Draw, "{plain:?}");
    assert!(matches!(plain.reason, Some(Reason::Draw(_))), "{plain:?}");
    assert!(plain.decided_at_ply.unwrap() < 12);
    let (j, _, probed) = judged(v, fen, &moves, limit(12, true), Ok(Some(Value::Win(1))));
    assert!(probed.is_empty());
    assert_eq!(j, plain);
}

#[test]
fn an_illegal_move_before_the_limit_is_invalid_and_after_it_is_not_judged() {
    let mut moves = KKVK_MOVES.to_vec();
    moves[3] = "7-20"; // not a move of the king on 7
    let (j, ..) = judged(
        english(),
        KKVK,
        &moves,
        limit(5, true),
        Ok(Some(Value::Draw)),
    );
    assert_eq!(j.verdict, Verdict::Invalid);
    assert_eq!(j.illegal.as_ref().unwrap().ply, 4);
    let (j, ..) = judged(
        english(),
        KKVK,
        &moves,
        limit(3, true),
        Ok(Some(Value::Draw)),
    );
    assert_eq!(j.verdict, Verdict::Draw);
    assert!(j.illegal.is_none());
    assert_eq!(j.moves_after_end, 2);
}

#[test]
fn real_tables_decide_a_game_whose_positions_hold_the_last_moves() {
    // BrainKing's Alquerque keeps each side's last move (the no-return rule): its tables
    // number the last moves too, and the adjudication probes the final position with them.
    let v = variant("alquerque-brainking").unwrap();
    let mut tables = arbiter_rules::tables::Tables::new(v).unwrap_or_else(|u| panic!("{u}"));
    tables
        .build(Material::parse("MvM").unwrap(), &mut |_| {})
        .unwrap();
    let fen = "W:Wc3:Be5";
    let moves = ["c3-d3", "e5-e4", "d3-d4"];
    let budget = Budget::unlimited();
    let options = RecordOptions {
        max_plies: Some(2),
        ..RecordOptions::default()
    };
    let record = read_record(v, v.parse_fen(fen).unwrap(), &moves, options, &budget).unwrap();
    let mut j = record.judgement;
    let end = j.final_position;
    assert!(end.last_move(arbiter_rules::Color::White).is_some());
    let value = tables.probe(&end).unwrap();
    let mut probe = |_: &'static Variant, p: &Position, c: &DrawClock, b: &Budget| {
        tables.probe_game(p, c, b).map_err(|e| e.to_string())
    };
    let w = adjudicate(v, &mut j, limit(2, true), &mut probe, &budget).unwrap();
    assert!(w.is_empty(), "{w:?}");
    assert_eq!(
        j.reason,
        Some(Reason::EndgameTables {
            material: Material::parse("MvM").unwrap(),
            plies: value.plies(),
            move_limit: Some(2),
            drawn_by: None,
        })
    );
}

#[test]
fn a_failed_probe_is_a_warning_and_the_game_is_judged_without_the_tables() {
    let (j, w, _) = judged(
        english(),
        KKVK,
        &KKVK_MOVES,
        limit(4, true),
        Err("the table could not be built".into()),
    );
    assert_eq!(j.reason, Some(Reason::MoveLimit { limit: 4 }));
    assert_eq!(w.len(), 1);
    assert_eq!(w[0].kind.code(), "tables-unavailable");
    assert!(
        w[0].detail.contains("could not be built"),
        "{}",
        w[0].detail
    );
    let (j, w, _) = judged(english(), KKVK, &KKVK_MOVES, TABLES, Err("x".into()));
    assert_eq!(j.verdict, Verdict::Undecided);
    assert_eq!(w.len(), 1);
}

#[test]
fn a_probe_is_charged_to_the_budget() {
    let v = english();
    let record = read_record(
        v,
        v.parse_fen(KKVK).unwrap(),
        &KKVK_MOVES,
        RecordOptions::default(),
        &Budget::unlimited(),
    )
    .unwrap();
    let mut j = record.judgement;
    let small = Budget::new(PROBE_UNITS - 1);
    let mut probe =
        |_: &'static Variant,
         _: &Position,
         _: &DrawClock,
         _: &Budget|
         -> Result<Option<TableValue>, String> { panic!("probed beyond the budget") };
    assert!(adjudicate(v, &mut j, TABLES, &mut probe, &small).is_err());
    let enough = Budget::new(PROBE_UNITS);
    assert!(adjudicate(v, &mut j, TABLES, &mut no_tables, &enough).is_ok());
    assert_eq!(enough.used(), PROBE_UNITS);
}

/// A PDN game of the KKvK ending, with a declared result.
fn pdn_game(result: &str) -> String {
    format!(
        "[GameType \"21\"]\n[FEN \"{KKVK}\"]\n[Result \"{result}\"]\n1... 22-17 2. 3-7 17-13 3. 7-3 \
         18-15 {result}\n"
    )
}

fn judge_pdn(
    text: &str,
    adj: Adjudication,
    answer: Option<Value>,
) -> arbiter_rules::adjudication::GameReport {
    let games = parse_pdn(text);
    let options = ReadOptions {
        adjudication: adj,
        ..ReadOptions::default()
    };
    let mut probe = |_: &'static Variant, _: &Position, _: &DrawClock, _: &Budget| same(Ok(answer));
    judge_pdn_game(
        &games[0],
        None,
        1000,
        options,
        &mut probe,
        &Budget::unlimited(),
    )
    .unwrap()
}

#[test]
fn declared_results_are_checked_against_the_adjudicated_verdict() {
    // English results put the first mover's (Black's) score first: 0-1 is a White win.
    let r = judge_pdn(&pdn_game("0-1"), TABLES, Some(Value::Loss(7)));
    assert_eq!(r.judgement.verdict, Verdict::WhiteWins);
    assert_eq!(
        r.agreement.agrees,
        Some(true),
        "{}",
        r.agreement.explanation
    );
    assert!(
        r.agreement.explanation.contains("endgame tables")
            && r.agreement.explanation.contains("KKvK")
            && r.agreement.explanation.contains("7 plies"),
        "{}",
        r.agreement.explanation
    );
    let r = judge_pdn(&pdn_game("1-0"), TABLES, Some(Value::Loss(7)));
    assert_eq!(
        r.agreement.agrees,
        Some(false),
        "{}",
        r.agreement.explanation
    );
    // Without adjudication the moves cannot confirm the result.
    let r = judge_pdn(
        &pdn_game("0-1"),
        Adjudication::default(),
        Some(Value::Loss(7)),
    );
    assert_eq!(r.judgement.verdict, Verdict::Undecided);
    assert_eq!(r.agreement.agrees, None);
    // A move-limit draw confirms a declared draw and refutes a win.
    let r = judge_pdn(&pdn_game("1/2-1/2"), limit(4, false), None);
    assert_eq!(r.judgement.reason, Some(Reason::MoveLimit { limit: 4 }));
    assert_eq!(
        r.agreement.agrees,
        Some(true),
        "{}",
        r.agreement.explanation
    );
    assert!(r.agreement.explanation.contains("move limit of 4 plies"));
    let r = judge_pdn(&pdn_game("1-0"), limit(4, false), None);
    assert_eq!(r.agreement.agrees, Some(false));
    assert_eq!(r.judgement.moves_after_end, 1);
    // check_declared on its own, the same verdicts.
    let agreement = check_declared(english(), &r.judgement, Some("1/2-1/2"));
    assert_eq!(agreement.agrees, Some(true));
}

#[test]
fn the_canonical_pdn_says_how_the_game_was_adjudicated() {
    let r = judge_pdn(&pdn_game("*"), limit(3, true), Some(Value::Win(4)));
    let result = arbiter_rules::adjudication::result_for_pdn(
        r.variant,
        &r.judgement,
        r.declared.as_deref(),
        r.convention,
    );
    let text = arbiter_rules::adjudication::write_pdn(&arbiter_rules::adjudication::PdnOut {
        variant: r.variant,
        tags: &[],
        start: &r.start,
        counters: r.counters,
        judgement: &r.judgement,
        warnings: &r.warnings,
        result: &result,
    });
    assert!(
        text.contains("{adjudicated after ply 3: ENDGAME_TABLES (KKvK, 4 plies to the end)}"),
        "{text}"
    );
    assert!(
        text.contains("after the move limit, are not judged"),
        "{text}"
    );
    // Black to move after 3 plies wins: 1-0 in the first mover's convention.
    assert!(text.contains("[Result \"1-0\"]"), "{text}");
}

#[test]
fn real_tables_decide_two_kings_against_one() {
    let v = english();
    let mut tables = arbiter_rules::tables::Tables::new(v).unwrap_or_else(|u| panic!("{u}"));
    let kkvk = Material::parse("KKvK").unwrap();
    tables.build(kkvk, &mut |_| {}).unwrap();
    let budget = Budget::unlimited();
    let options = RecordOptions {
        max_plies: Some(4),
        ..RecordOptions::default()
    };
    for (options, side_to_move_loses) in [(RecordOptions::default(), true), (options, false)] {
        let record =
            read_record(v, v.parse_fen(KKVK).unwrap(), &KKVK_MOVES, options, &budget).unwrap();
        let mut j = record.judgement;
        let adj = Adjudication {
            tables: true,
            max_plies: options.max_plies,
        };
        let mut probe = |_: &'static Variant, p: &Position, c: &DrawClock, b: &Budget| {
            tables.probe_game(p, c, b).map_err(|e| e.to_string())
        };
        let w = adjudicate(v, &mut j, adj, &mut probe, &budget).unwrap();
        assert!(w.is_empty());
        let value = tables.probe(&j.final_position).unwrap();
        // Two kings beat one on the English board: after ply 5 Black, to move, loses; after
        // ply 4 White, to move, wins.
        if side_to_move_loses {
            assert!(matches!(value, Value::Loss(n) if n > 0), "{value:?}");
        } else {
            assert!(matches!(value, Value::Win(n) if n > 0), "{value:?}");
        }
        assert_eq!(j.verdict, Verdict::WhiteWins);
        assert_eq!(
            j.reason,
            Some(Reason::EndgameTables {
                material: kkvk,
                plies: value.plies(),
                move_limit: options.max_plies,
                drawn_by: None,
            })
        );
    }
}

/// The PDN 3.0 grammar names squares a1 to h8 and knows men and kings only: the moves and FEN
/// of Camelot (squares up to l16, knights) are no deviation a record could mend, so they are
/// read without grammar warnings; a malformed move of an 8×8 game still is one.
#[test]
fn records_beyond_the_grammar_are_read_without_grammar_warnings() {
    let codes = |text: &str| -> Vec<&'static str> {
        judge_pdn(text, Adjudication::default(), None)
            .warnings
            .iter()
            .map(|w| w.kind.code())
            .collect()
    };
    let camelot = "[Variant \"camelot\"]\n[FEN \"W:WNf14,g14,a4:Ba13,b13\"]\n1. f14-f15 a13-a12 \
                   2. f15-f16 a12-a11 3. g14-g15 a11-a10 4. g15-g16 1-0\n";
    let report = judge_pdn(camelot, Adjudication::default(), None);
    assert_eq!(report.judgement.verdict, Verdict::WhiteWins);
    assert_eq!(codes(camelot), Vec::<&str>::new());
    let turkish = "[Variant \"turkish\"]\n1. d3-d4 d6-d5 2. e3-i4 *\n";
    assert_eq!(codes(turkish), ["malformed-move"]);
}
