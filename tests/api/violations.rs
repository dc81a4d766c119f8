//! Illegal moves explain themselves over HTTP: `violation` (and `precedence`) on the problem of
//! `/play` and `/diagram`, on `/judge`'s `invalid_move` and on each PDN game's. The expected
//! codes follow the rules cited at each case.

use serde_json::{json, Value};

use crate::helpers::{ok_json, problem, spawn_app, TestApp};

async fn play_problem(app: &TestApp, variant: &str, body: Value, code: &str) -> Value {
    problem(
        app.post_json(&format!("/v1/variants/{variant}/play"), &body)
            .await,
        422,
        code,
    )
    .await
}

#[tokio::test]
async fn play_names_the_rule_an_illegal_move_breaks() {
    let app = spawn_app().await;
    // FMJD art. 4.1: capturing is compulsory (after 32-28 19-23, 28x19 is a capture).
    let body = play_problem(
        &app,
        "international",
        json!({"moves": ["32-28", "19-23", "28-22"]}),
        "illegal-move",
    )
    .await;
    assert_eq!(body["violation"], "capture-compulsory", "{body}");
    assert_eq!(body["ply"], 3);
    assert_eq!(body["legal_moves"], json!(["28x19"]));
    assert!(body["precedence"].is_null(), "{body}");
    assert!(
        body["reason"].as_str().unwrap().contains("compulsory"),
        "{body}"
    );

    // FMJD art. 4.13: the capture of the most pieces (32x21x12 takes two, 34x23 one).
    let body = play_problem(
        &app,
        "international",
        json!({"position": "W:W32,33,34:B27,17,29", "move": "34x23"}),
        "illegal-move",
    )
    .await;
    assert_eq!(body["violation"], "capture-precedence", "{body}");
    assert_eq!(body["precedence"], "most-pieces", "{body}");

    // WCDF: a man captures forward only (Black moves towards 32).
    let body = play_problem(
        &app,
        "english",
        json!({"position": "B:W14:B18", "move": "18x9"}),
        "illegal-move",
    )
    .await;
    assert_eq!(body["violation"], "wrong-direction", "{body}");

    // Turkish: no 180° turn within a capture.
    let body = play_problem(
        &app,
        "turkish",
        json!({"position": "W:WKd4:Bd6,d2,a8", "move": "d4xd7xd1"}),
        "illegal-move",
    )
    .await;
    assert_eq!(body["violation"], "capture-reversal", "{body}");

    // Vilbergen (Hungarian booklet): the stones in hand are dropped first.
    let body = play_problem(&app, "vilbergen", json!({"move": "a1-a2"}), "illegal-move").await;
    assert_eq!(body["violation"], "drop-required", "{body}");

    // The board has 50 squares: the move cannot be read, and says why.
    let body = play_problem(
        &app,
        "international",
        json!({"move": "32-51"}),
        "unparsable-move",
    )
    .await;
    assert_eq!(body["violation"], "no-such-square", "{body}");
}

#[tokio::test]
async fn frisian_king_move_limit_through_play() {
    let app = spawn_app().await;
    // Frisian: while its side has men, the same king makes at most three non-capturing
    // moves in a row; the fourth (ply 7) is refused.
    let body = play_problem(
        &app,
        "frisian",
        json!({
            "position": "W:WK46,50:BK1,5",
            "moves": ["46-41", "1-6", "41-46", "6-1", "46-41", "1-6", "41-46"]
        }),
        "illegal-move",
    )
    .await;
    assert_eq!(body["ply"], 7, "{body}");
    assert_eq!(body["violation"], "king-move-limit", "{body}");
}

#[tokio::test]
async fn judge_and_pdn_carry_the_violation() {
    let app = spawn_app().await;
    let body = ok_json(
        app.post_json(
            "/v1/variants/international/judge",
            &json!({"moves": ["32-28", "19-23", "28-22"]}),
        )
        .await,
    )
    .await;
    assert_eq!(body["verdict"], "invalid", "{body}");
    let bad = &body["invalid_move"];
    assert_eq!(bad["ply"], 3, "{bad}");
    assert_eq!(bad["violation"], "capture-compulsory", "{bad}");

    let pdn = "[GameType \"20\"]\n1. 32-28 19-23 2. 28-22 *\n\n\
               [GameType \"20\"]\n[FEN \"W:W32,33,34:B27,17,29\"]\n1. 34x23 *\n";
    let body = ok_json(
        app.post_raw("/v1/judge/pdn", Some("text/plain"), pdn.as_bytes().to_vec())
            .await,
    )
    .await;
    let games = body["games"].as_array().expect("games");
    assert_eq!(games.len(), 2, "{body}");
    let first = &games[0]["invalid_move"];
    assert_eq!(first["violation"], "capture-compulsory", "{first}");
    let second = &games[1]["invalid_move"];
    assert_eq!(second["violation"], "capture-precedence", "{second}");
    assert_eq!(second["precedence"], "most-pieces", "{second}");
}

#[tokio::test]
async fn the_diagram_of_an_illegal_move_says_why() {
    let app = spawn_app().await;
    // FMJD art. 3.3: a man steps one square diagonally forward; 32-23 goes two.
    let body = problem(
        app.get("/v1/variants/international/diagram?move=32-23")
            .await,
        422,
        "illegal-move",
    )
    .await;
    assert_eq!(body["violation"], "too-far", "{body}");
}

/// The API document lists every code with its meaning, and the problem refers to it.
#[tokio::test]
async fn the_api_document_lists_every_code() {
    let app = spawn_app().await;
    let doc = ok_json(app.get("/api-docs/openapi.json").await).await;
    let schema = &doc["components"]["schemas"]["Violation"];
    let codes: Vec<&str> = schema["enum"]
        .as_array()
        .expect("the codes")
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    let description = schema["description"].as_str().unwrap();
    for code in [
        "no-such-square",
        "no-piece",
        "not-a-piece-of-the-side-to-move",
        "destination-occupied",
        "wrong-direction",
        "capture-compulsory",
        "capture-precedence",
        "capture-incomplete",
        "king-move-limit",
        "not-a-legal-move",
    ] {
        assert!(codes.contains(&code), "{code}");
        assert!(description.contains(&format!("`{code}`: ")), "{code}");
    }
    let problem = doc["components"]["schemas"]["Problem"].to_string();
    assert!(
        problem.contains("#/components/schemas/Violation"),
        "{problem}"
    );
    assert!(
        problem.contains("#/components/schemas/PrecedenceRule"),
        "{problem}"
    );
}
