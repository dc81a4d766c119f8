//! Adjudication of unfinished games by the endgame tables and a move limit: `adjudicate` and
//! `max_plies` on `/v1/variants/{variant}/judge`, `/v1/judge/pdn` (JSON and NDJSON answers)
//! and `arbiter judge`.

use std::process::Command;

use arbiter_rules::tables::{Material, Tables, Value as TableValue};
use arbiter_rules::{variant, Position};
use serde_json::{json, Value};

use crate::helpers::{ok_json, problem, spawn_app, TestApp};

/// An English game that ends undecided in two white kings against one black king, Black to
/// move: lost for Black under best play.
const START: &str = "W:WK18,K22:BK3";
const MOVES: [&str; 5] = ["22-17", "3-7", "17-13", "7-3", "18-15"];

/// The same game as a PDN record (English results put Black's score first: 0-1 is a White
/// win).
fn pdn(result: &str) -> String {
    format!(
        "[GameType \"21\"]\n[FEN \"{START}\"]\n[Result \"{result}\"]\n1... 22-17 2. 3-7 17-13 \
         3. 7-3 18-15 {result}\n"
    )
}

/// The value the engine's own tables give `fen` (English), built here for the check.
fn table_value(fen: &str) -> TableValue {
    let v = variant("english").unwrap();
    let pos: Position = v.parse_fen(fen).unwrap();
    let mut tables = Tables::new(v).unwrap_or_else(|_| panic!("english has tables"));
    tables
        .build(Material::of(&pos), &mut |_| {})
        .expect("a 3-piece table builds");
    tables.probe(&pos).expect("the position is in the tables")
}

async fn judge(app: &TestApp, body: Value) -> Value {
    ok_json(app.post_json("/v1/variants/english/judge", &body).await).await
}

#[tokio::test]
async fn judge_adjudicates_an_undecided_game_by_the_tables() {
    let app = spawn_app().await;
    let plain = judge(&app, json!({"start_position": START, "moves": MOVES})).await;
    assert_eq!(plain["verdict"], "undecided", "{plain}");
    let final_fen = plain["final_position"].as_str().unwrap().to_string();

    let body = judge(
        &app,
        json!({"start_position": START, "moves": MOVES, "adjudicate": "tables",
               "declared_result": "0-1"}),
    )
    .await;
    let TableValue::Loss(plies) = table_value(&final_fen) else {
        panic!("two kings against one: the lone king loses");
    };
    assert_eq!(body["verdict"], "white_wins", "{body}");
    assert_eq!(body["result"], "0-1");
    assert_eq!(body["reason"]["code"], "ENDGAME_TABLES");
    assert_eq!(body["reason"]["material"], "KKvK");
    assert_eq!(body["reason"]["plies"], plies);
    assert!(body["reason"].get("move_limit").is_none(), "{body}");
    let why = body["reason"]["description"].as_str().unwrap();
    assert!(
        why.contains("endgame tables") && why.contains("KKvK"),
        "{why}"
    );
    assert_eq!(body["decided_at_ply"], 5);
    assert_eq!(body["moves_after_end"], 0);
    assert_eq!(body["final_position"], final_fen);
    assert_eq!(body["agreement"]["agrees"], true, "{body}");
    assert_eq!(body["warnings"], json!([]));

    // `none` is the default.
    let none = judge(
        &app,
        json!({"start_position": START, "moves": MOVES, "adjudicate": "none"}),
    )
    .await;
    assert_eq!(none, plain);
}

