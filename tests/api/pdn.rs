//! `POST /v1/judge/pdn` and `arbiter judge`: PDN files from tests/data/pdn/ over real HTTP.

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::{json, Value};

use crate::helpers::{ok_json, problem, spawn_app, TestApp};

const PATH: &str = "/v1/judge/pdn";

fn data(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/data/pdn/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

async fn judge_file(app: &TestApp, name: &str) -> Value {
    judge_text(app, "", data(name)).await
}

async fn judge_text(app: &TestApp, query: &str, body: Vec<u8>) -> Value {
    let body = ok_json(
        app.post_raw(&format!("{PATH}{query}"), Some("text/plain"), body)
            .await,
    )
    .await;
    let games = body["games"].as_array().expect("games array");
    for (i, g) in games.iter().enumerate() {
        assert_eq!(g["index"], i, "{g}");
        assert!(g["line"].as_u64().is_some_and(|l| l >= 1), "{g}");
        assert!(g["tags"].is_object(), "{g}");
    }
    let summary = &body["summary"];
    assert_eq!(summary["games"], games.len(), "{body}");
    let judged = games.iter().filter(|g| g["outcome"] == "judged").count();
    assert_eq!(summary["judged"], judged, "{body}");
    assert_eq!(summary["errors"], games.len() - judged, "{body}");
    body
}

#[tokio::test]
async fn a_mixed_file_is_judged_game_by_game() {
    let app = spawn_app().await;
    let body = judge_file(&app, "mixed.pdn").await;
    let g = body["games"].as_array().unwrap();
    assert_eq!(g.len(), 7);
    let variants: Vec<&str> = g.iter().map(|g| g["variant"].as_str().unwrap()).collect();
    assert_eq!(
        variants,
        [
            "international",
            "russian",
            "brazilian",
            "italian",
            "italian",
            "english",
            "international"
        ]
    );
    assert!(g.iter().all(|g| g["outcome"] == "judged"), "{body}");

    // An opening, undecided, declared unknown.
    assert_eq!(g[0]["verdict"], "undecided");
    assert_eq!(g[0]["plies"], 6);
    assert_eq!(g[0]["result"], "*");
    assert_eq!(g[0]["declared_result"], "*");
    assert_eq!(g[0]["agreement"]["agrees"], Value::Null);
    assert!(g[0]["reason"].is_null() && g[0]["decided_at_ply"].is_null());
    assert!(g[0]["invalid_move"].is_null(), "{}", g[0]);
    assert_eq!(
        g[0]["final_position"],
        "W:W29,31,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,11,12,13,14,15,16,17,18,20,23"
    );
    // Undecided with a declared win (resignation): the moves cannot confirm it.
    assert_eq!(g[1]["verdict"], "undecided");
    assert_eq!(g[1]["declared_result"], "1-0");
    assert_eq!(g[1]["agreement"]["agrees"], Value::Null);
    let why = g[1]["agreement"]["explanation"].as_str().unwrap();
    assert!(why.contains("resignation"), "{why}");
    // Black has no legal move: a White win that agrees with the declared 1-0.
    assert_eq!(g[2]["verdict"], "white_wins");
    assert_eq!(g[2]["reason"]["code"], "NO_LEGAL_MOVES");
    assert_eq!(g[2]["decided_at_ply"], 1);
    assert_eq!(g[2]["result"], "1-0");
    assert_eq!(g[2]["agreement"]["agrees"], true);
    assert_eq!(g[2]["final_position"], "B:We5:B");
    // The same kind of ending recorded as 0-1: a conflict.
    assert_eq!(g[3]["verdict"], "white_wins");
    assert_eq!(g[3]["declared_result"], "0-1");
    assert_eq!(g[3]["agreement"]["agrees"], false);
    let why = g[3]["agreement"]["explanation"].as_str().unwrap();
    assert!(why.contains("win for White"), "{why}");
    assert_eq!(g[4]["plies"], 4);
    assert_eq!(g[5]["declared_result"], "1/2-1/2");
    assert_eq!(g[5]["agreement"]["agrees"], Value::Null);
    // International result style.
    assert_eq!(g[6]["verdict"], "white_wins");
    assert_eq!(g[6]["result"], "2-0");
    assert_eq!(g[6]["agreement"]["agrees"], true);
    assert_eq!(g[6]["line"], 39);
    assert_eq!(
        body["summary"],
        json!({"games": 7, "judged": 7, "errors": 0})
    );
}

#[tokio::test]
async fn tags_comments_variations_nags_and_strengths_are_read() {
    let app = spawn_app().await;
    let body = judge_file(&app, "features.pdn").await;
    let g = body["games"].as_array().unwrap();
    assert_eq!(g.len(), 3);
    let keys: Vec<&String> = g[0]["tags"].as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        ["Event", "Site", "Date", "Round", "White", "Black", "Result", "GameType"],
        "tags in file order"
    );
    assert_eq!(g[0]["tags"]["White"], "Jansen, P.");
    // The game starts with the `;` comment lines before its tags.
    assert_eq!(g[0]["line"], 1);
    assert_eq!(g[1]["line"], 14);
    assert_eq!(g[0]["variant"], "international");
    // Comments, the variations and the NAGs are skipped; `14x23!?` is the move 14x23.
    assert_eq!(g[0]["plies"], 6, "{}", g[0]);
    assert_eq!(g[0]["verdict"], "undecided");
    assert_eq!(g[0]["declared_result"], "1-1");
    assert_eq!(g[1]["variant"], "english");
    assert_eq!(g[1]["plies"], 4);
    assert_eq!(g[1]["declared_result"], "1-0");
    // lidraughts' Variant tag chooses the variant when there is no GameType.
    assert_eq!(g[2]["variant"], "russian");
    assert_eq!(g[2]["plies"], 6);
    assert_eq!(
        g[2]["final_position"].as_str().unwrap().chars().next(),
        Some('W')
    );

    // Tag values are PDN strings: `\\` is a backslash and `\"` a quote, so a value may end
    // in a backslash and a tag may follow on the same line; the canonical PDN written for the
    // game escapes them again and reads back to the same tags.
    let text = "[Event \"C:\\\\games\\\\\"] [Site \"the \\\"Old\\\" Hall\"]\n[GameType \"20\"]\n\
                1. 32-28 19-23 *\n";
    let body = judge_text(&app, "?include_pdn=true", text.as_bytes().to_vec()).await;
    let g = &body["games"][0];
    assert_eq!(g["tags"]["Event"], "C:\\games\\", "{g}");
    assert_eq!(g["tags"]["Site"], "the \"Old\" Hall", "{g}");
    let pdn = g["pdn"].as_str().unwrap();
    assert!(pdn.starts_with("[Event \"C:\\\\games\\\\\"]\n"), "{pdn}");
    let again = judge_text(&app, "", pdn.as_bytes().to_vec()).await;
    assert_eq!(again["games"][0]["tags"]["Event"], g["tags"]["Event"]);
    assert_eq!(again["games"][0]["tags"]["Site"], g["tags"]["Site"]);
    assert_eq!(again["games"][0]["plies"], 2);
}

