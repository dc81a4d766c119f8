//! `GET /v1/variants/{variant}/perft`: published perft figures, divide against `/moves`, the
//! two route conventions, the budget and the depth it reaches, and the refusals.

use arbiter::config::Config;
use arbiter::config::EngineConfig;
use serde_json::Value;

use crate::helpers::{notations, ok_json, problem, spawn_app, spawn_app_with, TestApp};

/// GET perft with these query parameters.
async fn perft(app: &TestApp, variant: &str, query: &[(&str, &str)]) -> reqwest::Response {
    app.client
        .get(app.url(&format!("/v1/variants/{variant}/perft")))
        .query(query)
        .send()
        .await
        .expect("request sent")
}

/// The moves `/moves` lists for a position, in its order and notation.
async fn listed(app: &TestApp, variant: &str, fen: Option<&str>) -> Vec<String> {
    let mut req = app
        .client
        .get(app.url(&format!("/v1/variants/{variant}/moves")));
    if let Some(fen) = fen {
        req = req.query(&[("position", fen)]);
    }
    notations(&ok_json(req.send().await.unwrap()).await)
}

/// Published figures from the start positions, as `rules/tests/data/perft.txt` lists them
/// with their sources (dctl's perft tests and the FMJD forum threads they cite, Aart Bik,
/// OEIS A133046; Turkish: the `kish` crate with duplicate routes merged). International,
/// English, Russian and Turkish are counted by the narrow generator, Frisian by the general
/// one.
#[tokio::test]
async fn published_figures_by_depth() {
    let app = spawn_app().await;
    let table: [(&str, &[u64]); 5] = [
        ("international", &[9, 81, 658, 4265, 27117]),
        ("english", &[7, 49, 302, 1469, 7361]),
        ("russian", &[7, 49, 302, 1469, 7482]),
        ("turkish", &[8, 64, 708, 7538]),
        ("frisian", &[9, 81, 658, 3874]),
    ];
    for (id, figures) in table {
        let depth = figures.len().to_string();
        let body = ok_json(perft(&app, id, &[("depth", &depth)]).await).await;
        assert_eq!(body["variant"], id, "{body}");
        assert_eq!(body["depth"], figures.len(), "{body}");
        assert_eq!(body["keep"], false, "{body}");
        assert_eq!(body["nodes"], *figures.last().unwrap(), "{id}: {body}");
        let by_depth: Vec<u64> = serde_json::from_value(body["nodes_by_depth"].clone()).unwrap();
        assert_eq!(by_depth, figures, "{id}");
        assert!(body.get("divide").is_none(), "{body}");
        // The start position, written out.
        let described = ok_json(app.get(&format!("/v1/variants/{id}")).await).await;
        assert_eq!(body["position"], described["start_position"], "{id}");
    }
    // The same count from the start position given as a FEN.
    let body = ok_json(
        perft(
            &app,
            "english",
            &[("position", "B:W21-32:B1-12"), ("depth", "4")],
        )
        .await,
    )
    .await;
    assert_eq!(body["nodes"], 1469, "{body}");
}