#[tokio::test]
async fn judge_stops_at_the_move_limit() {
    let app = spawn_app().await;
    // Decided by the tables at the limit.
    let body = judge(
        &app,
        json!({"start_position": START, "moves": MOVES, "adjudicate": "tables",
               "max_plies": 3, "include_pdn": true}),
    )
    .await;
    assert_eq!(body["plies"], 3, "{body}");
    assert_eq!(body["moves_after_end"], 2);
    assert_eq!(body["decided_at_ply"], 3);
    assert_eq!(body["reason"]["code"], "ENDGAME_TABLES");
    assert_eq!(body["reason"]["move_limit"], 3);
    let value = table_value(body["final_position"].as_str().unwrap());
    assert_eq!(body["reason"]["plies"], value.plies().unwrap());
    // Black is to move after 3 plies and loses.
    assert_eq!(body["verdict"], "white_wins");
    let text = body["pdn"].as_str().unwrap();
    assert!(text.contains("[Result \"0-1\"]"), "{text}");
    assert!(
        text.contains("adjudicated after ply 3: ENDGAME_TABLES (KKvK"),
        "{text}"
    );

    // Without the tables: a draw at the limit.
    let body = judge(
        &app,
        json!({"start_position": START, "moves": MOVES, "max_plies": 4,
               "declared_result": "1/2-1/2"}),
    )
    .await;
    assert_eq!(body["verdict"], "draw", "{body}");
    assert_eq!(body["result"], "1/2-1/2");
    assert_eq!(body["reason"]["code"], "MOVE_LIMIT");
    assert_eq!(body["reason"]["move_limit"], 4);
    assert!(body["reason"].get("material").is_none(), "{body}");
    assert_eq!(
        (body["plies"].clone(), body["moves_after_end"].clone()),
        (json!(4), json!(1))
    );
    assert_eq!(body["agreement"]["agrees"], true);

    // A game the rules end before the limit is untouched.
    let won = json!({"start_position": "W:WK18:B15", "moves": ["18x11"]});
    let plain = judge(&app, won.clone()).await;
    let mut limited = won;
    limited["max_plies"] = json!(1);
    limited["adjudicate"] = json!("tables");
    let body = judge(&app, limited).await;
    assert_eq!(body, plain);
    assert_eq!(body["reason"]["code"], "NO_LEGAL_MOVES");
}

#[tokio::test]
async fn every_variant_is_adjudicated_by_its_tables() {
    // BrainKing's Alquerque keeps each side's last move, and a drop game stones in hand:
    // their tables hold them, and the judge adjudicates by them.
    let app = spawn_app().await;
    for (id, start, moves, material) in [
        (
            "alquerque-brainking",
            "W:Wc3:Be5",
            json!(["c3-d3", "e5-e4", "d3-d4"]),
            "MvM",
        ),
        ("lahti", "W:W:B:S4,4", json!(["*a1", "*e2", "*b1"]), "MvM"),
    ] {
        let body = ok_json(
            app.post_json(
                &format!("/v1/variants/{id}/judge"),
                &json!({"start_position": start, "moves": moves,
                        "adjudicate": "tables", "max_plies": 2}),
            )
            .await,
        )
        .await;
        assert_eq!(body["reason"]["code"], "ENDGAME_TABLES", "{id}: {body}");
        assert_eq!(body["reason"]["material"], material, "{id}: {body}");
        assert!(
            body["warnings"].as_array().is_none_or(|w| w.is_empty()),
            "{id}: {body}"
        );
    }
}

#[tokio::test]
async fn bad_adjudication_options_are_refused_naming_the_field() {
    let app = spawn_app().await;
    let path = "/v1/variants/english/judge";
    for n in [json!(0), json!(1001), json!(5_000_000_000u64)] {
        let res = app
            .post_json(path, &json!({"moves": [], "max_plies": n}))
            .await;
        let p = problem(res, 400, "invalid-body").await;
        assert_eq!(p["field"], "max_plies", "{p}");
        assert_eq!(p["limit"], 1000, "{p}");
    }
    for body in [
        json!({"moves": [], "max_plies": -1}),
        json!({"moves": [], "max_plies": "ten"}),
        json!({"moves": [], "adjudicate": "oracle"}),
        json!({"moves": [], "adjudicate": "TABLES"}),
    ] {
        let res = app.post_json(path, &body).await;
        let status = res.status().as_u16();
        let p: Value = res.json().await.unwrap();
        assert_eq!(status, 400, "{body}: {p}");
        let detail = p["detail"].as_str().unwrap();
        assert!(
            detail.contains("max_plies") || detail.contains("adjudicate"),
            "{body}: {detail}"
        );
    }
    let pdn_path = "/v1/judge/pdn";
    for (query, code) in [
        ("?max_plies=0", "invalid-query"),
        ("?max_plies=1001", "invalid-query"),
        ("?max_plies=ten", "invalid-query"),
        ("?adjudicate=oracle", "invalid-query"),
    ] {
        let res = app
            .post_raw(
                &format!("{pdn_path}{query}"),
                Some("text/plain"),
                pdn("*").into(),
            )
            .await;
        let p = problem(res, 400, code).await;
        let detail = p["detail"].as_str().unwrap();
        assert!(
            detail.contains("max_plies") || detail.contains("adjudicate"),
            "{query}: {detail}"
        );
    }
    let res = app
        .post_json(pdn_path, &json!({"pdn": pdn("*"), "max_plies": 0}))
        .await;
    let p = problem(res, 400, "invalid-body").await;
    assert_eq!(p["field"], "max_plies");
}