#[tokio::test]
async fn crlf_bom_and_iso_8859_1_files_are_read() {
    let app = spawn_app().await;
    let body = judge_file(&app, "crlf_bom.pdn").await;
    let g = body["games"].as_array().unwrap();
    assert_eq!(g.len(), 2);
    assert_eq!(
        g[0]["tags"]["Event"], "Windows file",
        "the BOM is not part of a tag"
    );
    assert_eq!(g[0]["verdict"], "white_wins");
    assert_eq!(g[0]["agreement"]["agrees"], true);
    assert_eq!(g[1]["line"], 7);
    assert_eq!(g[1]["plies"], 4);

    let bytes = data("latin1.pdn");
    assert!(
        std::str::from_utf8(&bytes).is_err(),
        "the file is ISO-8859-1"
    );
    let body = judge_text(&app, "", bytes).await;
    let g = &body["games"][0];
    assert_eq!(g["tags"]["Event"], "Café de la Paix");
    assert_eq!(g["tags"]["White"], "Müller");
    assert_eq!(g["plies"], 2);
}

#[tokio::test]
async fn broken_games_are_entries_not_failed_requests() {
    let app = spawn_app().await;
    let body = judge_file(&app, "malformed.pdn").await;
    let g = body["games"].as_array().unwrap();
    assert_eq!(g.len(), 5);
    let error = |i: usize| -> (String, String) {
        assert_eq!(g[i]["outcome"], "error", "{}", g[i]);
        assert!(g[i]["verdict"].is_null(), "{}", g[i]);
        (
            g[i]["error"]["code"].as_str().unwrap().to_string(),
            g[i]["error"]["detail"].as_str().unwrap().to_string(),
        )
    };
    let (code, detail) = error(0);
    assert_eq!(code, "invalid-game-text");
    assert!(
        detail.contains("line 3") && detail.contains("not a tag"),
        "{detail}"
    );

    // The illegal move: ply, move number and the legal alternatives.
    assert_eq!(g[1]["outcome"], "judged");
    assert_eq!(g[1]["verdict"], "invalid");
    assert_eq!(g[1]["result"], "*");
    assert_eq!(g[1]["plies"], 2);
    let bad = &g[1]["invalid_move"];
    assert_eq!(bad["ply"], 3, "{bad}");
    assert_eq!(bad["move_number"], 2);
    assert_eq!(bad["move"], "28-22");
    assert_eq!(bad["code"], "illegal-move");
    assert_eq!(bad["legal_moves"], json!(["28x19"]));
    assert!(
        bad["reason"].as_str().unwrap().contains("compulsory"),
        "{bad}"
    );
    assert_eq!(g[1]["agreement"]["agrees"], Value::Null);

    let (code, detail) = error(2);
    assert_eq!(code, "unsupported-variant");
    assert!(detail.contains("GameType \"41\""), "{detail}");
    assert!(g[2]["variant"].is_null());
    let (code, _) = error(3);
    assert_eq!(code, "no-variant");
    let (code, detail) = error(4);
    assert_eq!(code, "invalid-position");
    assert!(detail.contains("FEN"), "{detail}");
    assert_eq!(g[4]["variant"], "international");
    assert_eq!(
        body["summary"],
        json!({"games": 5, "judged": 1, "errors": 4})
    );
}

#[tokio::test]
async fn a_truncated_file_and_an_unterminated_comment() {
    let app = spawn_app().await;
    let body = judge_file(&app, "truncated.pdn").await;
    let g = &body["games"][0];
    assert_eq!(g["verdict"], "invalid", "{g}");
    assert_eq!(g["plies"], 4);
    let bad = &g["invalid_move"];
    assert_eq!(bad["ply"], 5);
    assert_eq!(bad["move_number"], 3);
    assert_eq!(bad["move"], "33-");
    assert_eq!(bad["code"], "unparsable-move");
    assert!(bad["legal_moves"]
        .as_array()
        .unwrap()
        .contains(&json!("33-29")));

    let body = judge_file(&app, "unterminated.pdn").await;
    let g = body["games"].as_array().unwrap();
    assert_eq!(g.len(), 2);
    assert_eq!(g[0]["outcome"], "judged");
    assert_eq!(g[1]["outcome"], "error");
    assert_eq!(g[1]["error"]["code"], "invalid-game-text");
    let detail = g[1]["error"]["detail"].as_str().unwrap();
    assert!(
        detail.contains("never closed") && detail.contains("line 7"),
        "{detail}"
    );
}

