//! `GET /metrics`: Prometheus text with bounded labels and counters that move.

use std::collections::BTreeSet;

use serde_json::json;

use crate::helpers::{ok_json, spawn_app, TestApp};

async fn scrape(app: &TestApp) -> String {
    let res = app.get("/metrics").await;
    assert_eq!(res.status().as_u16(), 200);
    let ct = crate::helpers::content_type(&res);
    assert!(ct.starts_with("text/plain; version=0.0.4"), "{ct}");
    res.text().await.unwrap()
}

/// The value of the series `name{labels}` (labels as written in the exposition), if present.
fn value(text: &str, series: &str) -> Option<f64> {
    text.lines()
        .find_map(|l| l.strip_prefix(series)?.strip_prefix(' ')?.parse().ok())
}

/// Every value of label `label` in the series of `metric`.
fn label_values(text: &str, metric: &str, label: &str) -> BTreeSet<String> {
    let key = format!("{label}=\"");
    text.lines()
        .filter(|l| l.starts_with(&format!("{metric}{{")))
        .filter_map(|l| {
            let start = l.find(&key)? + key.len();
            let end = start + l[start..].find('"')?;
            Some(l[start..end].to_string())
        })
        .collect()
}

#[tokio::test]
async fn unknown_paths_do_not_create_label_values() {
    let app = spawn_app().await;
    ok_json(app.get("/v1/variants/english/moves").await).await;
    let before = scrape(&app).await;
    for path in [
        "/no/such/path",
        "/v1/variants/english/moves/extra",
        "/x-attack-1",
        "/x-attack-2?q=1",
        "/v1/nope",
    ] {
        assert_eq!(app.get(path).await.status().as_u16(), 404);
    }
    // A known pattern with an unknown variant: the label is the pattern, not the id.
    assert_eq!(
        app.get("/v1/variants/not-a-variant-xyz/moves")
            .await
            .status()
            .as_u16(),
        404
    );
    let after = scrape(&app).await;
    assert!(!after.contains("attack"), "{after}");
    assert!(!after.contains("not-a-variant-xyz"), "{after}");
    assert!(!after.contains("/no/such/path"), "{after}");
    let routes = label_values(&after, "arbiter_http_requests_total", "route");
    let allowed: BTreeSet<String> = ["/v1/variants/{variant}/moves", "/metrics", "unmatched"]
        .into_iter()
        .map(String::from)
        .collect();
    assert_eq!(routes, allowed, "{after}");
    // Five unknown paths, one series.
    let series = r#"arbiter_http_requests_total{method="GET",route="unmatched",status="404"}"#;
    assert_eq!(value(&before, series), None);
    assert_eq!(value(&after, series), Some(5.0));
    let hist = r#"arbiter_http_request_duration_seconds_count{route="unmatched"}"#;
    assert_eq!(value(&after, hist), Some(5.0));
    // Only catalogue ids as variant labels.
    let variants = label_values(&after, "arbiter_moves_generated_total", "variant");
    assert_eq!(variants, BTreeSet::from(["english".to_string()]));
}

