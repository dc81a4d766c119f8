//! `/judge` reports where each draw rule's count stands in the final position
//! (`draw_counters`). The expected counts come from the rules as the variants' descriptions
//! state them (`draw_rules`), counted by hand for each game.

use serde_json::{json, Value};

use crate::helpers::{ok_json, spawn_app, TestApp};

async fn judge(app: &TestApp, variant: &str, start: &str, moves: &[&str]) -> Value {
    ok_json(
        app.post_json(
            &format!("/v1/variants/{variant}/judge"),
            &json!({"start_position": start, "moves": moves}),
        )
        .await,
    )
    .await
}

/// The counters by code: (count, limit, unit, applies, mode).
fn counters(body: &Value) -> Vec<(String, u64, u64, String, bool, String)> {
    body["draw_counters"]
        .as_array()
        .expect("draw_counters")
        .iter()
        .map(|c| {
            (
                c["code"].as_str().unwrap().to_string(),
                c["count"].as_u64().unwrap(),
                c["limit"].as_u64().unwrap(),
                c["limit_unit"].as_str().unwrap().to_string(),
                c["applies"].as_bool().unwrap(),
                c["mode"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn row(
    code: &str,
    count: u64,
    limit: u64,
    unit: &str,
    applies: bool,
    mode: &str,
) -> (String, u64, u64, String, bool, String) {
    (code.into(), count, limit, unit.into(), applies, mode.into())
}

#[tokio::test]
async fn the_counters_follow_the_variants_draw_rules_in_their_order() {
    let app = spawn_app().await;
    // Every variant: one counter per draw rule, in the order of its description.
    let catalogue = ok_json(app.get("/v1/variants").await).await;
    for v in catalogue["variants"].as_array().unwrap() {
        let id = v["id"].as_str().unwrap();
        let body = judge(&app, id, v["start_position"].as_str().unwrap(), &[]).await;
        let rules = v["draw_rules"].as_array().unwrap();
        let got = counters(&body);
        assert_eq!(got.len(), rules.len(), "{id}");
        for (c, r) in got.iter().zip(rules) {
            assert_eq!(c.0, r["code"].as_str().unwrap(), "{id}");
            assert_eq!(c.2, r["limit"].as_u64().unwrap(), "{id}");
            assert_eq!(c.3, r["limit_unit"].as_str().unwrap(), "{id}");
            assert_eq!(c.5, r["mode"].as_str().unwrap(), "{id}");
            // The start position has occurred once; nothing else has been counted yet.
            let expected = if c.3 == "occurrences" { 1 } else { 0 };
            assert_eq!(c.1, expected, "{id}: {c:?}");
        }
    }
}

#[tokio::test]
async fn international_kings_count_plies_and_repetitions() {
    let app = spawn_app().await;
    // Two kings (a1, i1) against one (b10), White to move: four king moves bring the start
    // position back (its second occurrence); four plies with only kings moved; the
    // two-kings-against-one count (FMJD 6.4) runs from the start position.
    let moves = ["46-41", "1-6", "41-46", "6-1"];
    let body = judge(&app, "international", "W:WK46,K50:BK1", &moves).await;
    assert_eq!(body["verdict"], "undecided", "{body}");
    assert_eq!(
        counters(&body),
        vec![
            row("REPETITION", 2, 3, "occurrences", true, "automatic"),
            row("KINGS_25", 4, 50, "plies", true, "automatic"),
            row("ENDGAME_16", 0, 32, "plies", false, "automatic"),
            row("ENDGAME_5", 4, 10, "plies", true, "automatic"),
        ]
    );
    // A half-move clock in the FEN starts the king-move count there.
    let body = judge(&app, "international", "W:WK46,K50:BK1:H10:F30", &moves).await;
    let c = counters(&body);
    assert_eq!(c[1], row("KINGS_25", 14, 50, "plies", true, "automatic"));
    assert_eq!(c[3], row("ENDGAME_5", 4, 10, "plies", true, "automatic"));
    // A man move resets the king-move count.
    let body = judge(
        &app,
        "international",
        "W:WK46,50:BK1",
        &["46-41", "1-6", "50-45"],
    )
    .await;
    let c = counters(&body);
    assert_eq!(c[1], row("KINGS_25", 0, 50, "plies", true, "automatic"));
    // A king and a man against a king is a material of FMJD 6.4 too: its count runs on.
    assert_eq!(c[3], row("ENDGAME_5", 3, 10, "plies", true, "automatic"));
}

#[tokio::test]
async fn frisian_one_king_against_one_is_drawn_at_the_limit() {
    let app = spawn_app().await;
    let moves = ["46-41", "1-6", "41-46", "6-1"];
    let body = judge(&app, "frisian", "W:WK46:BK1", &moves[..3]).await;
    assert_eq!(body["verdict"], "undecided", "{body}");
    assert!(counters(&body).contains(&row("FRISIAN_1V1", 3, 4, "plies", true, "automatic")));
    let body = judge(&app, "frisian", "W:WK46:BK1", &moves).await;
    assert_eq!(body["verdict"], "draw", "{body}");
    assert_eq!(body["reason"]["code"], "FRISIAN_1V1");
    assert_eq!(body["decided_at_ply"], 4);
    assert!(counters(&body).contains(&row("FRISIAN_1V1", 4, 4, "plies", true, "automatic")));
    assert!(counters(&body).contains(&row("FRISIAN_2V1_7", 0, 14, "plies", false, "automatic")));
}