#[tokio::test]
async fn the_explicit_variant_overrides_the_tags() {
    let app = spawn_app().await;
    let untagged = b"1. 32-28 19-23 2. 28x19 14x23 *\n".to_vec();
    let body = judge_text(&app, "", untagged.clone()).await;
    assert_eq!(body["games"][0]["error"]["code"], "no-variant");
    let body = judge_text(&app, "?variant=international", untagged.clone()).await;
    assert_eq!(body["games"][0]["variant"], "international");
    assert_eq!(body["games"][0]["plies"], 4);

    // A GameType 21 (english) game judged as international on request.
    let tagged = b"[GameType \"21\"]\n1. 32-28 19-23 *\n".to_vec();
    let body = judge_text(&app, "", tagged.clone()).await;
    assert_eq!(body["games"][0]["verdict"], "invalid");
    let body = judge_text(&app, "?variant=international", tagged).await;
    assert_eq!(body["games"][0]["verdict"], "undecided");

    // JSON body with its own variant; the query parameter wins over it.
    let pdn = String::from_utf8(untagged).unwrap();
    let body = ok_json(
        app.post_json(PATH, &json!({"pdn": pdn, "variant": "international"}))
            .await,
    )
    .await;
    assert_eq!(body["games"][0]["variant"], "international");
    let body = ok_json(
        app.post_json(
            &format!("{PATH}?variant=frisian"),
            &json!({"pdn": pdn, "variant": "international"}),
        )
        .await,
    )
    .await;
    assert_eq!(body["games"][0]["variant"], "frisian");

    // application/x-pdn is PDN text too.
    let res = app
        .post_raw(
            &format!("{PATH}?variant=international"),
            Some("application/x-pdn"),
            pdn.clone().into_bytes(),
        )
        .await;
    assert_eq!(ok_json(res).await["summary"]["judged"], 1);

    let res = app
        .post_raw(
            &format!("{PATH}?variant=chess"),
            Some("text/plain"),
            pdn.into_bytes(),
        )
        .await;
    let p = problem(res, 404, "unknown-variant").await;
    assert!(p["known_variants"]
        .as_array()
        .unwrap()
        .contains(&json!("russian")));
}

#[tokio::test]
async fn request_bounds_are_problems() {
    let app = spawn_app().await;
    // 201 games: too many.
    let game = "[GameType \"20\"]\n1. 32-28 *\n\n";
    let res = app
        .post_raw(PATH, Some("text/plain"), game.repeat(201).into_bytes())
        .await;
    let p = problem(res, 422, "too-many-games").await;
    assert_eq!(p["limit"], 200);
    assert!(p["detail"].as_str().unwrap().contains("201"), "{p}");
    // 200 games are fine.
    let body = judge_text(&app, "", game.repeat(200).into_bytes()).await;
    assert_eq!(body["summary"]["judged"], 200);
    // Games that a Result tag in lower case ends (the move text ends with the tag's value,
    // then a game without tags follows) are counted as the games they are: 101 of these
    // pairs are 202 games (they used to be counted as 101, and all 202 were judged).
    let pair = "[GameType \"20\"]\n[result \"4-6\"]\n1. 32-28 4-6 1. 33-28 *\n\n";
    let res = app
        .post_raw(PATH, Some("text/plain"), pair.repeat(101).into_bytes())
        .await;
    let p = problem(res, 422, "too-many-games").await;
    assert!(p["detail"].as_str().unwrap().contains("202"), "{p}");
    let body = judge_text(&app, "", pair.repeat(100).into_bytes()).await;
    assert_eq!(body["summary"]["games"], 200);

    // 100 tags besides the setup tags are fine, and so is the canonical PDN written for the
    // game, whose GameType and Result tags are added to them (it used to have 101 tags, one
    // too many to be read again).
    let tags: String = (0..100).map(|i| format!("[T{i} \"{i}\"]\n")).collect();
    let tagged = format!("{tags}[GameType \"20\"]\n[gametype \"25\"]\n1. 32-28 19-23 *\n");
    let body = judge_text(&app, "?include_pdn=true", tagged.into_bytes()).await;
    let first = &body["games"][0];
    assert_eq!(first["outcome"], "judged", "{first}");
    let pdn = first["pdn"].as_str().unwrap();
    assert!(pdn.contains("[GameType \"20,"), "{pdn}");
    assert_eq!(
        pdn.to_ascii_lowercase().matches("[gametype").count(),
        1,
        "{pdn}"
    );
    let again = judge_text(&app, "", pdn.as_bytes().to_vec()).await;
    let again = &again["games"][0];
    assert_eq!(again["outcome"], "judged", "{again}");
    assert_eq!(again["final_position"], first["final_position"]);
    // One tag more is an invalid game text.
    let more = format!("{tags}[T100 \"x\"]\n1. 32-28 *\n");
    let body = judge_text(&app, "?variant=international", more.into_bytes()).await;
    assert_eq!(body["games"][0]["error"]["code"], "invalid-game-text");

    // 1 MiB is the body bound of this endpoint: 600 KiB (above the JSON bound) is fine...
    let padded = format!("{{{}}}\n{game}", "x".repeat(600 * 1024));
    let body = judge_text(&app, "", padded.into_bytes()).await;
    assert_eq!(body["summary"]["judged"], 1);
    // ... a byte more than 1 MiB is not.
    let huge = format!("{{{}}}\n{game}", "x".repeat(1024 * 1024));
    let res = app
        .post_raw(PATH, Some("text/plain"), huge.into_bytes())
        .await;
    let p = problem(res, 413, "payload-too-large").await;
    assert_eq!(p["limit"], 1024 * 1024);

    // No body at all (no Content-Type either): 400; an empty PDN text is a file without games.
    let res = app.post_raw(PATH, None, Vec::new()).await;
    problem(res, 400, "invalid-body").await;
    let res = app
        .post_raw(PATH, Some("application/xml"), b"<pdn/>".to_vec())
        .await;
    problem(res, 415, "unsupported-media-type").await;
    let res = app
        .post_raw(PATH, Some("application/json"), b"{\"pdn\": 3}".to_vec())
        .await;
    problem(res, 400, "invalid-body").await;
    let res = app.get(PATH).await;
    problem(res, 405, "method-not-allowed").await;
}

/// International kings shuffling: legal for any number of plies (a repetition draw at ply 8,
/// the rest are moves after the end).
fn shuffle(plies: usize) -> Vec<&'static str> {
    ["50-44", "1-7", "44-50", "7-1"]
        .iter()
        .cycle()
        .take(plies)
        .copied()
        .collect()
}

