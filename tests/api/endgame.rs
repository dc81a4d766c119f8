//! `GET /v1/variants/{variant}/endgame`, the table store behind it, and `arbiter tables`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use arbiter::config::{Config, TablesConfig};
use serde_json::Value;

use crate::helpers::{ok_json, problem, spawn_app, spawn_app_with, TestApp};

/// Two white kings against a black king in English checkers, Black to move: lost for Black.
const KKVK_BLACK: &str = "B:WK14,K18:BK5";
/// The same with White to move: won for White.
const KKVK_WHITE: &str = "W:WK14,K18:BK5";
/// One king each in the middle of the board.
const KVK: &str = "W:WK14:BK19";

async fn endgame(app: &TestApp, variant: &str, fen: &str) -> reqwest::Response {
    endgame_query(app, variant, &[("position", fen)]).await
}

/// `/endgame` asked once, whatever the answer.
async fn endgame_once(app: &TestApp, variant: &str, fen: &str) -> reqwest::Response {
    app.client
        .get(app.url(&format!("/v1/variants/{variant}/endgame")))
        .query(&[("position", fen)])
        .send()
        .await
        .expect("request sent")
}

/// `/endgame` with `query`, asked again while its tables are being computed (503
/// `endgame-building`, or the request timeout of a slow machine) for up to two minutes.
async fn endgame_query(app: &TestApp, variant: &str, query: &[(&str, &str)]) -> reqwest::Response {
    for _ in 0..120 {
        let res = app
            .client
            .get(app.url(&format!("/v1/variants/{variant}/endgame")))
            .query(query)
            .send()
            .await
            .expect("request sent");
        if res.status() != 503 {
            return res;
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    panic!("{variant} {query:?}: the tables were not ready within two minutes");
}

/// The value of a move for its mover, from the value `(category, plies)` of the position it
/// leads to for the opponent: a loss there in n plies is a win in n + 1 here.
fn mover_value(m: &Value) -> (String, Option<u64>) {
    let plies = m["plies"].as_u64().map(|n| n + 1);
    let category = match m["category"].as_str().unwrap() {
        "loss" => "win",
        "win" => "loss",
        "draw" => "draw",
        other => panic!("category {other}"),
    };
    (category.to_string(), plies)
}

/// Orders mover values best first: fastest win, draw, slowest loss.
fn rank(v: &(String, Option<u64>)) -> (u8, i64) {
    match (v.0.as_str(), v.1) {
        ("win", Some(n)) => (0, n as i64),
        ("draw", None) => (1, 0),
        ("loss", Some(n)) => (2, -(n as i64)),
        other => panic!("value {other:?}"),
    }
}

/// The value under the counting rules of a move for its mover.
fn mover_rules(m: &Value) -> (String, Option<u64>) {
    mover_value(&m["rules"])
}

/// Checks an answer against itself: the moves are every legal move of `/moves`, sorted best
/// first for the mover under the counting rules, the position's value under the rules is the
/// best move's, and with counts that cannot bind (a fresh count) its game-theoretic value is
/// the best move's, one ply longer.
async fn check_consistent(app: &TestApp, variant: &str, body: &Value) {
    let fen = body["position"].as_str().unwrap();
    let listed = ok_json(
        app.client
            .get(app.url(&format!("/v1/variants/{variant}/moves")))
            .query(&[("position", fen)])
            .send()
            .await
            .unwrap(),
    )
    .await;
    let mut names: Vec<&str> = listed["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["notation"].as_str().unwrap())
        .collect();
    let moves = body["moves"].as_array().unwrap();
    let mut got: Vec<&str> = moves.iter().map(|m| m["move"].as_str().unwrap()).collect();
    names.sort_unstable();
    got.sort_unstable();
    assert_eq!(got, names, "{body}");
    assert_eq!(body["no_legal_moves"], moves.is_empty(), "{body}");
    let rules: Vec<_> = moves.iter().map(mover_rules).collect();
    let ranks: Vec<_> = rules.iter().map(rank).collect();
    assert!(
        ranks.windows(2).all(|w| w[0] <= w[1]),
        "not best first under the rules: {body}"
    );
    if let Some(best) = rules.first() {
        assert_eq!(
            body["rules"]["category"], best.0,
            "the value under the rules is the best move's: {body}"
        );
    }
    let values: Vec<_> = moves.iter().map(mover_value).collect();
    let own = (
        body["category"].as_str().unwrap().to_string(),
        body["plies"].as_u64(),
    );
    match values.iter().min_by_key(|v| rank(v)) {
        Some(best) => assert_eq!(&own, best, "the value is the best move's: {body}"),
        None => assert_eq!(own.1, Some(0), "no move: the game is over: {body}"),
    }
    // Each move's resulting position answers with the value the move gave it.
    for m in moves.iter().take(3) {
        let after =
            ok_json(endgame(app, variant, m["resulting_position"].as_str().unwrap()).await).await;
        assert_eq!(after["category"], m["category"], "{m} {after}");
        assert_eq!(after["plies"], m["plies"], "{m} {after}");
    }
}

/// `/endgame` with counts: `counts` as `CODE:PLIES` pairs.
async fn endgame_counts(
    app: &TestApp,
    variant: &str,
    fen: &str,
    counts: &str,
) -> reqwest::Response {
    endgame_query(app, variant, &[("position", fen), ("counts", counts)]).await
}

#[tokio::test]
async fn counts_turn_a_win_into_a_draw_and_name_the_rule() {
    let app = spawn_app().await;
    // Frisian, two kings against one: drawn after seven moves each (14 plies). This win
    // takes 15 plies, but the lone king must capture at its seventh move, so it holds.
    let fresh = ok_json(endgame(&app, "frisian", "W:WK42,K4:BK5").await).await;
    assert_eq!(fresh["category"], "win", "{fresh}");
    assert_eq!(fresh["plies"], 15, "{fresh}");
    assert_eq!(fresh["rules"]["category"], "win", "{fresh}");
    assert_eq!(fresh["rules"]["differs"], Value::Null, "{fresh}");
    assert_eq!(
        fresh["counts"],
        serde_json::json!([{"rule": "FRISIAN_2V1_7", "count": 0, "limit": 14}])
    );
    check_consistent(&app, "frisian", &fresh).await;
    // One ply of the count spent: the win does not fit any more.
    let late =
        ok_json(endgame_counts(&app, "frisian", "W:WK42,K4:BK5", "FRISIAN_2V1_7:1").await).await;
    assert_eq!(late["category"], "win", "{late}");
    assert_eq!(late["rules"]["category"], "draw", "{late}");
    assert_eq!(late["rules"]["differs"], "cursed-win", "{late}");
    assert_eq!(late["rules"]["drawn_by"], "FRISIAN_2V1_7", "{late}");
    // No move wins for White any more (a loss for Black after it): the moves that kept the
    // game-theoretic win now draw.
    let moves = late["moves"].as_array().unwrap();
    assert!(
        moves.iter().all(|m| m["rules"]["category"] != "loss"),
        "{late}"
    );
    assert!(
        moves
            .iter()
            .any(|m| m["category"] == "loss" && m["rules"]["category"] == "draw"),
        "{late}"
    );
    // The loser's side of it: after a move that keeps White's win, Black to move loses under
    // best play; with the count near its end, the loss is a draw (a blessed loss).
    let keeps = fresh["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["category"] == "loss" && m["plies"].as_u64().is_some_and(|n| n > 2))
        .unwrap_or_else(|| panic!("a winning move with a long win: {fresh}"));
    let after = keeps["resulting_position"].as_str().unwrap();
    let black = ok_json(endgame_counts(&app, "frisian", after, "FRISIAN_2V1_7:12").await).await;
    assert_eq!(black["category"], "loss", "{black}");
    assert_eq!(black["rules"]["category"], "draw", "{black}");
    assert_eq!(black["rules"]["differs"], "blessed-loss", "{black}");
    assert_eq!(black["rules"]["drawn_by"], "FRISIAN_2V1_7", "{black}");
}

#[tokio::test]
async fn the_half_move_clock_counts_and_other_counts_are_searched() {
    let app = spawn_app().await;
    // International, two kings and a man against a king: the 25-move count (from the FEN's
    // H) nearer its limit than the 16-move ending's, where a man move would restart it: the
    // tables do not hold such counts, and search.
    let body = ok_json(endgame(&app, "international", "W:WK46,K47,37:BK5:H46").await).await;
    let counts: Vec<&str> = body["counts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["rule"].as_str().unwrap())
        .collect();
    assert_eq!(counts, ["KINGS_25", "ENDGAME_16"], "{body}");
    assert_eq!(body["counts"][0]["count"], 46, "{body}");
    assert_eq!(body["rules"]["searched"], true, "{body}");
    let fresh = ok_json(endgame(&app, "international", "W:WK46,K47,37:BK5").await).await;
    assert_eq!(fresh["rules"]["searched"], false, "{fresh}");
    // Without men, every count runs to its end together: the tables hold any counts.
    let kings = ok_json(endgame(&app, "international", "W:WK46,K47,K37:BK5:H46").await).await;
    assert_eq!(kings["rules"]["searched"], false, "{kings}");
}

#[tokio::test]
async fn bad_counts_are_problems_that_say_why() {
    let app = spawn_app().await;
    for (variant, fen, counts, says) in [
        (
            "frisian",
            "W:WK42,K4:BK5",
            "KINGS_25:3",
            "no such counted draw rule",
        ),
        (
            "frisian",
            "W:WK42,K4:BK5",
            "REPETITION:2",
            "counted from the positions",
        ),
        (
            "frisian",
            "W:WK42,K4,28:BK5",
            "FRISIAN_2V1_7:2",
            "does not hold",
        ),
        ("frisian", "W:WK42,K4:BK5", "FRISIAN_2V1_7", "CODE:PLIES"),
        (
            "frisian",
            "W:WK42,K4:BK5",
            "FRISIAN_2V1_7:x",
            "whole number",
        ),
        (
            "frisian",
            "W:WK42,K4:BK5",
            "FRISIAN_2V1_7:1,FRISIAN_2V1_7:2",
            "twice",
        ),
        (
            "international",
            "W:WK46,K47:BK5:H4",
            "KINGS_25:3",
            "half-move clock",
        ),
    ] {
        let body = problem(
            endgame_counts(&app, variant, fen, counts).await,
            400,
            "invalid-query",
        )
        .await;
        let detail = body["detail"].as_str().unwrap();
        assert!(detail.contains(says), "{counts}: {detail}");
    }
}

#[tokio::test]
async fn the_tables_a_replica_has_are_listed() {
    let app = spawn_app().await;
    let english = ok_json(app.get("/v1/variants/english/endgame/tables").await).await;
    assert_eq!(english["supported"], true, "{english}");
    assert_eq!(english["builtin_pieces"], 4, "{english}");
    let builtin: Vec<&str> = english["builtin"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert!(
        builtin.contains(&"KKvK") && builtin.contains(&"KMvKM"),
        "{english}"
    );
    assert!(!builtin.iter().any(|m| m.len() > 5), "{english}");
    // Frisian's four-piece tables with men and kings on both sides are too large to compute
    // on first use.
    let frisian = ok_json(app.get("/v1/variants/frisian/endgame/tables").await).await;
    let fb: Vec<&str> = frisian["builtin"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert!(fb.contains(&"KKvK") && !fb.contains(&"KMvKM"), "{frisian}");
    // A drop game is solved whole: its materials count the stones in hand, up to the five
    // a side starts with in Hageby, whatever the built-in number of pieces.
    let drops = ok_json(app.get("/v1/variants/hageby/endgame/tables").await).await;
    assert_eq!(drops["supported"], true, "{drops}");
    let db: Vec<&str> = drops["builtin"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert!(
        db.contains(&"MMMMMvMMMMM") && db.contains(&"MvM"),
        "{drops}"
    );
    problem(
        app.get("/v1/variants/chess/endgame/tables").await,
        404,
        "unknown-variant",
    )
    .await;
}

#[tokio::test]
async fn two_kings_beat_one_in_english() {
    let app = spawn_app().await;
    let lost = ok_json(endgame(&app, "english", KKVK_BLACK).await).await;
    assert_eq!(lost["variant"], "english");
    assert_eq!(lost["material"], "KKvK");
    assert_eq!(lost["side_to_move"], "black");
    assert_eq!(lost["category"], "loss", "{lost}");
    let plies = lost["plies"].as_u64().expect("plies of a loss");
    assert!(plies > 0, "{lost}");
    // Every move of the lone king loses: the opponent wins after each.
    let moves = lost["moves"].as_array().unwrap();
    assert!(!moves.is_empty());
    assert!(moves.iter().all(|m| m["category"] == "win"), "{lost}");
    check_consistent(&app, "english", &lost).await;

    let won = ok_json(endgame(&app, "english", KKVK_WHITE).await).await;
    assert_eq!(won["category"], "win", "{won}");
    assert_eq!(won["side_to_move"], "white");
    check_consistent(&app, "english", &won).await;
    // The winning move leaves a position lost in one ply fewer.
    let best = &won["moves"][0];
    assert_eq!(best["category"], "loss", "{won}");
    assert_eq!(
        best["plies"].as_u64().unwrap() + 1,
        won["plies"].as_u64().unwrap()
    );
}

#[tokio::test]
async fn a_king_each_is_a_draw() {
    let app = spawn_app().await;
    let body = ok_json(endgame(&app, "english", KVK).await).await;
    assert_eq!(body["material"], "KvK");
    assert_eq!(body["category"], "draw", "{body}");
    assert!(body["plies"].is_null(), "{body}");
    check_consistent(&app, "english", &body).await;
}

#[tokio::test]
async fn international_and_russian_small_endings() {
    let app = spawn_app().await;
    for (variant, fen) in [
        ("international", "W:WK46,K28:BK5"),
        ("russian", "W:WKc3,Ke1:BKh8"),
        ("english", "W:W18:BK1"),
    ] {
        let body = ok_json(endgame(&app, variant, fen).await).await;
        check_consistent(&app, variant, &body).await;
    }
}

#[tokio::test]
async fn a_position_without_moves_is_over() {
    let app = spawn_app().await;
    // A black king in the corner behind white men it cannot jump: Black cannot move.
    let body = ok_json(endgame(&app, "english", "B:W5,6,10:BK1").await).await;
    assert_eq!(body["no_legal_moves"], true, "{body}");
    assert_eq!(body["category"], "loss", "{body}");
    assert_eq!(body["plies"], 0, "{body}");
    assert_eq!(body["moves"], Value::Array(vec![]));
}

#[tokio::test]
async fn more_pieces_than_the_tables_is_a_problem_naming_them() {
    let app = spawn_app().await;
    let res = endgame(&app, "english", "W:W21-32:B1-12").await;
    let body = problem(res, 404, "endgame-not-in-tables").await;
    assert_eq!(body["material"], "MMMMMMMMMMMMvMMMMMMMMMMMM", "{body}");
    assert_eq!(body["tables"]["builtin_pieces"], 4, "{body}");
    assert_eq!(body["tables"]["prebuilt"], Value::Array(vec![]), "{body}");
}

/// An app on one worker with these table settings.
async fn app_with_tables(tables: TablesConfig) -> TestApp {
    spawn_app_with(Config {
        workers: Some(1),
        tables,
        ..Config::new("127.0.0.1:0")
    })
    .await
}

#[tokio::test]
async fn no_built_in_tables_when_disabled() {
    let app = app_with_tables(TablesConfig {
        builtin_pieces: 0,
        ..TablesConfig::default()
    })
    .await;
    let body = problem(
        endgame(&app, "english", KKVK_BLACK).await,
        404,
        "endgame-not-in-tables",
    )
    .await;
    assert_eq!(body["tables"]["builtin_pieces"], 0, "{body}");
    assert_eq!(body["material"], "KKvK");
}

/// A table too large to compute on first use (Frisian KMvKM: 162 million positions with the
/// king runs, about 2.6 GiB to solve) is not built: the position is outside this replica's
/// tables, and the problem says where the bound is.
#[tokio::test]
async fn a_table_too_large_for_first_use_is_not_built() {
    let app = app_with_tables(TablesConfig::default()).await;
    let body = problem(
        endgame(&app, "frisian", "W:WK46,31:BK5,20").await,
        404,
        "endgame-not-in-tables",
    )
    .await;
    assert_eq!(body["material"], "KMvKM", "{body}");
    assert_eq!(
        body["tables"]["builtin_max_positions"], 50_000_000,
        "{body}"
    );
    assert!(
        body["detail"]
            .as_str()
            .is_some_and(|d| d.contains("at most 50000000 positions")),
        "{body}"
    );
}

#[tokio::test]
async fn a_table_being_built_is_503_with_retry_after() {
    let app = app_with_tables(TablesConfig {
        build_wait: Duration::ZERO,
        ..TablesConfig::default()
    })
    .await;
    let res = endgame_once(&app, "english", KKVK_BLACK).await;
    assert!(res.headers().contains_key("retry-after"));
    let body = problem(res, 503, "endgame-building").await;
    assert_eq!(body["material"], "KKvK", "{body}");
    // The build goes on without the request: the table is served once it is done.
    for _ in 0..600 {
        let res = endgame_once(&app, "english", KKVK_BLACK).await;
        if res.status() == 200 {
            let body: Value = res.json().await.unwrap();
            assert_eq!(body["category"], "loss");
            return;
        }
        problem(res, 503, "endgame-building").await;
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the table was not built within a minute");
}

/// A small position of a variant from its start position: its first piece of each side
/// (the drop games: the start position itself, which their tables hold).
fn small_position(start: &str) -> String {
    let fields: Vec<&str> = start.split(':').collect();
    fields
        .iter()
        .map(|f| match f.chars().next() {
            Some(c @ ('W' | 'B')) if f.len() > 1 => {
                format!("{c}{}", f[1..].split(',').next().unwrap())
            }
            _ => f.to_string(),
        })
        .collect::<Vec<_>>()
        .join(":")
}

#[tokio::test]
async fn every_variant_answers_a_position() {
    let app = spawn_app().await;
    let catalogue = ok_json(app.get("/v1/variants").await).await;
    let list = catalogue
        .as_array()
        .or_else(|| catalogue["variants"].as_array())
        .expect("the catalogue is a list");
    let mut solved = 0;
    for v in list {
        let id = v["id"].as_str().unwrap();
        let start = v["start_position"].as_str().unwrap();
        // The whole game of a drop game is built on first use; a request may time out
        // while it is built, and the build goes on.
        let fen = small_position(start);
        let mut body = None;
        for _ in 0..300 {
            let res = endgame(&app, id, &fen).await;
            if res.status() == 503 {
                tokio::time::sleep(Duration::from_millis(200)).await;
                continue;
            }
            assert_eq!(res.status(), 200, "{id} {fen}");
            body = Some(res.json::<Value>().await.unwrap());
            break;
        }
        let body = body.unwrap_or_else(|| panic!("{id}: no answer"));
        assert!(body["category"].is_string(), "{id}: {body}");
        // A game solved whole: its start position's value is the one the catalogue gives.
        if v["solved"].is_object() {
            assert_eq!(fen, start);
            assert_eq!(body["category"], v["solved"]["category"], "{id}");
            assert_eq!(body["plies"], v["solved"]["plies"], "{id}");
            solved += 1;
        }
    }
    assert_eq!(list.len(), 38);
    assert_eq!(solved, 4);
}

#[tokio::test]
async fn bad_requests_are_problems() {
    let app = spawn_app().await;
    problem(
        app.get("/v1/variants/english/endgame").await,
        400,
        "invalid-query",
    )
    .await;
    problem(
        app.get("/v1/variants/english/endgame?position=B:WK14,K18:BK5&depth=3")
            .await,
        400,
        "invalid-query",
    )
    .await;
    let body = problem(
        endgame(&app, "english", "B:WK99:BK5").await,
        400,
        "invalid-position",
    )
    .await;
    assert_eq!(body["field"], "position");
    problem(
        endgame(&app, "chess", KKVK_BLACK).await,
        404,
        "unknown-variant",
    )
    .await;
    let res = app
        .client
        .post(app.url("/v1/variants/english/endgame"))
        .send()
        .await
        .unwrap();
    problem(res, 405, "method-not-allowed").await;
}

fn arbiter(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .output()
        .expect("run arbiter")
}

/// A fresh directory under the system's temporary directory.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Builds the English tables of up to 3 pieces into `dir` with the command line, checking
/// what it prints; returns the JSON summary.
fn build_english_3(dir: &Path) -> Value {
    let out = arbiter(&[
        "tables",
        "build",
        "--variant",
        "english",
        "--pieces",
        "3",
        "--out",
        dir.to_str().unwrap(),
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(summary["variant"], "english");
    assert_eq!(summary["pieces"], 3);
    summary
}

#[test]
fn the_command_line_builds_a_file_per_material() {
    let dir = temp_dir("tables-cli");
    let summary = build_english_3(&dir);
    let tables = summary["tables"].as_array().unwrap();
    let names: Vec<&str> = tables
        .iter()
        .map(|t| t["material"].as_str().unwrap())
        .collect();
    // Every material of 2 and 3 pieces with a piece a side: kings and men (men of both
    // colours on the board).
    for m in ["KvK", "KvM", "MvK", "MvM", "KKvK", "KvKK", "KMvK", "MMvM"] {
        assert!(names.contains(&m), "{m} in {names:?}");
    }
    let mut total = 0;
    for t in tables {
        let file = dir.join(format!("english-{}.arbtb", t["material"].as_str().unwrap()));
        let size = std::fs::metadata(&file).expect("the table file").len();
        assert_eq!(t["file_bytes"], size, "{t}");
        let p = t["positions"].as_u64().unwrap();
        assert!(p > 0, "{t}");
        assert_eq!(
            t["wins"].as_u64().unwrap()
                + t["draws"].as_u64().unwrap()
                + t["losses"].as_u64().unwrap(),
            p,
            "{t}"
        );
        total += p;
    }
    assert_eq!(summary["total"]["positions"], total);
    assert_eq!(summary["total"]["tables"], tables.len());
    // `tables info` reads a file back and says the same.
    let kkvk = dir.join("english-KKvK.arbtb");
    let out = arbiter(&["tables", "info", kkvk.to_str().unwrap(), "--json"]);
    assert!(out.status.success());
    let info: Value = serde_json::from_slice(&out.stdout).unwrap();
    let built = tables.iter().find(|t| t["material"] == "KKvK").unwrap();
    for key in [
        "positions",
        "wins",
        "draws",
        "losses",
        "longest_win_plies",
        "file_bytes",
    ] {
        assert_eq!(info[key], built[key], "{key}");
    }
    // The lines for people.
    let out = arbiter(&[
        "tables",
        "build",
        "--variant",
        "english",
        "--pieces",
        "2",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.lines()
            .any(|l| l.starts_with("KvK: ") && l.contains(" positions, ")),
        "{text}"
    );
    assert!(
        text.lines().last().unwrap().starts_with("total: "),
        "{text}"
    );
    // A file that is not a table is refused.
    let out = arbiter(&["tables", "info", "Cargo.toml"]);
    assert!(!out.status.success());
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn prebuilt_tables_are_served_and_corrupt_files_refused() {
    let dir = temp_dir("tables-dir");
    build_english_3(&dir);
    // Corrupt one file: its last byte (inside the values, under the checksum).
    let kmvk = dir.join("english-KMvK.arbtb");
    let mut data = std::fs::read(&kmvk).unwrap();
    let last = data.len() - 1;
    data[last] ^= 0xff;
    std::fs::write(&kmvk, data).unwrap();
    // A file of another variant's rules under this variant's name is refused as well.
    std::fs::copy(dir.join("english-KvK.arbtb"), dir.join("russian-KvK.arbtb")).unwrap();
    let app = app_with_tables(TablesConfig {
        dir: Some(dir.clone()),
        builtin_pieces: 0,
        ..TablesConfig::default()
    })
    .await;
    // Served from the files, with nothing computed here.
    let body = ok_json(endgame(&app, "english", KKVK_BLACK).await).await;
    assert_eq!(body["category"], "loss");
    check_consistent(&app, "english", &body).await;
    // The corrupt file was skipped: its material is not in the tables.
    let res = endgame(&app, "english", "W:WK14,6:BK1").await;
    let body = problem(res, 404, "endgame-not-in-tables").await;
    assert_eq!(body["material"], "KMvK", "{body}");
    let prebuilt = body["tables"]["prebuilt"].as_array().unwrap();
    assert!(prebuilt.contains(&Value::from("KKvK")), "{body}");
    assert!(!prebuilt.contains(&Value::from("KMvK")), "{body}");
    problem(
        endgame(&app, "russian", "W:WKc3:BKh8").await,
        404,
        "endgame-not-in-tables",
    )
    .await;
    // The metrics count the tables loaded and built.
    let metrics = app.get("/metrics").await.text().await.unwrap();
    let loaded = std::fs::read_dir(&dir).unwrap().count() - 2;
    assert!(
        metrics.contains(&format!(
            "arbiter_endgame_tables{{source=\"file\"}} {loaded}"
        )),
        "{metrics}"
    );
    assert!(
        metrics.contains("arbiter_endgame_tables{source=\"built\"} 0"),
        "{metrics}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn a_missing_tables_directory_stops_the_server() {
    let config = Config {
        tables: TablesConfig {
            dir: Some(std::env::temp_dir().join("arbiter-no-such-tables-dir")),
            ..TablesConfig::default()
        },
        ..Config::new("127.0.0.1:0")
    };
    let err = arbiter::build(&config).err().expect("refused");
    assert!(err.to_string().contains("tables directory"), "{err}");
}

/// The memory a replica reserves for a first-use build of `material` from nothing.
fn scratch(variant: &str, material: &str) -> u64 {
    let v = arbiter_rules::variant(variant).unwrap();
    let m = arbiter_rules::tables::Material::parse(material).unwrap();
    arbiter::tables::first_use_memory(v, &m).unwrap()
}

#[tokio::test]
async fn the_cache_drops_the_variant_used_least_recently() {
    // A budget that holds either variant's build, not one variant's tables beside the other's
    // build: the second build drops the first variant's tables.
    let (english, russian) = (scratch("english", "KKvK"), scratch("russian", "KKvK"));
    let app = app_with_tables(TablesConfig {
        memory_bytes: english.max(russian),
        ..TablesConfig::default()
    })
    .await;
    let (first, first_fen, second, second_fen) = if english <= russian {
        ("english", KKVK_BLACK, "russian", "W:WKc3,Ke1:BKh8")
    } else {
        ("russian", "W:WKc3,Ke1:BKh8", "english", KKVK_BLACK)
    };
    let answer = ok_json(endgame(&app, first, first_fen).await).await;
    let metric = |text: &str, name: &str| -> u64 {
        text.lines()
            .find_map(|l| l.strip_prefix(name)?.trim().parse().ok())
            .unwrap_or_else(|| panic!("{name} in {text}"))
    };
    let metrics = app.get("/metrics").await.text().await.unwrap();
    assert_eq!(metric(&metrics, "arbiter_endgame_evictions_total"), 0);
    let built = metric(&metrics, "arbiter_endgame_tables{source=\"built\"}");
    assert!(built > 0, "{metrics}");
    ok_json(endgame(&app, second, second_fen).await).await;
    let metrics = app.get("/metrics").await.text().await.unwrap();
    assert_eq!(metric(&metrics, "arbiter_endgame_evictions_total"), 1);
    // The first is computed again when asked for again, and answers the same.
    let again = ok_json(endgame(&app, first, first_fen).await).await;
    assert_eq!(again["category"], answer["category"]);
    let metrics = app.get("/metrics").await.text().await.unwrap();
    assert!(metric(&metrics, "arbiter_endgame_evictions_total") >= 1);
    assert!(metric(&metrics, "arbiter_endgame_tables_built_total") > built);
}

/// A material whose first-use build alone would pass the memory budget is never built: its
/// positions are outside this replica's tables, the problem names the budget, and the tables
/// list leaves it out; smaller materials of the same variant are still computed.
#[tokio::test]
async fn a_build_past_the_memory_budget_is_refused() {
    let budget = scratch("english", "KKvK");
    assert!(scratch("english", "KMvKM") > budget);
    let app = app_with_tables(TablesConfig {
        memory_bytes: budget,
        ..TablesConfig::default()
    })
    .await;
    let body = problem(
        endgame(&app, "english", "W:W19,K30:BK3,10").await,
        404,
        "endgame-not-in-tables",
    )
    .await;
    assert_eq!(body["material"], "KMvKM", "{body}");
    assert_eq!(body["tables"]["builtin_memory_bytes"], budget, "{body}");
    let detail = body["detail"].as_str().unwrap();
    assert!(detail.contains("MiB"), "{detail}");
    let list = ok_json(app.get("/v1/variants/english/endgame/tables").await).await;
    let builtin: Vec<&str> = list["builtin"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert!(
        builtin.contains(&"KKvK") && !builtin.contains(&"KMvKM"),
        "{list}"
    );
    ok_json(endgame(&app, "english", KKVK_BLACK).await).await;
}
