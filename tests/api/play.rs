use serde_json::json;

use crate::helpers::{ok_json, problem, spawn_app};

#[tokio::test]
async fn one_move_from_the_start() {
    let app = spawn_app().await;
    let body = ok_json(
        app.post_json("/v1/variants/international/play", &json!({"move": "32-28"}))
            .await,
    )
    .await;
    assert_eq!(body["moves"], json!(["32-28"]));
    assert_eq!(body["side_to_move"], "black");
    assert_eq!(body["status"]["state"], "ongoing");
    let pos = body["position"].as_str().unwrap();
    assert!(pos.starts_with("B:W28,31,33,"), "{pos}");
    // The new position has 9 legal moves for Black.
    let next = ok_json(
        app.post_json(
            "/v1/variants/international/moves",
            &json!({"position": pos}),
        )
        .await,
    )
    .await;
    assert_eq!(next["moves"].as_array().unwrap().len(), 9);
}

#[tokio::test]
async fn a_sequence_of_moves_with_a_capture() {
    let app = spawn_app().await;
    let body = ok_json(
        app.post_json(
            "/v1/variants/international/play",
            &json!({"position": "W:W31-50:B1-20", "moves": ["32-28", "19-23", "28x19", "14x23"]}),
        )
        .await,
    )
    .await;
    assert_eq!(body["moves"], json!(["32-28", "19-23", "28x19", "14x23"]));
    assert_eq!(body["side_to_move"], "white");
    let pos = body["position"].as_str().unwrap();
    assert!(pos.contains(",23"), "{pos}");
    assert!(!pos.contains(",14,"), "{pos}");
}

#[tokio::test]
async fn long_form_is_accepted_and_answered_canonically() {
    let app = spawn_app().await;
    let body = ok_json(
        app.post_json(
            "/v1/variants/international/play",
            &json!({"position": "W:WK47:B14,19,29,31,42", "move": "47x38x24x13x36"}),
        )
        .await,
    )
    .await;
    assert_eq!(body["moves"], json!(["47x38x24x13x36"]));
    assert_eq!(body["position"], "B:WK36:B14");
}

#[tokio::test]
async fn english_opening() {
    let app = spawn_app().await;
    let body = ok_json(
        app.post_json(
            "/v1/variants/english/play",
            &json!({"moves": ["11-15", "23-19", "8-11", "22-17"]}),
        )
        .await,
    )
    .await;
    assert_eq!(body["side_to_move"], "black");
    assert_eq!(body["moves"].as_array().unwrap().len(), 4);
}

#[tokio::test]
async fn illegal_move_is_a_422_with_index_and_legal_moves() {
    let app = spawn_app().await;
    let body = problem(
        app.post_json(
            "/v1/variants/international/play",
            &json!({"moves": ["32-28", "19-23", "28-22"]}),
        )
        .await,
        422,
        "illegal-move",
    )
    .await;
    assert_eq!(body["move"], "28-22");
    assert_eq!(body["ply"], 3);
    assert_eq!(body["legal_moves"], json!(["28x19"]));
    assert!(
        body["reason"].as_str().unwrap().contains("compulsory"),
        "{body}"
    );
}