#[tokio::test]
async fn the_ply_bound_is_the_same_for_pdn_games_and_judge() {
    let app = spawn_app().await;
    let game = |n: usize| {
        format!(
            "[GameType \"20\"]\n[FEN \"W:WK50:BK1\"]\n{} *\n",
            shuffle(n).join(" ")
        )
    };
    let body = judge_text(
        &app,
        "",
        format!("{}\n{}", game(1000), game(1001)).into_bytes(),
    )
    .await;
    let g = body["games"].as_array().unwrap();
    assert_eq!(g[0]["outcome"], "judged", "{}", g[0]);
    assert_eq!(g[0]["verdict"], "draw");
    assert_eq!(
        g[0]["plies"].as_u64().unwrap() + g[0]["moves_after_end"].as_u64().unwrap(),
        1000
    );
    assert_eq!(g[1]["outcome"], "error");
    assert_eq!(g[1]["error"]["code"], "too-many-moves");
    assert!(
        g[1]["error"]["detail"].as_str().unwrap().contains("1000"),
        "{}",
        g[1]
    );

    let judge = "/v1/variants/international/judge";
    let ok = app
        .post_json(
            judge,
            &json!({"start_position": "W:WK50:BK1", "moves": shuffle(1000)}),
        )
        .await;
    assert_eq!(ok_json(ok).await["verdict"], "draw");
    let res = app
        .post_json(
            judge,
            &json!({"start_position": "W:WK50:BK1", "moves": shuffle(1001)}),
        )
        .await;
    let p = problem(res, 422, "too-many-moves").await;
    assert_eq!(p["limit"], 1000);
}

fn arbiter(args: &[&str], stdin: Option<&[u8]>) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run arbiter");
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin.unwrap_or_default()).unwrap();
    drop(input);
    child.wait_with_output().expect("arbiter output")
}

#[tokio::test]
async fn the_cli_prints_the_http_answer() {
    let app = spawn_app().await;
    let file = format!("{}/tests/data/pdn/mixed.pdn", env!("CARGO_MANIFEST_DIR"));
    let out = arbiter(&["judge", &file], None);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let cli: Value = serde_json::from_slice(&out.stdout).unwrap();
    let http = judge_file(&app, "mixed.pdn").await;
    assert_eq!(cli, http);

    let out = arbiter(
        &["judge", "-", "--variant", "international"],
        Some(b"1. 32-28 *\n"),
    );
    assert!(out.status.success());
    let cli: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(cli["games"][0]["variant"], "international");
    assert_eq!(cli["games"][0]["plies"], 1);

    let latin1 = format!("{}/tests/data/pdn/latin1.pdn", env!("CARGO_MANIFEST_DIR"));
    let out = arbiter(&["judge", &latin1], None);
    let cli: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(cli["games"][0]["tags"]["White"], "Müller");
}

/// Games with the faults real files have (see tests/data/games/README.md), each read with a
/// warning.
const RECORDS: &str = "[Event \"Glued comment, as in CheckerBoard's tinsley.pdn\"]\n\
[GameType \"21\"]\n[Result \"1/2-1/2\"]\n\
1. 11-15 23-19 2. 8-11Redoversteppedthetimecontrolonthismove. 1/2-1/2\n\n\
[Event \"Short ambiguous capture, PDN 3.0 example\"]\n[GameType \"20\"]\n\
[FEN \"W:WK47:B14,19,29,31,42\"]\n1. 47x36 *\n\n\
[Event \"PlayStrategy: algebraic squares from Black's side\"]\n\
[Variant \"American/English\"]\n1. c3-d4 b6-c5 *\n\n\
[Event \"Comment without braces\"]\n[GameType \"20\"]\n1. 32-28 19-23 9n 28x19 *\n";

