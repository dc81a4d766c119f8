//! Every error is RFC 9457 problem+json.

use serde_json::json;

use crate::helpers::{problem, spawn_app};

#[tokio::test]
async fn malformed_json_is_a_400() {
    let app = spawn_app().await;
    let res = app
        .post_raw(
            "/v1/variants/international/moves",
            Some("application/json"),
            b"{\"position\": ".to_vec(),
        )
        .await;
    let body = problem(res, 400, "malformed-json").await;
    assert!(
        body["detail"].as_str().unwrap().contains("line 1"),
        "{body}"
    );
    let res = app
        .post_raw(
            "/v1/variants/international/play",
            Some("application/json"),
            b"{\"move\": \"32-28\"} trailing".to_vec(),
        )
        .await;
    problem(res, 400, "malformed-json").await;
}

#[tokio::test]
async fn wrong_json_types_are_a_400_naming_the_field() {
    let app = spawn_app().await;
    let body = problem(
        app.post_json("/v1/variants/international/moves", &json!({"position": 42}))
            .await,
        400,
        "invalid-body",
    )
    .await;
    assert_eq!(body["field"], "position");
    assert!(
        body["detail"].as_str().unwrap().contains("invalid type"),
        "{body}"
    );
    let body = problem(
        app.post_json(
            "/v1/variants/international/play",
            &json!({"moves": "32-28"}),
        )
        .await,
        400,
        "invalid-body",
    )
    .await;
    assert_eq!(body["field"], "moves");
    let body = problem(
        app.post_json(
            "/v1/variants/international/judge",
            &json!({"moves": [1, 2]}),
        )
        .await,
        400,
        "invalid-body",
    )
    .await;
    assert_eq!(body["field"], "moves[0]");
    // Arrays where an object is expected: serde alone would read a struct from an array
    // (`["W:W28:B23"]` used to be answered 200).
    for (path, bad) in [
        ("/v1/variants/international/moves", json!([1])),
        ("/v1/variants/international/moves", json!(["W:W28:B23"])),
        (
            "/v1/variants/international/play",
            json!(["W:W28:B23", "28x19"]),
        ),
        ("/v1/variants/international/judge", json!([null, ["28x19"]])),
        ("/v1/judge/pdn", json!(["1. 32-28 *"])),
        ("/v1/variants/international/moves", json!("W:W28:B23")),
    ] {
        let body = problem(app.post_json(path, &bad).await, 400, "invalid-body").await;
        assert!(
            body["detail"]
                .as_str()
                .unwrap()
                .contains("must be a JSON object"),
            "{path} {bad}: {body}"
        );
    }
    let body = problem(
        app.post_json("/v1/variants/international/moves", &json!({"fen": "W:W1"}))
            .await,
        400,
        "invalid-body",
    )
    .await;
    assert!(
        body["detail"].as_str().unwrap().contains("unknown field"),
        "{body}"
    );
}

#[tokio::test]
async fn unknown_path_is_a_404_problem() {
    let app = spawn_app().await;
    for path in [
        "/",
        "/nope",
        "/v1",
        "/v1/variants/international/nope",
        "/v2/variants",
    ] {
        let body = problem(app.get(path).await, 404, "not-found").await;
        assert!(body["detail"].as_str().unwrap().contains(path), "{body}");
    }
}

#[tokio::test]
async fn wrong_method_is_a_405_with_allow() {
    let app = spawn_app().await;
    let cases = [
        ("DELETE", "/v1/variants", "GET, HEAD"),
        ("POST", "/v1/variants/international", "GET, HEAD"),
        ("PUT", "/v1/variants/international/moves", "GET, HEAD, POST"),
        ("GET", "/v1/variants/international/play", "POST"),
        ("GET", "/v1/variants/international/judge", "POST"),
        ("POST", "/healthz", "GET, HEAD"),
        ("POST", "/readyz", "GET, HEAD"),
        ("POST", "/api-docs/openapi.json", "GET, HEAD"),
        ("POST", "/swagger-ui/", "GET, HEAD"),
        ("DELETE", "/swagger-ui/index.css", "GET, HEAD"),
    ];
    for (method, path, allow) in cases {
        let res = app
            .client
            .request(method.parse().unwrap(), app.url(path))
            .send()
            .await
            .unwrap();
        assert_eq!(res.headers()["allow"], allow, "{method} {path}");
        let body = problem(res, 405, "method-not-allowed").await;
        assert_eq!(
            body["allowed_methods"],
            json!(allow.split(", ").collect::<Vec<_>>())
        );
    }
}

#[tokio::test]
async fn oversized_body_is_a_413_naming_the_limit() {
    let app = spawn_app().await;
    let big = format!("{{\"position\": \"{}\"}}", "W".repeat(300 * 1024));
    let res = app
        .post_raw(
            "/v1/variants/international/moves",
            Some("application/json"),
            big.into_bytes(),
        )
        .await;
    let body = problem(res, 413, "payload-too-large").await;
    assert_eq!(body["limit"], 262144);
    assert!(
        body["detail"].as_str().unwrap().contains("262144"),
        "{body}"
    );
}

#[tokio::test]
async fn body_just_under_the_limit_reaches_the_engine() {
    let app = spawn_app().await;
    // A long FEN is refused by the engine's own bound, as a 400, not a crash.
    let big = format!("{{\"position\": \"W:W{}\"}}", "1,".repeat(100 * 1024));
    let res = app
        .post_raw(
            "/v1/variants/international/moves",
            Some("application/json"),
            big.into_bytes(),
        )
        .await;
    problem(res, 400, "invalid-position").await;
}

#[tokio::test]
async fn non_json_body_is_a_415() {
    let app = spawn_app().await;
    for ct in ["text/plain", "application/x-www-form-urlencoded"] {
        let res = app
            .post_raw(
                "/v1/variants/international/play",
                Some(ct),
                b"move=32-28".to_vec(),
            )
            .await;
        let body = problem(res, 415, "unsupported-media-type").await;
        assert!(body["detail"]
            .as_str()
            .unwrap()
            .contains("application/json"));
    }
}

#[tokio::test]
async fn hostile_input_never_breaks_the_server() {
    let app = spawn_app().await;
    let nasty = [
        json!({"position": "W:WK1-50:B1"}),
        json!({"position": "W:W1-5000000000"}),
        json!({"position": ":::::"}),
        json!({"position": "W:W\u{0}:B"}),
        json!({"position": "W:WK46,K50,K1,K5:B23,24,27,28,29,32,33,34,38,39,12,13,17,18,19,22"}),
        json!({"position": "é:Wé"}),
    ];
    for body in nasty {
        let res = app
            .post_json("/v1/variants/international/moves", &body)
            .await;
        assert!(
            res.status() == 200 || res.status() == 400 || res.status() == 422,
            "{body}: {}",
            res.status()
        );
    }
    for text in [
        "x",
        "-",
        "1x",
        "x1x",
        "46x",
        "1-2-3-4-5-6-7-8-9",
        "K46-41",
        "%s%n",
    ] {
        let res = app
            .post_json(
                "/v1/variants/international/play",
                &json!({"position": "W:WK46:B23", "move": text}),
            )
            .await;
        assert_eq!(res.status(), 422, "{text}");
    }
    let res = app.get("/healthz").await;
    assert_eq!(res.status(), 200);
}