#[tokio::test]
async fn moves_and_judged_games_are_counted_per_variant() {
    let app = spawn_app().await;
    // 7 + 7 legal moves for english, 9 for international.
    ok_json(app.get("/v1/variants/english/moves").await).await;
    ok_json(
        app.post_json("/v1/variants/english/moves", &json!({}))
            .await,
    )
    .await;
    ok_json(app.get("/v1/variants/international/moves").await).await;
    // Two judged international games; a refused request is not a judged game.
    let game = json!({"start_position": "W:W28:B23", "moves": ["28x19"], "claimed_result": "2-0"});
    for _ in 0..2 {
        ok_json(
            app.post_json("/v1/variants/international/judge", &game)
                .await,
        )
        .await;
    }
    let refused = app
        .post_json("/v1/variants/english/judge", &json!({"moves": 5}))
        .await;
    assert_eq!(refused.status().as_u16(), 400);
    let text = scrape(&app).await;
    let moves = |v: &str| {
        value(
            &text,
            &format!("arbiter_moves_generated_total{{variant=\"{v}\"}}"),
        )
    };
    assert_eq!(moves("english"), Some(14.0), "{text}");
    assert_eq!(moves("international"), Some(9.0), "{text}");
    let judged = |v: &str| {
        value(
            &text,
            &format!("arbiter_games_judged_total{{variant=\"{v}\"}}"),
        )
    };
    assert_eq!(judged("international"), Some(2.0), "{text}");
    assert_eq!(judged("english"), None, "{text}");
    let ok = r#"arbiter_http_requests_total{method="POST",route="/v1/variants/{variant}/judge",status="200"}"#;
    assert_eq!(value(&text, ok), Some(2.0), "{text}");
    let bad = r#"arbiter_http_requests_total{method="POST",route="/v1/variants/{variant}/judge",status="400"}"#;
    assert_eq!(value(&text, bad), Some(1.0), "{text}");
    let count =
        r#"arbiter_http_request_duration_seconds_count{route="/v1/variants/{variant}/moves"}"#;
    assert_eq!(value(&text, count), Some(3.0), "{text}");
    let inf = r#"arbiter_http_request_duration_seconds_bucket{route="/v1/variants/{variant}/moves",le="+Inf"}"#;
    assert_eq!(value(&text, inf), Some(3.0), "{text}");
}

#[tokio::test]
async fn pdn_games_are_counted_per_variant() {
    let app = spawn_app().await;
    // Two international games, one Russian game, one game of an unsupported GameType (not
    // judged, not counted).
    let pdn = "[GameType \"20\"]\n1. 32-28 19-23 *\n\n[GameType \"20\"]\n1. 33-28 *\n\n\
               [GameType \"25\"]\n1. c3-d4 *\n\n[GameType \"41\"]\n1. a3-a4 *\n";
    let res = app
        .client
        .post(format!("{}/v1/judge/pdn", app.address))
        .header("Content-Type", "text/plain")
        .body(pdn)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 200);
    let text = scrape(&app).await;
    let judged = |v: &str| {
        value(
            &text,
            &format!("arbiter_games_judged_total{{variant=\"{v}\"}}"),
        )
    };
    assert_eq!(judged("international"), Some(2.0), "{text}");
    assert_eq!(judged("russian"), Some(1.0), "{text}");
    let labels = label_values(&text, "arbiter_games_judged_total", "variant");
    assert_eq!(labels.len(), 2, "{text}");
}

#[tokio::test]
async fn engine_and_process_metrics_are_exposed() {
    let app = spawn_app().await;
    ok_json(app.get("/v1/variants/international/moves").await).await;
    let text = scrape(&app).await;
    for (series, kind) in [
        ("arbiter_engine_slots", "gauge"),
        ("arbiter_engine_jobs_running", "gauge"),
        ("arbiter_engine_requests_total", "counter"),
        ("arbiter_engine_rejected_total", "counter"),
        ("arbiter_engine_work_units_total", "counter"),
        ("process_resident_memory_bytes", "gauge"),
        ("process_cpu_seconds_total", "counter"),
        ("process_open_fds", "gauge"),
        ("arbiter_http_requests_total", "counter"),
        ("arbiter_http_request_duration_seconds", "histogram"),
        ("arbiter_moves_generated_total", "counter"),
    ] {
        assert!(
            text.contains(&format!("# TYPE {series} {kind}\n")),
            "{series} {kind}: {text}"
        );
    }
    assert_eq!(
        value(&text, r#"arbiter_engine_requests_total{where="inline"}"#),
        Some(1.0),
        "{text}"
    );
    assert!(value(&text, "process_resident_memory_bytes").is_some_and(|b| b > 1e6));
    assert!(value(&text, "process_open_fds").is_some_and(|n| n >= 1.0));
    // Statuses are numeric codes; a 405 too.
    let res = app
        .client
        .delete(app.url("/v1/variants"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 405);
    let text = scrape(&app).await;
    let series =
        r#"arbiter_http_requests_total{method="DELETE",route="/v1/variants",status="405"}"#;
    assert_eq!(value(&text, series), Some(1.0), "{text}");
}