#[tokio::test]
async fn record_repairs_are_warnings_on_the_game() {
    let app = spawn_app().await;
    let body = judge_text(&app, "", RECORDS.as_bytes().to_vec()).await;
    let g = body["games"].as_array().unwrap();
    assert!(g.iter().all(|g| g["outcome"] == "judged"), "{body}");
    assert!(g.iter().all(|g| g["verdict"] != "invalid"), "{body}");
    // The record reader's repairs; the deviations from the PDN 3.0 grammar apart.
    let grammar = |c: &str| GRAMMAR_CODES.contains(&c);
    let codes = |i: usize| -> Vec<String> {
        g[i]["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w["code"].as_str().unwrap().to_string())
            .filter(|c| !grammar(c))
            .collect()
    };
    let grammar_codes = |i: usize| -> Vec<String> {
        g[i]["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w["code"].as_str().unwrap().to_string())
            .filter(|c| grammar(c))
            .collect()
    };
    let warning = |i: usize, code: &str| -> Value {
        g[i]["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|w| w["code"] == code)
            .cloned()
            .unwrap_or(Value::Null)
    };

    assert_eq!(codes(0), ["text-after-move"]);
    // The glued text is no PDN 3.0 token either.
    assert_eq!(grammar_codes(0), ["not-in-grammar"]);
    let w = &warning(0, "text-after-move");
    assert_eq!(w["ply"], 3);
    assert_eq!(w["text"], "8-11Redoversteppedthetimecontrolonthismove.");
    assert_eq!(w["reading"], "8-11");
    assert!(w["detail"].as_str().unwrap().contains("Redovers"), "{w}");
    assert_eq!(g[0]["plies"], 3);

    assert_eq!(codes(1), ["ambiguous-move-unresolved"]);
    let w = &warning(1, "ambiguous-move-unresolved");
    assert_eq!(w["ply"], 1);
    assert_eq!(w["alternatives"].as_array().unwrap().len(), 1);
    assert_eq!(w["verdict_differs"], false);

    // Seen from Black's side c3-d4 is 11-15 (tests/data/games/README.md) and b6-c5 is 24-19.
    assert_eq!(g[2]["variant"], "english");
    assert_eq!(codes(2), ["algebraic-squares-rotated"]);
    assert_eq!(g[2]["plies"], 2);
    let pos = "B:W19,21,22,23,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15";
    assert_eq!(g[2]["final_position"], pos);

    assert_eq!(codes(3), ["not-a-move"]);
    assert_eq!(warning(3, "not-a-move")["text"], "9n");
    assert_eq!(grammar_codes(3), ["malformed-move-number"]);
    assert_eq!(g[3]["plies"], 3);
}

/// English: Black moves first; Black's 14x23 takes White's last piece.
const BLACK_WINS: &str = "[GameType \"21\"]\n[FEN \"B:W18:B14\"]\n[Result \"1-0\"]\n1. 14x23 1-0\n";

#[tokio::test]
async fn the_result_convention_parameter() {
    let app = spawn_app().await;
    // The default (PDN 3.0): the first mover's score first, so 1-0 is Black's win.
    let body = judge_text(&app, "", BLACK_WINS.as_bytes().to_vec()).await;
    let g = &body["games"][0];
    assert_eq!(g["verdict"], "black_wins", "{g}");
    assert_eq!(g["result"], "1-0");
    assert_eq!(g["agreement"]["agrees"], true, "{g}");
    assert_eq!(g["warnings"], json!([]));

    // White's score first: the declared 1-0 is a White win, against the moves. It is reported,
    // not flipped, with a warning that the other convention would agree.
    for query in [
        "?result_convention=white-first",
        "?result_convention=white-first&variant=english",
    ] {
        let body = judge_text(&app, query, BLACK_WINS.as_bytes().to_vec()).await;
        let g = &body["games"][0];
        assert_eq!(g["verdict"], "black_wins", "{g}");
        assert_eq!(g["result"], "0-1");
        assert_eq!(g["declared_result"], "1-0");
        assert_eq!(g["agreement"]["agrees"], false, "{g}");
        assert_eq!(g["warnings"][0]["code"], "result-convention", "{g}");
        assert!(g["warnings"][0]["detail"]
            .as_str()
            .unwrap()
            .contains("result_convention=first-mover"));
    }

    // The JSON body member; the query parameter wins over it.
    let res = app
        .post_json(
            PATH,
            &json!({"pdn": BLACK_WINS, "result_convention": "white-first"}),
        )
        .await;
    let body = ok_json(res).await;
    assert_eq!(body["games"][0]["agreement"]["agrees"], false);
    let res = app
        .post_json(
            &format!("{PATH}?result_convention=first-mover"),
            &json!({"pdn": BLACK_WINS, "result_convention": "white-first"}),
        )
        .await;
    let body = ok_json(res).await;
    assert_eq!(body["games"][0]["agreement"]["agrees"], true);

    problem(
        app.post_raw(
            &format!("{PATH}?result_convention=black"),
            Some("text/plain"),
            BLACK_WINS.as_bytes().to_vec(),
        )
        .await,
        400,
        "invalid-query",
    )
    .await;

    // The command line takes the same convention.
    let out = arbiter(
        &["judge", "-", "--result-convention", "white-first"],
        Some(BLACK_WINS.as_bytes()),
    );
    assert!(out.status.success());
    let cli: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(cli["games"][0]["result"], "0-1");
    assert_eq!(cli["games"][0]["agreement"]["agrees"], false);
}

#[test]
fn the_cli_refuses_what_it_cannot_judge_with_exit_code_2() {
    let file = format!("{}/tests/data/pdn/mixed.pdn", env!("CARGO_MANIFEST_DIR"));
    let cases: [&[&str]; 4] = [
        &["judge", "/nonexistent/games.pdn"],
        &["judge", &file, "--variant", "chess"],
        &["judge", &file, "--max-games", "3"],
        &["judge", &file, "--result-convention", "black-first"],
    ];
    for args in cases {
        let out = arbiter(args, None);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            !err.is_empty() && !err.contains("panicked"),
            "{args:?}: {err}"
        );
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[tokio::test]
async fn garbage_never_gives_a_server_error() {
    let app = spawn_app().await;
    let mut bodies: Vec<Vec<u8>> = [
        "[",
        "]",
        "{",
        "}",
        "(",
        ")",
        "[[[[",
        "1.",
        "1...",
        "$",
        "$999999999999",
        "!?",
        "*",
        "[GameType \"20\"",
        "[GameType \"20\"]\n[FEN \"W:W",
        "[GameType \"99999999999999\"]\n1. 32-28 *",
        "[GameType \"20\"]\n1. 32-28 19-23 2. 28x19 14x23 3. 49x1x2x3x4x5 *",
        "[GameType \"25\"]\n1. z9-z10 *",
        "[Variant \"\"]\n1. 32-28 *",
        "\u{feff}\u{feff}",
        "[GameType \"20\"]\n[FEN \"W:WK1-50:BK1\"]\n1. 1-2 *",
        "1-0 0-1 1/2-1/2 2-0 * 0-0",
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect();
    bodies.push(format!("[GameType \"20\"]\n1. {} 32-28 *", "(".repeat(50_000)).into_bytes());
    bodies.push(format!("[GameType \"20\"]\n1. {} 32-28 *", "{".repeat(50_000)).into_bytes());
    bodies.push(
        format!(
            "[Event \"{}\"]\n[GameType \"20\"]\n1. 32-28 *",
            "x".repeat(100_000)
        )
        .into_bytes(),
    );
    bodies.push((0..=255u8).cycle().take(20_000).collect());
    for body in bodies {
        let shown = String::from_utf8_lossy(&body[..body.len().min(60)]).into_owned();
        let res = app.post_raw(PATH, Some("text/plain"), body).await;
        let status = res.status();
        assert!(
            status.is_success() || status.is_client_error(),
            "{shown:?}: {status}"
        );
        assert!(res.json::<Value>().await.is_ok(), "{shown:?}: JSON answer");
    }
}

#[tokio::test]
async fn an_empty_file_has_no_games() {
    let app = spawn_app().await;
    for body in ["", "  \n\n", "% only a comment line\n"] {
        let res = app
            .post_raw("/v1/judge/pdn", Some("text/plain"), body.into())
            .await;
        let answer = ok_json(res).await;
        assert_eq!(
            answer["summary"],
            json!({"games": 0, "judged": 0, "errors": 0}),
            "{body:?}"
        );
    }
    let res = app
        .post_raw("/v1/judge/pdn", Some("application/json"), Vec::new())
        .await;
    problem(res, 400, "invalid-body").await;
}

/// The variants other sites serve: PlayStrategy games, lidraughts-style exports
/// (GameType 96/97, FEN with `:H0:F1`) and pydraughts-style tags (GameType 20/40 with a
/// `Variant` tag), each replayed through `/v1/judge/pdn`.
#[tokio::test]
async fn games_of_the_variants_other_sites_serve() {
    let app = spawn_app().await;
    let body = judge_file(&app, "more_variants.pdn").await;
    let g = body["games"].as_array().unwrap();
    // (variant, verdict, reason, decided at ply, declared result agrees)
    type Want = (
        &'static str,
        &'static str,
        Option<&'static str>,
        Option<u64>,
        Option<bool>,
    );
    let want: [Want; 10] = [
        // PlayStrategy: Black's man ends 26x37x48 on White's back row (winner P2).
        (
            "breakthrough",
            "black_wins",
            Some("KING_CROWNED"),
            Some(38),
            Some(true),
        ),
        // PlayStrategy Frysk!: winner P2, White left without pieces.
        (
            "frysk",
            "black_wins",
            Some("NO_LEGAL_MOVES"),
            Some(46),
            Some(true),
        ),
        // GameType 20 + Variant "Breakthrough": 6-1 crowns and wins; 45-50 comes after the end.
        (
            "breakthrough",
            "white_wins",
            Some("KING_CROWNED"),
            Some(1),
            Some(true),
        ),
        ("frysk", "undecided", None, None, None),
        // Killer: 46x44 stops right behind the king on 39 and takes Black's last pieces.
        (
            "killer",
            "white_wins",
            Some("NO_LEGAL_MOVES"),
            Some(1),
            Some(true),
        ),
        // Killer: 46x50 lands beyond the last king taken, so it is not a legal move.
        ("killer", "invalid", None, None, None),
        ("spanish", "undecided", None, None, None),
        ("sri-lankan", "undecided", None, None, None),
        // lidraughts Breakthrough: 13x11 passes d10 in the middle of the capture (no
        // crowning); 7-2 ends on the far row at ply 5.
        (
            "breakthrough",
            "white_wins",
            Some("KING_CROWNED"),
            Some(5),
            Some(true),
        ),
        // lidraughts Frysk!: a man takes along the e-file, Black has nothing left.
        (
            "frysk",
            "white_wins",
            Some("NO_LEGAL_MOVES"),
            Some(1),
            Some(true),
        ),
    ];
    assert_eq!(g.len(), want.len() + 1, "{body}");
    for (i, (variant, verdict, reason, ply, agrees)) in want.into_iter().enumerate() {
        let game = &g[i];
        assert_eq!(game["outcome"], "judged", "game {i}: {game}");
        assert_eq!(game["variant"], variant, "game {i}: {game}");
        assert_eq!(game["verdict"], verdict, "game {i}: {game}");
        assert_eq!(game["reason"]["code"].as_str(), reason, "game {i}: {game}");
        assert_eq!(game["decided_at_ply"].as_u64(), ply, "game {i}: {game}");
        assert_eq!(
            game["agreement"]["agrees"].as_bool(),
            agrees,
            "game {i}: {game}"
        );
    }
    assert_eq!(g[2]["moves_after_end"], 1, "{}", g[2]);
    assert_eq!(g[5]["invalid_move"]["move"], "46x50", "{}", g[5]);
    assert_eq!(
        g[5]["invalid_move"]["legal_moves"],
        json!(["46x44"]),
        "{}",
        g[5]
    );
    // The Spanish game on PDN 24 squares: 1. d3-c4 c6-d5 2. f3-e4 d5xf3 3. g2xe4.
    assert_eq!(
        g[6]["final_position"],
        "B:W1,2,3,4,6,7,8,9,12,14,15:B21,22,24,25,26,27,28,29,30,31,32"
    );
    // Sri Lankan: b5-c6 (43-38) and g8-f7 (28-33) on the mirrored board.
    let sri = g[7]["final_position"].as_str().unwrap();
    assert!(sri.starts_with("W:W38,44,45,"), "{sri}");
    assert!(
        sri.ends_with(
            ":B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,29,30,33"
        ),
        "{sri}"
    );
    // A Breakthrough position holding a king is already decided: refused, not judged.
    assert_eq!(g[10]["outcome"], "error", "{}", g[10]);
    assert_eq!(g[10]["error"]["code"], "invalid-position", "{}", g[10]);
}

/// Turkish games (PDN GameType 30), written by hand: each end rule fires with its reason code.
#[tokio::test]
async fn turkish_games_are_adjudicated() {
    let app = spawn_app().await;
    let body = judge_file(&app, "turkish.pdn").await;
    let g = body["games"].as_array().unwrap();
    assert_eq!(g.len(), 6, "{body}");
    assert!(g.iter().all(|g| g["variant"] == "turkish"), "{body}");
    assert!(g.iter().all(|g| g["outcome"] == "judged"), "{body}");
    // 1. e3-e4 d6-d5 2. e4-e5 d5xf5: White's man on e5 is gone, Black's d6 man is on f5.
    assert_eq!(g[0]["verdict"], "undecided", "{}", g[0]);
    let fen = g[0]["final_position"].as_str().unwrap();
    let pieces = |side: char| -> std::collections::BTreeSet<String> {
        let part = fen
            .split(':')
            .skip(1)
            .find(|p| p.starts_with(side))
            .unwrap_or_else(|| panic!("{fen}"));
        part[1..].split(',').map(String::from).collect()
    };
    let want = |s: &str| -> std::collections::BTreeSet<String> {
        s.split(',').map(String::from).collect()
    };
    assert!(fen.starts_with("W:"), "{fen}");
    assert_eq!(
        pieces('W'),
        want("a2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,f3,g3,h3"),
        "{fen}"
    );
    assert_eq!(
        pieces('B'),
        want("f5,a6,b6,c6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7"),
        "{fen}"
    );
    // (verdict, reason, decided at ply)
    let want = [
        ("white_wins", "KING_VS_MAN", 1),
        ("draw", "KING_VS_KING", 1),
        ("white_wins", "KING_VS_MAN", 1),
        ("draw", "REPETITION", 8),
    ];
    for (i, (verdict, reason, ply)) in want.into_iter().enumerate() {
        let game = &g[i + 1];
        assert_eq!(game["verdict"], verdict, "game {}: {game}", i + 1);
        assert_eq!(game["reason"]["code"], reason, "game {}: {game}", i + 1);
        assert_eq!(game["decided_at_ply"], ply, "game {}: {game}", i + 1);
        assert_eq!(game["agreement"]["agrees"], true, "game {}: {game}", i + 1);
    }
    // d6xd8 would stop at the crowning square (option B/C readings): illegal here, where the
    // new king must go on and take g8 too.
    assert_eq!(g[5]["verdict"], "invalid", "{}", g[5]);
    assert_eq!(
        g[5]["invalid_move"]["legal_moves"],
        json!(["d6xh8"]),
        "{}",
        g[5]
    );
}

/// Point-and-line boards: Alquerque and Seth games, with the reason of each end.
#[tokio::test]
async fn alquerque_and_seth_games_are_adjudicated() {
    let app = spawn_app().await;
    let body = judge_file(&app, "lines.pdn").await;
    let g = body["games"].as_array().unwrap();
    assert_eq!(g.len(), 6, "{body}");
    let want = [
        ("alquerque", "white_wins", Some("NO_LEGAL_MOVES"), Some(1)),
        ("alquerque", "white_wins", Some("NO_LEGAL_MOVES"), Some(1)),
        ("seth", "white_wins", Some("GOAL_REACHED"), Some(1)),
        ("seth", "undecided", None, None),
        (
            "alquerque-brainking",
            "white_wins",
            Some("NO_LEGAL_MOVES"),
            Some(1),
        ),
        ("alquerque-brainking", "invalid", None, None),
    ];
    for (i, (variant, verdict, reason, ply)) in want.into_iter().enumerate() {
        let game = &g[i];
        assert_eq!(game["outcome"], "judged", "game {i}: {game}");
        assert_eq!(game["variant"], variant, "game {i}: {game}");
        assert_eq!(game["verdict"], verdict, "game {i}: {game}");
        assert_eq!(game["reason"]["code"].as_str(), reason, "game {i}: {game}");
        assert_eq!(game["decided_at_ply"].as_u64(), ply, "game {i}: {game}");
    }
    // a1-a5 went along the arc; Black stepped e3-e2.
    assert_eq!(g[3]["final_position"], "W:Wa5:Be2", "{}", g[3]);
    // No return: c3-b3 is refused, and the position keeps both sides' last moves.
    assert_eq!(g[5]["invalid_move"]["move"], "c3-b3", "{}", g[5]);
    assert_eq!(
        g[5]["final_position"], "W:Wa1,c3:Be4:Lb3-c3,e5-e4",
        "{}",
        g[5]
    );
}

/// Drop games (PDN files written by hand): a whole Vilbergen game from the empty board, the end
/// of a Lahti drop phase and a capture of every stone, a last stone moving back onto the goal,
/// a drop on an occupied point, a Hageby game with a pass, and a Lahti drop that blocks.
#[tokio::test]
async fn drop_games_are_adjudicated() {
    let app = spawn_app().await;
    let body = judge_file(&app, "drops.pdn").await;
    let g = body["games"].as_array().unwrap();
    assert_eq!(g.len(), 6, "{body}");
    let want = [
        (
            "vilbergen",
            "white_wins",
            Some("LAST_STONE_ON_GOAL"),
            Some(17),
        ),
        ("lahti", "white_wins", Some("ALL_CAPTURED"), Some(7)),
        (
            "vilbergen-salo",
            "white_wins",
            Some("LAST_STONE_ON_GOAL"),
            Some(3),
        ),
        ("vilbergen", "invalid", None, None),
        ("hageby", "white_wins", Some("LAST_STONE_ON_GOAL"), Some(3)),
        ("lahti", "black_wins", Some("NO_LEGAL_MOVES"), Some(1)),
    ];
    for (i, (variant, verdict, reason, ply)) in want.into_iter().enumerate() {
        let game = &g[i];
        assert_eq!(game["outcome"], "judged", "game {i}: {game}");
        assert_eq!(game["variant"], variant, "game {i}: {game}");
        assert_eq!(game["verdict"], verdict, "game {i}: {game}");
        assert_eq!(game["reason"]["code"].as_str(), reason, "game {i}: {game}");
        assert_eq!(game["decided_at_ply"].as_u64(), ply, "game {i}: {game}");
    }
    assert_eq!(g[0]["final_position"], "B:Wd2:Ba1,c1", "{}", g[0]);
    assert_eq!(g[0]["agreement"]["agrees"], true, "{}", g[0]);
    assert_eq!(g[3]["invalid_move"]["move"], "*b1", "{}", g[3]);
    assert_eq!(g[3]["final_position"], "W:Wa1:Bb1:S3,3", "{}", g[3]);
    let legal = g[3]["invalid_move"]["legal_moves"].as_array().unwrap();
    assert_eq!(legal.len(), 10, "{}", g[3]);
    assert!(legal.contains(&json!("*d2")), "{}", g[3]);
}

/// The GameType numbers the API document lists for `POST /v1/judge/pdn` are the ones the
/// catalogue accepts, each with its variant.
#[test]
fn documented_game_types_are_the_catalogues() {
    use arbiter_rules::catalogue::variant_for_game_type;
    let doc: Value = serde_json::from_str(&arbiter::openapi::document_json()).unwrap();
    let text = doc["paths"][PATH]["post"]["description"].as_str().unwrap();
    let list = text
        .split_once("`GameType` tag (")
        .and_then(|(_, rest)| rest.split_once(';'))
        .map(|(list, _)| list)
        .expect("the GameType list");
    let documented: Vec<(u32, String)> = list
        .split(',')
        .map(|item| {
            let (n, id) = item.trim().split_once(' ').expect("number and id");
            (n.parse().expect("number"), id.trim().to_string())
        })
        .collect();
    let catalogue: Vec<(u32, String)> = (0..99)
        .filter_map(|n| variant_for_game_type(n).map(|v| (n, v.id().to_string())))
        .collect();
    assert_eq!(documented, catalogue);
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words.contains("99, a game from a set-up position, is international"));
}

/// The warning codes of the deviations from the PDN 3.0 grammar (docs/pdn.md).
const GRAMMAR_CODES: [&str; 8] = [
    "nested-comment",
    "malformed-tag",
    "invalid-fen",
    "invalid-game-type",
    "non-standard-result",
    "malformed-move-number",
    "malformed-move",
    "not-in-grammar",
];

/// A game with a comment nested in a comment, a Russian result written with a colon and a
/// malformed move number: each a deviation from the PDN 3.0 grammar.
const NOT_PDN_3: &str = "[Event \"Club\"]\n[GameType \"20\"]\n\
                         1. 32-28 { nested { comment } } 19-23 2.. 28x19 14x23 2:0\n";

#[tokio::test]
async fn strict_reading_refuses_what_the_pdn_3_grammar_rejects() {
    let app = spawn_app().await;
    // Query parameter, text body: the first fault, where and under which rule.
    let res = app
        .post_raw(
            &format!("{PATH}?strict=true"),
            Some("text/plain"),
            NOT_PDN_3.as_bytes().to_vec(),
        )
        .await;
    let p = problem(res, 422, "pdn-syntax").await;
    assert_eq!(p["line"], 3, "{p}");
    assert_eq!(p["column"], 31, "{p}");
    assert_eq!(p["rule"], "Game", "{p}");
    let expected = p["expected"].as_array().unwrap();
    assert!(expected.contains(&json!("GameSeparator")), "{p}");
    assert!(expected.contains(&json!("COMMENT")), "{p}");
    assert!(
        p["detail"]
            .as_str()
            .unwrap()
            .starts_with("line 3, column 31: '}'"),
        "{p}"
    );
    // JSON body member; a tag that is not [Name "value"].
    let res = app
        .post_json(
            PATH,
            &json!({"pdn": "[Round 17]\n1. 32-28 *\n", "strict": true}),
        )
        .await;
    let p = problem(res, 422, "pdn-syntax").await;
    assert_eq!(
        (&p["line"], &p["column"], &p["rule"]),
        (&json!(1), &json!(8), &json!("PdnTag"))
    );
    assert_eq!(p["expected"], json!(["STRING"]));
    // A result outside the game type's set; a FEN tag outside the FEN grammar.
    for (text, line, column, rule) in [
        ("[GameType \"20\"]\n1. 32-28 1-0\n", 2, 10, "Result"),
        ("[FEN \"W:W31-50:B1-20:H0\"]\n1. 32-28 *\n", 1, 22, "Fen"),
    ] {
        let res = app
            .post_raw(
                &format!("{PATH}?strict=true"),
                Some("text/plain"),
                text.as_bytes().to_vec(),
            )
            .await;
        let p = problem(res, 422, "pdn-syntax").await;
        assert_eq!(
            (&p["line"], &p["column"], &p["rule"]),
            (&json!(line), &json!(column), &json!(rule)),
            "{text}: {p}"
        );
    }
    // The query parameter wins over the JSON member; a conforming file is judged as before.
    let res = app
        .post_json(
            &format!("{PATH}?strict=false"),
            &json!({"pdn": NOT_PDN_3, "strict": true}),
        )
        .await;
    assert_eq!(res.status(), 200);
    let body = judge_text(&app, "?strict=true", data("mixed.pdn")).await;
    assert_eq!(body["summary"]["judged"], 7, "{body}");
}

#[tokio::test]
async fn tolerant_reading_warns_of_every_deviation_from_the_grammar() {
    let app = spawn_app().await;
    let body = judge_text(&app, "", NOT_PDN_3.as_bytes().to_vec()).await;
    let g = &body["games"][0];
    assert_eq!(g["outcome"], "judged", "{g}");
    assert_eq!(g["plies"], 4, "{g}");
    let warnings: Vec<(&str, &str)> = g["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| (w["code"].as_str().unwrap(), w["detail"].as_str().unwrap()))
        .collect();
    let grammar: Vec<(&str, &str)> = warnings
        .iter()
        .filter(|(c, _)| {
            matches!(
                *c,
                "nested-comment" | "malformed-move-number" | "non-standard-result"
            )
        })
        .copied()
        .collect();
    assert_eq!(grammar.len(), 3, "{warnings:?}");
    assert_eq!(grammar[0].0, "nested-comment");
    assert!(
        grammar[0].1.starts_with("line 3, column 10: "),
        "{grammar:?}"
    );
    assert_eq!(grammar[1].0, "malformed-move-number");
    assert!(
        grammar[1].1.starts_with("line 3, column 39: "),
        "{grammar:?}"
    );
    assert_eq!(grammar[2].0, "non-standard-result");
    assert!(
        grammar[2].1.starts_with("line 3, column 55: "),
        "{grammar:?}"
    );
    // A conforming file: no grammar warning.
    let body = judge_text(
        &app,
        "",
        b"[GameType \"20\"]\n1. 32-28 19-23 2-0\n".to_vec(),
    )
    .await;
    assert_eq!(body["games"][0]["warnings"], json!([]), "{body}");
}

#[test]
fn the_cli_strict_flag_refuses_what_the_grammar_rejects() {
    let out = arbiter(&["judge", "--strict", "-"], Some(NOT_PDN_3.as_bytes()));
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 3, column 31"), "{err}");
    assert!(err.contains("rule Game"), "{err}");
    // Without it the file is judged, with the deviations as warnings.
    let out = arbiter(&["judge", "-"], Some(NOT_PDN_3.as_bytes()));
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let codes: Vec<&str> = v["games"][0]["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["code"].as_str().unwrap())
        .collect();
    assert!(codes.contains(&"nested-comment"), "{codes:?}");
}
