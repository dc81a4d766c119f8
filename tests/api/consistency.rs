//! One vocabulary and one set of rules across the endpoints: plies counted from 1, declared
//! results and their agreement, unknown query parameters refused everywhere, error wording,
//! ordered move lists with capture counts, structured draw rules, finished positions.

use serde_json::{json, Value};

use crate::helpers::{notations, ok_json, problem, spawn_app};

#[tokio::test]
async fn unknown_query_parameters_are_refused_on_every_endpoint() {
    let app = spawn_app().await;
    let gets = [
        "/v1/variants?foo=bar",
        "/v1/variants/international?foo=bar",
        "/v1/variants/international/moves?foo=bar",
    ];
    for path in gets {
        let body = problem(app.get(path).await, 400, "invalid-query").await;
        assert!(
            body["detail"]
                .as_str()
                .unwrap()
                .contains("unknown parameter `foo`"),
            "{path}: {body}"
        );
    }
    let posts = [
        ("/v1/variants/international/moves?foo=bar", json!({})),
        (
            "/v1/variants/international/play?foo=bar",
            json!({"move": "32-28"}),
        ),
        (
            "/v1/variants/international/judge?foo=bar",
            json!({"moves": []}),
        ),
    ];
    for (path, body) in posts {
        problem(app.post_json(path, &body).await, 400, "invalid-query").await;
    }
    let res = app
        .post_raw(
            "/v1/judge/pdn?foo=bar",
            Some("text/plain"),
            b"1. 32-28 *".to_vec(),
        )
        .await;
    problem(res, 400, "invalid-query").await;
    // The parameters a resource does take still work.
    let res = app
        .post_raw(
            "/v1/judge/pdn?variant=international&result_convention=white-first",
            Some("text/plain"),
            b"1. 32-28 *".to_vec(),
        )
        .await;
    ok_json(res).await;
}

#[tokio::test]
async fn a_failing_move_is_named_by_its_1_based_ply_everywhere() {
    let app = spawn_app().await;
    let moves = json!(["32-28", "19-23", "28-22"]);
    let play = problem(
        app.post_json("/v1/variants/international/play", &json!({"moves": moves}))
            .await,
        422,
        "illegal-move",
    )
    .await;
    assert_eq!(play["ply"], 3, "{play}");
    assert!(play.get("index").is_none());
    assert!(play["detail"].as_str().unwrap().starts_with("ply 3 "));
    let judge = ok_json(
        app.post_json("/v1/variants/international/judge", &json!({"moves": moves}))
            .await,
    )
    .await;
    assert_eq!(judge["invalid_move"]["ply"], 3, "{judge}");
    let pdn = ok_json(
        app.post_raw(
            "/v1/judge/pdn",
            Some("text/plain"),
            b"[GameType \"20\"]\n1. 32-28 19-23 2. 28-22 *".to_vec(),
        )
        .await,
    )
    .await;
    assert_eq!(pdn["games"][0]["invalid_move"]["ply"], 3, "{pdn}");
}

#[tokio::test]
async fn judge_and_pdn_speak_of_declared_results_and_their_agreement() {
    let app = spawn_app().await;
    let judge = ok_json(
        app.post_json(
            "/v1/variants/international/judge",
            &json!({"start_position": "W:W28:B23", "moves": ["28x19"], "declared_result": "2-0"}),
        )
        .await,
    )
    .await;
    assert_eq!(judge["declared_result"], "2-0");
    assert_eq!(judge["agreement"]["agrees"], true, "{judge}");
    assert!(judge.get("claim").is_none());
    // The former name is still read.
    let old = ok_json(
        app.post_json(
            "/v1/variants/international/judge",
            &json!({"start_position": "W:W28:B23", "moves": ["28x19"], "claimed_result": "2-0"}),
        )
        .await,
    )
    .await;
    assert_eq!(old["agreement"], judge["agreement"]);
    let pdn = ok_json(
        app.post_raw(
            "/v1/judge/pdn",
            Some("text/plain"),
            b"[GameType \"20\"]\n[FEN \"W:W28:B23\"]\n[Result \"2-0\"]\n1. 28x19 2-0".to_vec(),
        )
        .await,
    )
    .await;
    let g = &pdn["games"][0];
    assert_eq!(g["declared_result"], "2-0");
    assert_eq!(g["agreement"]["agrees"], true, "{g}");
    // An unknown result is a value, not a "variant".
    let bad = problem(
        app.post_json(
            "/v1/variants/international/judge",
            &json!({"moves": [], "declared_result": "2-1"}),
        )
        .await,
        400,
        "invalid-body",
    )
    .await;
    let detail = bad["detail"].as_str().unwrap();
    assert!(detail.contains("unknown value `2-1`"), "{detail}");
    assert!(!detail.contains("variant"), "{detail}");
    assert_eq!(bad["field"], "declared_result");
}

