//! Every variant of the catalogue through every game endpoint: a game made of the moves
//! `/moves` lists is played by `/play`, judged by `/judge` and adjudicated as a PDN file by
//! `/v1/judge/pdn`, and all three agree on how the game ends; `/perft` splits the start and
//! the last position of the game by the moves `/moves` lists. The catalogue is read from
//! `GET /v1/variants`, so a variant added later is covered without touching this test.

use serde_json::{json, Value};

use crate::helpers::{ok_json, spawn_app, TestApp};

/// Plies per game: through the drop phases and the opening removals into normal play.
const PLIES: usize = 24;

/// `/perft` of a position with the split, in both conventions: the split is the moves of
/// `/moves`, in its order and notation; it adds up to the total; depth 1 counts the moves;
/// counting every route counts at least as many.
async fn check_perft(app: &TestApp, id: &str, fen: &str, listed: &Value) {
    let moves: Vec<&Value> = listed["moves"].as_array().expect("moves").iter().collect();
    let mut totals = Vec::new();
    for keep in ["false", "true"] {
        let res = app
            .client
            .get(app.url(&format!("/v1/variants/{id}/perft")))
            .query(&[
                ("position", fen),
                ("depth", "2"),
                ("divide", "true"),
                ("keep", keep),
            ])
            .send()
            .await
            .expect("request sent");
        let body = ok_json(res).await;
        let split = body["divide"].as_array().expect("divide");
        let names: Vec<&Value> = split.iter().map(|m| &m["move"]).collect();
        let listed: Vec<&Value> = moves.iter().map(|m| &m["notation"]).collect();
        assert_eq!(names, listed, "{id} {fen} keep={keep}: {body}");
        let sum: u64 = split.iter().map(|m| m["nodes"].as_u64().unwrap()).sum();
        assert_eq!(body["nodes"], sum, "{id} {fen} keep={keep}: {body}");
        if keep == "false" {
            assert_eq!(body["nodes_by_depth"][0], moves.len(), "{id} {fen}: {body}");
        }
        totals.push(sum);
    }
    assert!(totals[1] >= totals[0], "{id} {fen}: {totals:?}");
}

/// POSTs a JSON body and returns the 200 answer's JSON.
async fn post(app: &TestApp, path: &str, body: Value) -> Value {
    ok_json(app.post_json(path, &body).await).await
}

#[tokio::test]
async fn every_variant_is_played_judged_and_adjudicated_alike() {
    let app = spawn_app().await;
    let catalogue = ok_json(app.get("/v1/variants").await).await;
    let ids: Vec<String> = catalogue
        .as_array()
        .or_else(|| catalogue["variants"].as_array())
        .expect("the catalogue is a list")
        .iter()
        .map(|v| v["id"].as_str().expect("id").to_string())
        .collect();
    assert!(ids.len() >= 35, "{ids:?}");
    for id in &ids {
        let start = ok_json(app.get(&format!("/v1/variants/{id}")).await).await;
        let mut fen = start["start_position"].as_str().unwrap().to_string();
        let mut moves: Vec<String> = Vec::new();
        let mut finished = None;
        for ply in 0..PLIES {
            let listed = post(
                &app,
                &format!("/v1/variants/{id}/moves"),
                json!({ "position": fen }),
            )
            .await;
            if ply == 0 || ply == PLIES - 1 {
                check_perft(&app, id, &fen, &listed).await;
            }
            let list = listed["moves"].as_array().expect("moves");
            if list.is_empty() {
                finished = Some(listed["status"].clone());
                break;
            }
            // A spread of choices, not always the first move.
            let m = &list[(ply * 7 + 3) % list.len()];
            let text = m["notation"].as_str().expect("notation").to_string();
            fen = m["resulting_position"].as_str().unwrap().to_string();
            moves.push(text);
        }
        assert!(!moves.is_empty(), "{id}: no legal move at the start");

        // /play, the whole game at once.
        let played = post(
            &app,
            &format!("/v1/variants/{id}/play"),
            json!({ "moves": moves }),
        )
        .await;
        assert_eq!(played["position"], fen.as_str(), "{id}: /play {moves:?}");

        // /judge.
        let judged = post(
            &app,
            &format!("/v1/variants/{id}/judge"),
            json!({ "moves": moves }),
        )
        .await;
        assert_ne!(judged["verdict"], "invalid", "{id}: {judged}");
        assert_eq!(judged["moves"], json!(moves), "{id}: {judged}");
        assert_eq!(judged["plies"], moves.len(), "{id}: {judged}");
        assert_eq!(judged["warnings"], json!([]), "{id}: {judged}");
        // Undecided games end where /moves said they would; a decided one ends on a ply of
        // the game (a rule may fire before the moves run out, e.g. a goal point or a draw).
        match judged["decided_at_ply"].as_u64() {
            None => {
                assert_eq!(judged["final_position"], fen.as_str(), "{id}: {judged}");
                assert_eq!(judged["verdict"], "undecided", "{id}: {judged}");
            }
            Some(ply) => assert!(ply as usize <= moves.len(), "{id}: {judged}"),
        }
        if let Some(status) = &finished {
            // The game ran out of moves: /moves said why, and the judge says the same.
            assert_ne!(status["state"], "ongoing", "{id}: {status}");
            assert_eq!(
                judged["reason"]["code"], status["reason"],
                "{id}: {judged} {status}"
            );
        }

        // /v1/judge/pdn, the same game as a PDN file naming the variant by its id.
        let mut text = String::from("[Event \"every endpoint\"]\n[Result \"*\"]\n\n");
        for (i, m) in moves.iter().enumerate() {
            if i % 2 == 0 {
                text.push_str(&format!("{}. ", i / 2 + 1));
            }
            text.push_str(m);
            text.push(' ');
        }
        text.push_str("*\n");
        let file = ok_json(
            app.post_raw(
                &format!("/v1/judge/pdn?variant={id}"),
                Some("text/plain"),
                text.clone().into_bytes(),
            )
            .await,
        )
        .await;
        let game = &file["games"][0];
        assert_eq!(game["outcome"], "judged", "{id}: {text}\n{game}");
        assert_eq!(game["variant"], id.as_str(), "{id}: {game}");
        for key in [
            "verdict",
            "reason",
            "decided_at_ply",
            "plies",
            "final_position",
        ] {
            assert_eq!(game[key], judged[key], "{id}: {key}: {text}\n{game}");
        }
    }
}