/// Checks a divide answer against `/moves` and its total; returns it by move.
async fn check_divide(app: &TestApp, variant: &str, fen: Option<&str>, body: &Value) {
    let split = body["divide"].as_array().expect("divide");
    let moves: Vec<String> = split
        .iter()
        .map(|m| m["move"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(moves, listed(app, variant, fen).await, "{variant}: {body}");
    let sum: u64 = split.iter().map(|m| m["nodes"].as_u64().unwrap()).sum();
    assert_eq!(sum, body["nodes"].as_u64().unwrap(), "{variant}: {body}");
}

#[tokio::test]
async fn divide_lists_the_moves_of_moves_and_adds_up_to_the_total() {
    let app = spawn_app().await;
    let cases: [(&str, Option<&str>, &str); 5] = [
        ("international", None, "3"),
        // PDN 3.0's capture example: a king with captures reached by several routes.
        ("international", Some("W:WK47:B14,19,29,31,42"), "3"),
        ("russian", Some("W:Wc3,e3,g3:Bd4,f6,h6"), "4"),
        ("frisian", None, "3"),
        ("hageby", None, "2"),
    ];
    for (id, fen, depth) in cases {
        let mut query = vec![("depth", depth), ("divide", "true")];
        if let Some(fen) = fen {
            query.push(("position", fen));
        }
        let body = ok_json(perft(&app, id, &query).await).await;
        check_divide(&app, id, fen, &body).await;
        // The same total without the split.
        query.retain(|(k, _)| *k != "divide");
        let plain = ok_json(perft(&app, id, &query).await).await;
        assert_eq!(plain["nodes"], body["nodes"], "{id}");
        assert_eq!(plain["nodes_by_depth"], body["nodes_by_depth"], "{id}");
    }
    // English start, depth 2: every first move has the same seven replies.
    let body = ok_json(perft(&app, "english", &[("depth", "2"), ("divide", "true")]).await).await;
    for m in body["divide"].as_array().unwrap() {
        assert_eq!(m["nodes"], 7, "{body}");
        assert!(m.get("routes").is_none(), "{body}");
    }
}

#[tokio::test]
async fn depth_zero_is_the_position_itself() {
    let app = spawn_app().await;
    let body = ok_json(
        perft(
            &app,
            "international",
            &[("depth", "0"), ("divide", "true"), ("keep", "true")],
        )
        .await,
    )
    .await;
    assert_eq!(body["nodes"], 1, "{body}");
    assert_eq!(body["nodes_by_depth"], serde_json::json!([]), "{body}");
    assert_eq!(body["divide"], serde_json::json!([]), "{body}");
}

/// "Keep duplicates" counts every capture route: from Frisian's start the columns part at
/// depth 4 (dctl board_10x10.cpp: 3 874 moves, 3 880 routes); a man that takes four pieces
/// round a square can go either way round, two routes of one move.
#[tokio::test]
async fn keep_counts_every_capture_route() {
    let app = spawn_app().await;
    let drop = ok_json(perft(&app, "frisian", &[("depth", "4")]).await).await;
    let keep = ok_json(perft(&app, "frisian", &[("depth", "4"), ("keep", "true")]).await).await;
    assert_eq!(drop["nodes"], 3874, "{drop}");
    assert_eq!(keep["nodes"], 3880, "{keep}");
    assert_eq!(keep["keep"], true, "{keep}");
    assert_eq!(
        keep["nodes_by_depth"],
        serde_json::json!([9, 81, 658, 3880])
    );
    let split = ok_json(
        perft(
            &app,
            "frisian",
            &[("depth", "4"), ("keep", "true"), ("divide", "true")],
        )
        .await,
    )
    .await;
    check_divide(&app, "frisian", None, &split).await;

    // 38 takes 32, 22, 23 and 33 and comes back to 38, by 27-18-29 or by 29-18-27.
    let ring = "W:W38:B1,22,23,32,33";
    for (keep, nodes) in [("false", 2), ("true", 4)] {
        let body = ok_json(
            perft(
                &app,
                "international",
                &[
                    ("position", ring),
                    ("depth", "2"),
                    ("divide", "true"),
                    ("keep", keep),
                ],
            )
            .await,
        )
        .await;
        assert_eq!(body["nodes"], nodes, "{body}");
        let moves = body["divide"].as_array().unwrap();
        assert_eq!(moves.len(), 1, "{body}");
        assert_eq!(moves[0]["move"], "38x38", "{body}");
        assert_eq!(moves[0]["nodes"], nodes, "{body}");
        if keep == "true" {
            assert_eq!(moves[0]["routes"], 2, "{body}");
        } else {
            assert!(moves[0].get("routes").is_none(), "{body}");
        }
        check_divide(&app, "international", Some(ring), &body).await;
    }
}

/// Over the budget: 422 `budget-exceeded` with the depth the budget reaches, and a request
/// for that depth is answered (with or without the split).
#[tokio::test]
async fn over_budget_says_how_deep_the_budget_reaches() {
    let app = spawn_app_with(Config {
        workers: Some(1),
        engine: EngineConfig {
            work_budget: 100_000,
            ..EngineConfig::default()
        },
        ..Config::new("127.0.0.1:0")
    })
    .await;
    // International from the start: depth 7 alone has over a million leaves.
    let published = [9u64, 81, 658, 4265, 27117, 167140, 1049442];
    for divide in ["false", "true"] {
        let body = problem(
            perft(&app, "international", &[("depth", "7"), ("divide", divide)]).await,
            422,
            "budget-exceeded",
        )
        .await;
        assert_eq!(body["limit"], 100_000, "{body}");
        assert_eq!(body["field"], "depth", "{body}");
        let reached = body["reachable_depth"].as_u64().expect("reachable_depth");
        assert!((3..7).contains(&reached), "{body}");
        assert!(
            body["detail"]
                .as_str()
                .unwrap()
                .contains(&format!("reaches depth {reached}")),
            "{body}"
        );
        let depth = reached.to_string();
        let ok = ok_json(
            perft(
                &app,
                "international",
                &[("depth", &depth), ("divide", divide)],
            )
            .await,
        )
        .await;
        assert_eq!(ok["nodes"], published[reached as usize - 1], "{ok}");
        // One ply deeper is over the budget again, and reaches as deep.
        let deeper = (reached + 1).to_string();
        let again = problem(
            perft(
                &app,
                "international",
                &[("depth", &deeper), ("divide", divide)],
            )
            .await,
            422,
            "budget-exceeded",
        )
        .await;
        assert_eq!(again["reachable_depth"], reached, "{again}");
    }
}

#[tokio::test]
async fn bad_parameters_are_400s_naming_the_parameter() {
    let app = spawn_app().await;
    let cases: [(&[(&str, &str)], &str); 7] = [
        (&[], "depth"),
        (&[("depth", "31")], "depth"),
        (&[("depth", "-1")], "depth"),
        (&[("depth", "three")], "depth"),
        (&[("depth", "2"), ("divide", "yes")], "divide"),
        (&[("depth", "2"), ("keep", "1")], "keep"),
        (&[("depth", "2"), ("fen", "W:W31-50:B1-20")], "fen"),
    ];
    for (query, name) in cases {
        let body = problem(
            perft(&app, "international", query).await,
            400,
            "invalid-query",
        )
        .await;
        assert!(
            body["detail"].as_str().unwrap().contains(name),
            "{query:?}: {body}"
        );
    }
    // The deepest depth is accepted (and answered at once for a position without moves).
    let body = ok_json(
        perft(
            &app,
            "international",
            &[("position", "W:W46:B37,41"), ("depth", "30")],
        )
        .await,
    )
    .await;
    assert_eq!(body["nodes"], 0, "{body}");
    let body = problem(
        perft(
            &app,
            "international",
            &[("position", "W:W99"), ("depth", "1")],
        )
        .await,
        400,
        "invalid-position",
    )
    .await;
    assert_eq!(body["field"], "position", "{body}");
    problem(
        perft(&app, "chess", &[("depth", "1")]).await,
        404,
        "unknown-variant",
    )
    .await;
}

/// The answer the API document shows is the server's answer.
#[tokio::test]
async fn the_documented_answer_is_the_real_one() {
    let app = spawn_app().await;
    let doc = ok_json(app.get("/api-docs/openapi.json").await).await;
    let example = &doc["components"]["schemas"]["PerftResponse"]["example"];
    let answer =
        ok_json(perft(&app, "international", &[("depth", "2"), ("divide", "true")]).await).await;
    assert_eq!(&answer, example);
}
