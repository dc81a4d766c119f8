//! The HTTP conventions of every answer: HEAD, CORS, ETag and 304, compression, request ids,
//! the version header.

use std::io::Read;

use arbiter::config::Config;
use reqwest::Response;
use serde_json::{json, Value};

use crate::helpers::{ok_json, problem, spawn_app, spawn_app_with, TestApp};

/// Every GET resource, with a query where it takes one.
const GET_PATHS: &[&str] = &[
    "/v1/variants",
    "/v1/variants/international",
    "/v1/variants/international/moves",
    "/v1/variants/english/moves?position=B:W21-32:B1-12",
    "/healthz",
    "/readyz",
    "/metrics",
    "/swagger-ui/",
    "/api-docs/openapi.json",
    "/v1/variants/international/diagram",
    "/v1/variants/hageby/diagram?position=W:Wa3:Bc1:S4,4&move=*b2",
];

fn header<'a>(res: &'a Response, name: &str) -> Option<&'a str> {
    res.headers().get(name).and_then(|v| v.to_str().ok())
}

async fn get_with(app: &TestApp, path: &str, headers: &[(&str, &str)]) -> Response {
    let mut req = app.client.get(app.url(path));
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    req.send().await.expect("request sent")
}

#[tokio::test]
async fn head_answers_every_get_resource_with_the_get_headers_and_no_body() {
    let app = spawn_app().await;
    for path in GET_PATHS {
        let get = app.get(path).await;
        assert_eq!(get.status(), 200, "GET {path}");
        let get_type = header(&get, "content-type").unwrap_or("").to_string();
        let get_len = get.bytes().await.unwrap().len();
        let head = app.client.head(app.url(path)).send().await.unwrap();
        assert_eq!(head.status(), 200, "HEAD {path}");
        assert_eq!(
            header(&head, "content-type").unwrap_or(""),
            get_type,
            "{path}"
        );
        if !path.starts_with("/metrics") {
            // The metrics change between the two requests; every other answer is the same.
            assert_eq!(
                header(&head, "content-length"),
                Some(get_len.to_string().as_str()),
                "HEAD {path}: the length of the GET body"
            );
        }
        assert!(head.headers().contains_key("x-request-id"), "{path}");
        assert!(
            head.bytes().await.unwrap().is_empty(),
            "HEAD {path}: no body"
        );
    }
    // HEAD on a POST-only resource is a 405 like any other method.
    let res = app
        .client
        .head(app.url("/v1/variants/international/play"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 405);
    assert_eq!(header(&res, "allow"), Some("POST"));
}

#[tokio::test]
async fn a_preflight_from_any_origin_is_allowed_by_default() {
    let app = spawn_app().await;
    let res = app
        .client
        .request(
            reqwest::Method::OPTIONS,
            app.url("/v1/variants/international/moves"),
        )
        .header("origin", "https://board.example")
        .header("access-control-request-method", "POST")
        .header("access-control-request-headers", "content-type")
        .send()
        .await
        .unwrap();
    assert!(res.status().is_success(), "{}", res.status());
    assert_eq!(header(&res, "access-control-allow-origin"), Some("*"));
    let methods = header(&res, "access-control-allow-methods").unwrap_or("");
    assert!(
        methods.contains("POST") && methods.contains("GET"),
        "{methods}"
    );
    assert!(
        header(&res, "access-control-allow-headers")
            .unwrap_or("")
            .contains("content-type"),
        "{:?}",
        res.headers()
    );
    assert!(res.headers().contains_key("access-control-max-age"));

    // The request itself, as the page then sends it: the answer may be read by the page, and
    // so may its ETag and request id.
    let res = app
        .client
        .post(app.url("/v1/variants/international/moves"))
        .header("origin", "https://board.example")
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(header(&res, "access-control-allow-origin"), Some("*"));
    let exposed = header(&res, "access-control-expose-headers").unwrap_or("");
    for h in ["etag", "x-request-id", "x-arbiter-version", "retry-after"] {
        assert!(exposed.contains(h), "{h} not exposed: {exposed}");
    }
    // An OPTIONS request that is not a preflight is a 405 like any other method.
    let res = app
        .client
        .request(reqwest::Method::OPTIONS, app.url("/v1/variants"))
        .send()
        .await
        .unwrap();
    problem(res, 405, "method-not-allowed").await;
}

#[tokio::test]
async fn cors_origins_are_configurable() {
    let app = spawn_app_with(Config {
        workers: Some(1),
        http: arbiter::config::HttpConfig {
            cors_origins: arbiter::config::HttpConfig::parse_origins(
                "https://a.example, https://b.example/",
            ),
            ..Default::default()
        },
        ..Config::new("127.0.0.1:0")
    })
    .await;
    let allowed = get_with(&app, "/v1/variants", &[("origin", "https://b.example")]).await;
    assert_eq!(allowed.status(), 200);
    assert_eq!(
        header(&allowed, "access-control-allow-origin"),
        Some("https://b.example")
    );
    assert!(header(&allowed, "vary").unwrap_or("").contains("Origin"));
    // Another origin still gets its answer, without the headers that let a page read it.
    let other = get_with(&app, "/v1/variants", &[("origin", "https://evil.example")]).await;
    assert_eq!(other.status(), 200);
    assert!(!other.headers().contains_key("access-control-allow-origin"));

    let none = spawn_app_with(Config {
        workers: Some(1),
        http: arbiter::config::HttpConfig {
            cors_origins: arbiter::config::HttpConfig::parse_origins("none"),
            ..Default::default()
        },
        ..Config::new("127.0.0.1:0")
    })
    .await;
    let res = get_with(&none, "/v1/variants", &[("origin", "https://a.example")]).await;
    assert_eq!(res.status(), 200);
    assert!(!res.headers().contains_key("access-control-allow-origin"));
}

#[tokio::test]
async fn get_answers_have_a_strong_etag_and_revalidate_with_304() {
    let app = spawn_app().await;
    let other_replica = spawn_app().await;
    for path in [
        "/v1/variants",
        "/v1/variants/international",
        "/v1/variants/international/moves",
        "/v1/variants/international/moves?position=W:WK47:B14,19,29,31,42",
    ] {
        let res = app.get(path).await;
        assert_eq!(res.status(), 200);
        let tag = header(&res, "etag").expect("etag").to_string();
        assert!(
            tag.starts_with('"') && tag.ends_with('"'),
            "{path}: a strong tag, {tag}"
        );
        let cache = header(&res, "cache-control").unwrap_or("");
        assert!(
            cache.contains("public") && cache.contains("max-age="),
            "{cache}"
        );
        // Every replica of a version gives the same tag for the same URL.
        let again = other_replica.get(path).await;
        assert_eq!(header(&again, "etag"), Some(tag.as_str()), "{path}");

        let cached = get_with(&app, path, &[("if-none-match", &tag)]).await;
        assert_eq!(cached.status(), 304, "{path}");
        assert_eq!(header(&cached, "etag"), Some(tag.as_str()));
        assert!(cached.headers().contains_key("cache-control"));
        assert!(cached.headers().contains_key("x-request-id"));
        assert!(cached.bytes().await.unwrap().is_empty());

        // Weak comparison, lists and `*`, as RFC 9110 says for If-None-Match.
        let weak = format!("\"other\", W/{tag}");
        let res = get_with(&app, path, &[("if-none-match", &weak)]).await;
        assert_eq!(res.status(), 304, "{path}: {weak}");
        let res = get_with(&app, path, &[("if-none-match", "*")]).await;
        assert_eq!(res.status(), 304, "{path}: *");
        let res = get_with(&app, path, &[("if-none-match", "\"0000000000000000\"")]).await;
        assert_eq!(res.status(), 200, "{path}: another tag");
    }
    // Different positions, different tags.
    let a = app.get("/v1/variants/international/moves").await;
    let b = app
        .get("/v1/variants/international/moves?position=W:W28:B23")
        .await;
    assert_ne!(header(&a, "etag"), header(&b, "etag"));
    // Errors and POST answers are not cached.
    let res = app.get("/v1/variants/chess").await;
    assert!(!res.headers().contains_key("etag"));
    let res = app
        .post_json("/v1/variants/international/moves", &json!({}))
        .await;
    assert!(!res.headers().contains_key("etag"));
    // Probes are never cached.
    let res = app.get("/healthz").await;
    assert_eq!(header(&res, "cache-control"), Some("no-store"));
}

fn decode(coding: &str, bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    match coding {
        "gzip" => {
            flate2::read::GzDecoder::new(bytes)
                .read_to_end(&mut out)
                .unwrap();
        }
        "br" => {
            brotli::Decompressor::new(bytes, 4096)
                .read_to_end(&mut out)
                .unwrap();
        }
        other => panic!("unexpected coding {other}"),
    }
    out
}

#[tokio::test]
async fn large_answers_are_compressed_as_accept_encoding_allows() {
    let app = spawn_app().await;
    let plain = app.get("/v1/variants").await;
    assert!(plain.headers().get("content-encoding").is_none());
    assert!(header(&plain, "vary")
        .unwrap_or("")
        .contains("accept-encoding"));
    let plain_tag = header(&plain, "etag").unwrap().to_string();
    let plain_body = plain.bytes().await.unwrap();
    assert!(plain_body.len() > 10_000);
    for (accept, coding) in [
        ("gzip", "gzip"),
        ("br", "br"),
        ("gzip, deflate, br", "br"),
        ("br;q=0, gzip", "gzip"),
        ("*", "br"),
    ] {
        let res = get_with(&app, "/v1/variants", &[("accept-encoding", accept)]).await;
        assert_eq!(res.status(), 200);
        assert_eq!(header(&res, "content-encoding"), Some(coding), "{accept}");
        // Another representation, another tag; the base tag still revalidates it.
        let tag = header(&res, "etag").unwrap().to_string();
        assert_ne!(tag, plain_tag);
        let body = res.bytes().await.unwrap();
        assert!(
            body.len() < plain_body.len() / 3,
            "{accept}: {}",
            body.len()
        );
        assert_eq!(decode(coding, &body), plain_body, "{accept}");
        let res = get_with(
            &app,
            "/v1/variants",
            &[("accept-encoding", accept), ("if-none-match", &plain_tag)],
        )
        .await;
        assert_eq!(res.status(), 304);
        assert_eq!(header(&res, "etag"), Some(tag.as_str()));
    }
    // Not wanted, or not worth it: as is.
    let res = get_with(&app, "/v1/variants", &[("accept-encoding", "identity")]).await;
    assert!(res.headers().get("content-encoding").is_none());
    let res = get_with(&app, "/healthz", &[("accept-encoding", "gzip, br")]).await;
    assert!(res.headers().get("content-encoding").is_none());
    // POST answers too, and Swagger UI's files.
    let res = app
        .client
        .post(app.url("/v1/variants/canadian/moves"))
        .header("accept-encoding", "gzip")
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(header(&res, "content-encoding"), Some("gzip"));
    let body: Value = serde_json::from_slice(&decode("gzip", &res.bytes().await.unwrap())).unwrap();
    assert_eq!(body["variant"], "canadian");
    let res = get_with(&app, "/api-docs/openapi.json", &[("accept-encoding", "br")]).await;
    assert_eq!(header(&res, "content-encoding"), Some("br"));
}

#[tokio::test]
async fn a_client_request_id_is_kept_on_every_answer() {
    let app = spawn_app().await;
    let cases: [(&str, &str, u16); 4] = [
        ("GET", "/v1/variants/international", 200),
        ("GET", "/v1/variants/chess", 404),
        ("DELETE", "/v1/variants", 405),
        ("GET", "/nowhere", 404),
    ];
    for (method, path, status) in cases {
        let res = app
            .client
            .request(method.parse().unwrap(), app.url(path))
            .header("x-request-id", "trace-42.a_b:c")
            .send()
            .await
            .unwrap();
        assert_eq!(res.status().as_u16(), status);
        assert_eq!(
            header(&res, "x-request-id"),
            Some("trace-42.a_b:c"),
            "{path}"
        );
        assert_eq!(
            header(&res, "x-arbiter-version"),
            Some(env!("CARGO_PKG_VERSION"))
        );
    }
    let res = app
        .post_json("/v1/variants/international/play", &json!({"move": "32-23"}))
        .await;
    let made = header(&res, "x-request-id").unwrap().to_string();
    assert_eq!(made.len(), 36, "a new UUID: {made}");
    problem(res, 422, "illegal-move").await;
    // An id that is too long or has other characters is replaced, not echoed.
    for bad in ["has space", &"x".repeat(129), "quote\"d"] {
        let res = get_with(&app, "/healthz", &[("x-request-id", bad)]).await;
        let id = header(&res, "x-request-id").unwrap();
        assert_ne!(id, bad);
        assert_eq!(id.len(), 36);
        ok_json(res).await;
    }
}