#[tokio::test]
async fn not_found_reads_the_same_from_every_source() {
    let app = spawn_app().await;
    let a = problem(app.get("/nowhere").await, 404, "not-found").await;
    let b = problem(
        app.get("/swagger-ui/nothing-here.js").await,
        404,
        "not-found",
    )
    .await;
    assert_eq!(a["title"], "Not found");
    assert_eq!(b["title"], "Not found");
}

#[tokio::test]
async fn move_lists_are_ordered_and_count_their_captures() {
    let app = spawn_app().await;
    let english = ok_json(
        app.get("/v1/variants/english/moves?position=B:W21-32:B1-12")
            .await,
    )
    .await;
    assert_eq!(
        notations(&english),
        ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"]
    );
    let russian = ok_json(app.get("/v1/variants/russian/moves").await).await;
    assert_eq!(
        notations(&russian),
        ["a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"]
    );
    let body = ok_json(
        app.get("/v1/variants/international/moves?position=W:WK47:B14,19,29,31,42")
            .await,
    )
    .await;
    assert_eq!(
        notations(&body),
        ["47x38x20x9x36", "47x38x24x13x36"],
        "{body}"
    );
    for m in body["moves"].as_array().unwrap() {
        assert_eq!(m["captures"], 4);
        assert_eq!(m["captured"].as_array().unwrap().len(), 4);
    }
    assert_eq!(english["moves"][0]["captures"], 0);
}

#[tokio::test]
async fn draw_and_end_rules_are_lists_of_objects() {
    let app = spawn_app().await;
    let v = ok_json(app.get("/v1/variants/international").await).await;
    let draws = v["draw_rules"].as_array().expect("draw_rules");
    let codes: Vec<&str> = draws.iter().map(|d| d["code"].as_str().unwrap()).collect();
    assert_eq!(codes, ["REPETITION", "KINGS_25", "ENDGAME_16", "ENDGAME_5"]);
    assert_eq!(
        draws[0],
        json!({
            "code": "REPETITION",
            "mode": "automatic",
            "limit": 3,
            "limit_unit": "occurrences",
            "description": "the same position with the same side to move occurs 3 times",
            "source": "FMJD 6.1."
        })
    );
    assert_eq!(draws[1]["limit"], 50);
    assert_eq!(draws[1]["limit_unit"], "plies");
    assert!(v["end_rules"].as_array().unwrap().is_empty());
    let english = ok_json(app.get("/v1/variants/english").await).await;
    assert_eq!(english["draw_rules"][0]["mode"], "claimable");
    let bt = ok_json(app.get("/v1/variants/breakthrough").await).await;
    assert_eq!(bt["end_rules"][0]["code"], "KING_CROWNED");
    assert!(bt["draw_rules"].as_array().unwrap().is_empty());
    // No rule set is a pipe-joined string any more.
    let all: Value = ok_json(app.get("/v1/variants").await).await;
    for v in all["variants"].as_array().unwrap() {
        for (k, text) in v["rules"].as_object().unwrap() {
            assert!(!text.as_str().unwrap().contains(" | "), "{} {k}", v["id"]);
        }
    }
}

#[tokio::test]
async fn a_position_where_a_side_has_nothing_left_is_won() {
    let app = spawn_app().await;
    let body = ok_json(
        app.get("/v1/variants/international/moves?position=W:W28:B")
            .await,
    )
    .await;
    assert_eq!(
        body["status"],
        json!({"state": "white_wins", "reason": "NO_PIECES"})
    );
    assert!(body["moves"].as_array().unwrap().is_empty());
    let anti = ok_json(
        app.get("/v1/variants/antidraughts/moves?position=W:W28:B")
            .await,
    )
    .await;
    assert_eq!(anti["status"]["state"], "black_wins");
    let judged = ok_json(
        app.post_json(
            "/v1/variants/international/judge",
            &json!({"start_position": "W:W28:B", "moves": []}),
        )
        .await,
    )
    .await;
    assert_eq!(judged["verdict"], "white_wins");
    assert_eq!(judged["reason"]["code"], "NO_PIECES");
    assert_eq!(judged["decided_at_ply"], 0);
}