fn game_of(answer: &Value) -> &Value {
    &answer["games"][0]
}

#[tokio::test]
async fn pdn_files_are_adjudicated_with_the_query_options() {
    let app = spawn_app().await;
    let path = "/v1/judge/pdn";
    let plain = ok_json(
        app.post_raw(path, Some("text/plain"), pdn("0-1").into())
            .await,
    )
    .await;
    assert_eq!(game_of(&plain)["verdict"], "undecided", "{plain}");
    assert_eq!(game_of(&plain)["agreement"]["agrees"], Value::Null);

    let body = ok_json(
        app.post_raw(
            &format!("{path}?adjudicate=tables"),
            Some("text/plain"),
            pdn("0-1").into(),
        )
        .await,
    )
    .await;
    let g = game_of(&body);
    assert_eq!(g["verdict"], "white_wins", "{body}");
    assert_eq!(g["result"], "0-1");
    assert_eq!(g["reason"]["code"], "ENDGAME_TABLES");
    assert_eq!(g["reason"]["material"], "KKvK");
    let value = table_value(g["final_position"].as_str().unwrap());
    assert_eq!(g["reason"]["plies"], value.plies().unwrap());
    assert_eq!(g["agreement"]["agrees"], true);

    // The JSON body's members, the query winning over them.
    let body = ok_json(
        app.post_json(
            &format!("{path}?max_plies=4"),
            &json!({"pdn": pdn("1-0"), "adjudicate": "none", "max_plies": 2}),
        )
        .await,
    )
    .await;
    let g = game_of(&body);
    assert_eq!(g["reason"]["code"], "MOVE_LIMIT", "{body}");
    assert_eq!(g["reason"]["move_limit"], 4);
    assert_eq!(
        (g["plies"].clone(), g["moves_after_end"].clone()),
        (json!(4), json!(1))
    );
    assert_eq!(g["agreement"]["agrees"], false);

    // The NDJSON stream: the same entry.
    let res = app
        .client
        .post(app.url(&format!("{path}?adjudicate=tables&max_plies=3")))
        .header("content-type", "text/plain")
        .header("accept", "application/x-ndjson")
        .body(format!("{}\n{}", pdn("0-1"), pdn("*")))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let text = res.text().await.unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3, "{text}");
    for g in &lines[..2] {
        assert_eq!(g["reason"]["code"], "ENDGAME_TABLES", "{g}");
        assert_eq!(g["reason"]["move_limit"], 3);
        assert_eq!(g["verdict"], "white_wins");
        assert_eq!(g["moves_after_end"], 2);
    }
    assert_eq!(lines[2]["summary"]["judged"], 2);
}