#[tokio::test]
async fn ambiguous_move_lists_the_candidates() {
    let app = spawn_app().await;
    let body = problem(
        app.post_json(
            "/v1/variants/international/play",
            &json!({"position": "W:WK47:B14,19,29,31,42", "move": "47x36"}),
        )
        .await,
        422,
        "ambiguous-move",
    )
    .await;
    assert_eq!(body["move"], "47x36");
    assert_eq!(body["ply"], 1);
    let mut c: Vec<&str> = body["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    c.sort();
    assert_eq!(c, vec!["47x38x20x9x36", "47x38x24x13x36"]);
    assert_eq!(body["legal_moves"].as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn unparsable_move_is_a_422() {
    let app = spawn_app().await;
    for text in ["hello", "32-99", ""] {
        let body = problem(
            app.post_json("/v1/variants/international/play", &json!({"move": text}))
                .await,
            422,
            "unparsable-move",
        )
        .await;
        assert_eq!(body["move"], text);
        assert_eq!(body["ply"], 1);
        assert_eq!(body["legal_moves"].as_array().unwrap().len(), 9);
    }
}

#[tokio::test]
async fn move_and_moves_together_or_neither_is_a_400() {
    let app = spawn_app().await;
    let path = "/v1/variants/international/play";
    problem(
        app.post_json(path, &json!({"move": "32-28", "moves": ["32-28"]}))
            .await,
        400,
        "invalid-body",
    )
    .await;
    problem(app.post_json(path, &json!({})).await, 400, "invalid-body").await;
    problem(
        app.post_raw(path, None, Vec::new()).await,
        400,
        "invalid-body",
    )
    .await;
}

#[tokio::test]
async fn more_than_1000_moves_is_a_422_naming_the_bound() {
    let app = spawn_app().await;
    let moves: Vec<&str> = std::iter::repeat_n("32-28", 1001).collect();
    let body = problem(
        app.post_json("/v1/variants/international/play", &json!({"moves": moves}))
            .await,
        422,
        "too-many-moves",
    )
    .await;
    assert_eq!(body["limit"], 1000);
    assert!(body["detail"].as_str().unwrap().contains("1000"));
}

/// Breakthrough: the crowning move's answer is a finished game whose position reads back (no
/// moves, the same status), but no game may start from it.
#[tokio::test]
async fn a_crowning_in_breakthrough_ends_the_game_and_its_position_reads_back() {
    let app = spawn_app().await;
    let body = ok_json(
        app.post_json(
            "/v1/variants/breakthrough/play",
            &json!({"position": "W:W9:B45", "move": "9-4"}),
        )
        .await,
    )
    .await;
    assert_eq!(body["status"]["state"], "white_wins", "{body}");
    assert_eq!(body["status"]["reason"], "KING_CROWNED", "{body}");
    let pos = body["position"].as_str().unwrap();
    assert_eq!(pos, "B:WK4:B45");
    let after = ok_json(
        app.post_json("/v1/variants/breakthrough/moves", &json!({"position": pos}))
            .await,
    )
    .await;
    assert_eq!(after["moves"], json!([]), "{after}");
    assert_eq!(after["status"]["state"], "white_wins", "{after}");
    assert_eq!(after["status"]["reason"], "KING_CROWNED", "{after}");
    let judged = problem(
        app.post_json(
            "/v1/variants/breakthrough/judge",
            &json!({"start_position": pos, "moves": []}),
        )
        .await,
        400,
        "invalid-position",
    )
    .await;
    assert!(
        judged["detail"].as_str().unwrap().contains("KING_CROWNED"),
        "{judged}"
    );
    // Kings of both sides: the first crowning ends the game, so no game reaches this.
    problem(
        app.post_json(
            "/v1/variants/breakthrough/moves",
            &json!({"position": "W:WK4:BK45"}),
        )
        .await,
        400,
        "invalid-position",
    )
    .await;
}

/// Drop games: the start holds every stone in hand (the FEN's S field), `/play` takes drops as
/// `*c2` (or `@c2`) and counts the stones down; a FEN that gives a side more stones than it
/// has, or stones in hand to a variant without drops, is a 400.
#[tokio::test]
async fn drops_fill_the_board_from_the_hands() {
    let app = spawn_app().await;
    let body = ok_json(
        app.post_json(
            "/v1/variants/lahti/play",
            &json!({"moves": ["*c2", "@a1", "*e2"]}),
        )
        .await,
    )
    .await;
    assert_eq!(body["moves"], json!(["*c2", "*a1", "*e2"]), "{body}");
    assert_eq!(body["position"], "B:Wc2,e2:Ba1:S2,3", "{body}");
    assert_eq!(body["status"]["state"], "ongoing", "{body}");
    let listed = ok_json(
        app.post_json(
            "/v1/variants/lahti/moves",
            &json!({"position": body["position"]}),
        )
        .await,
    )
    .await;
    let moves = listed["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 7, "{listed}");
    assert!(moves
        .iter()
        .all(|m| m["notation"].as_str().unwrap().starts_with('*') && m["from"] == m["to"]));
    for fen in ["W:Wa1,b1,c1,d1:B:S1,4", "W:W31-50:B1-20:S1,1"] {
        let id = if fen.contains('-') {
            "international"
        } else {
            "vilbergen"
        };
        let p = problem(
            app.post_json(
                &format!("/v1/variants/{id}/moves"),
                &json!({"position": fen}),
            )
            .await,
            400,
            "invalid-position",
        )
        .await;
        assert!(p["detail"].as_str().unwrap().contains("stones"), "{p}");
    }
}

/// Hageby: a blocked side's only move is `pass` (no squares: `from` and `to` are null), which
/// `/play` and `/judge` accept.
#[tokio::test]
async fn a_blocked_side_passes_in_hageby() {
    let app = spawn_app().await;
    let fen = "W:We2:Ba3,d3,c2,d2,e1";
    let listed = ok_json(
        app.post_json("/v1/variants/hageby/moves", &json!({"position": fen}))
            .await,
    )
    .await;
    assert_eq!(listed["moves"].as_array().unwrap().len(), 1, "{listed}");
    let pass = &listed["moves"][0];
    assert_eq!(pass["notation"], "pass", "{listed}");
    assert!(pass["from"].is_null() && pass["to"].is_null(), "{listed}");
    assert_eq!(pass["route"], json!([]), "{listed}");
    assert_eq!(pass["resulting_position"], "B:We2:Be1,c2,d2,a3,d3");
    let played = ok_json(
        app.post_json(
            "/v1/variants/hageby/play",
            &json!({"position": fen, "moves": ["PASS", "d2-d1"]}),
        )
        .await,
    )
    .await;
    assert_eq!(played["moves"], json!(["pass", "d2-d1"]), "{played}");
    let judged = ok_json(
        app.post_json(
            "/v1/variants/hageby/judge",
            &json!({"start_position": fen, "moves": ["pass", "d2-d1", "e2-d2"]}),
        )
        .await,
    )
    .await;
    assert_eq!(judged["verdict"], "white_wins", "{judged}");
    assert_eq!(judged["reason"]["code"], "LAST_STONE_ON_GOAL", "{judged}");
    // A side that can move may not pass.
    problem(
        app.post_json(
            "/v1/variants/hageby/play",
            &json!({"position": "B:We2:Be1,c2,d2,a3,d3", "move": "pass"}),
        )
        .await,
        422,
        "illegal-move",
    )
    .await;
}