#[test]
fn the_cli_adjudicates_with_its_options() {
    let dir = std::env::temp_dir().join(format!("arbiter-cli-adjudicate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("kkvk.pdn");
    std::fs::write(&file, pdn("0-1")).unwrap();
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .arg("judge")
            .arg(&file)
            .args(args)
            .output()
            .expect("run arbiter");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            out.stderr,
        )
    };
    let (code, out, _) = run(&["--ndjson", "--adjudicate", "tables"]);
    assert_eq!(code, Some(0));
    let g: Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(g["reason"]["code"], "ENDGAME_TABLES", "{g}");
    assert_eq!(g["verdict"], "white_wins");

    let (code, out, _) = run(&["--pdn", "--max-plies", "4"]);
    assert_eq!(code, Some(0));
    assert!(
        out.contains("{adjudicated after ply 4: MOVE_LIMIT}"),
        "{out}"
    );
    assert!(out.contains("[Result \"1/2-1/2\"]"), "{out}");

    for bad in [
        &["--max-plies", "0"][..],
        &["--max-plies", "1001"],
        &["--adjudicate", "oracle"],
    ] {
        let (code, _, err) = run(bad);
        assert_eq!(code, Some(2), "{bad:?}");
        let err = String::from_utf8_lossy(&err);
        assert!(
            err.contains("--max-plies") || err.contains("--adjudicate"),
            "{bad:?}: {err}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The adjudication examples of the judge's request body are judged as their summaries say,
/// on the variant the path's example names (what Swagger UI sends as it is).
#[tokio::test]
async fn the_documented_examples_are_adjudicated() {
    let app = spawn_app().await;
    let doc = ok_json(app.get("/api-docs/openapi.json").await).await;
    let judge = &doc["paths"]["/v1/variants/{variant}/judge"]["post"];
    let variant = judge["parameters"][0]["example"]
        .as_str()
        .expect("variant example");
    let examples = judge["requestBody"]["content"]["application/json"]["examples"]
        .as_object()
        .expect("judge request examples");
    let path = format!("/v1/variants/{variant}/judge");
    let mut answers = Vec::new();
    for name in ["tables", "move_limit"] {
        let body = ok_json(app.post_json(&path, &examples[name]["value"]).await).await;
        assert_eq!(body["verdict"], "white_wins", "{name}: {body}");
        assert_eq!(body["reason"]["code"], "ENDGAME_TABLES", "{name}: {body}");
        assert_eq!(body["reason"]["material"], "KvMM", "{name}: {body}");
        answers.push(body);
    }
    assert_eq!(answers[0]["agreement"]["agrees"], true, "{}", answers[0]);
    assert_eq!(answers[0]["decided_at_ply"], 2, "{}", answers[0]);
    assert_eq!(answers[1]["reason"]["move_limit"], 1, "{}", answers[1]);
    assert_eq!(answers[1]["moves_after_end"], 1, "{}", answers[1]);
}

/// The judge adjudicates by the value under the counting rules, from the counts of the game
/// it judges: a Frisian two-kings win that the game's seven-move count leaves no time for is a
/// draw, and the reason names the rule; the same position at the start of a game (count 0)
/// is still a win.
#[tokio::test]
async fn the_game_counts_decide_whether_a_table_win_stands() {
    let app = spawn_app().await;
    let start = "W:WK42,K4:BK5";
    let judge_frisian = |moves: Vec<String>| {
        let app = &app;
        async move {
            ok_json(
                app.post_json(
                    "/v1/variants/frisian/judge",
                    &json!({"start_position": start, "moves": moves, "adjudicate": "tables"}),
                )
                .await,
            )
            .await
        }
    };
    let at_start = judge_frisian(vec![]).await;
    assert_eq!(at_start["verdict"], "white_wins", "{at_start}");
    // White spends moves that keep the game-theoretic win but not the count's: after one
    // white move and the black king's best reply, the win no longer fits the count.
    let first = ok_json(
        app.client
            .get(app.url("/v1/variants/frisian/endgame"))
            .query(&[("position", start)])
            .send()
            .await
            .unwrap(),
    )
    .await;
    let mut drawn = 0;
    for m in first["moves"].as_array().unwrap() {
        // Moves that keep White's game-theoretic win (a loss for Black after them).
        if m["category"] != "loss" {
            continue;
        }
        let after = m["resulting_position"].as_str().unwrap();
        let reply = ok_json(
            app.client
                .get(app.url("/v1/variants/frisian/endgame"))
                .query(&[("position", after), ("counts", "FRISIAN_2V1_7:1")])
                .send()
                .await
                .unwrap(),
        )
        .await;
        let black = reply["moves"][0]["move"].as_str().unwrap().to_string();
        let white = m["move"].as_str().unwrap().to_string();
        let j = judge_frisian(vec![white, black]).await;
        // The judge's verdict is the tables' value under the rules with the game's counts.
        let pos = j["final_position"].as_str().unwrap();
        let value = ok_json(
            app.client
                .get(app.url("/v1/variants/frisian/endgame"))
                .query(&[("position", pos), ("counts", "FRISIAN_2V1_7:2")])
                .send()
                .await
                .unwrap(),
        )
        .await;
        let expected = match value["rules"]["category"].as_str().unwrap() {
            "win" => "white_wins",
            "loss" => "black_wins",
            _ => "draw",
        };
        assert_eq!(j["verdict"], expected, "{j}");
        if j["verdict"] == "draw" && value["category"] == "win" {
            drawn += 1;
            let d = j["reason"]["description"].as_str().unwrap();
            assert!(d.contains("FRISIAN_2V1_7"), "{j}");
            assert_eq!(j["reason"]["drawn_by"], "FRISIAN_2V1_7", "{j}");
            assert!(j["reason"]["plies"].is_null(), "{j}");
        }
    }
    assert!(drawn > 0, "no line where the count draws a table win");
}
