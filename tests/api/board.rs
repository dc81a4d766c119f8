//! The board page (`/board`): served from the binary with its files, read with GET and HEAD
//! only, cached and compressed like every GET answer, small, and linked from the API document.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::helpers::{content_type, ok_json, problem, spawn_app, TestApp};

/// GETs `path`: its status, content type and body.
async fn get(app: &TestApp, path: &str) -> (u16, String, String) {
    let res = app.get(path).await;
    let status = res.status().as_u16();
    let ct = content_type(&res);
    (status, ct, res.text().await.unwrap())
}

/// The files a text names relative to the page (`board/…` in the page, `./…` in a module).
fn references(text: &str, prefix: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for quote in ['"', '\''] {
        let needle = format!("{quote}{prefix}");
        let mut rest = text;
        while let Some(at) = rest.find(&needle) {
            let tail = &rest[at + needle.len()..];
            let end = tail.find(quote).unwrap();
            out.insert(tail[..end].to_string());
            rest = &tail[end..];
        }
    }
    out
}

#[tokio::test]
async fn the_page_and_every_file_it_loads_are_served_with_their_types() {
    let app = spawn_app().await;
    let res = app.get("/board").await;
    assert_eq!(res.status(), 200);
    assert_eq!(content_type(&res), "text/html; charset=utf-8");
    let csp = res.headers()["content-security-policy"].to_str().unwrap();
    assert!(csp.contains("default-src 'self'"), "{csp}");
    assert!(csp.contains("script-src 'self'"), "{csp}");
    assert_eq!(res.headers()["x-content-type-options"], "nosniff");
    let page = res.text().await.unwrap();
    assert!(page.starts_with("<!doctype html>"));
    assert!(page.contains("<html lang=\"en\">"));

    // Every file the page names, and every module a module imports, is served.
    let mut files = references(&page, "board/");
    let mut seen = BTreeSet::new();
    let mut total = page.len();
    while let Some(name) = files.pop_first() {
        if !seen.insert(name.clone()) {
            continue;
        }
        let (status, ct, body) = get(&app, &format!("/board/{name}")).await;
        assert_eq!(status, 200, "{name}");
        let expected = match name.rsplit('.').next().unwrap() {
            "js" => "text/javascript; charset=utf-8",
            "css" => "text/css; charset=utf-8",
            "svg" => "image/svg+xml",
            other => panic!("unexpected file type {other} ({name})"),
        };
        assert_eq!(ct, expected, "{name}");
        total += body.len();
        if name.ends_with(".js") {
            files.extend(references(&body, "./"));
        }
    }
    for expected in [
        "app.js",
        "api.js",
        "view.js",
        "pick.js",
        "board.css",
        "icon.svg",
    ] {
        assert!(seen.contains(expected), "{expected} is loaded: {seen:?}");
    }
    // Everything the page loads, as the service counts it.
    assert_eq!(total, arbiter::board::total_bytes());
    assert!(total < 300 * 1024, "the page is {total} bytes");
}

#[tokio::test]
async fn the_page_is_read_only_and_its_paths_are_exact() {
    let app = spawn_app().await;
    for path in ["/board", "/board/app.js", "/board/"] {
        for method in [
            reqwest::Method::POST,
            reqwest::Method::PUT,
            reqwest::Method::DELETE,
        ] {
            let res = app
                .client
                .request(method.clone(), app.url(path))
                .send()
                .await
                .unwrap();
            assert_eq!(res.headers()["allow"], "GET, HEAD", "{method} {path}");
            problem(res, 405, "method-not-allowed").await;
        }
    }
    // HEAD: the headers of the GET answer, no body.
    let res = app.client.head(app.url("/board")).send().await.unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(content_type(&res), "text/html; charset=utf-8");
    assert!(res.text().await.unwrap().is_empty());
    // The page's links are relative to /board: the path with a slash is sent there.
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let res = client.get(app.url("/board/")).send().await.unwrap();
    assert_eq!(res.status(), 308);
    assert_eq!(res.headers()["location"], "/board");
    // No other file, and nothing deeper.
    problem(app.get("/board/secret.js").await, 404, "not-found").await;
    problem(app.get("/board/app.js/x").await, 404, "not-found").await;
    problem(app.get("/board/..%2FCargo.toml").await, 404, "not-found").await;
    problem(app.get("/boards").await, 404, "not-found").await;
}

#[tokio::test]
async fn the_page_is_cached_and_compressed_like_every_get_answer() {
    let app = spawn_app().await;
    let res = app.get("/board/app.js").await;
    let tag = res.headers()["etag"].to_str().unwrap().to_string();
    assert_eq!(res.headers()["cache-control"], "public, max-age=3600");
    let res = app
        .client
        .get(app.url("/board/app.js"))
        .header("if-none-match", &tag)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 304);
    let res = app
        .client
        .get(app.url("/board/app.js"))
        .header("accept-encoding", "gzip")
        .send()
        .await
        .unwrap();
    assert_eq!(res.headers()["content-encoding"], "gzip");
}

#[tokio::test]
async fn swagger_ui_and_the_api_document_link_to_the_page() {
    let app = spawn_app().await;
    let doc: Value = ok_json(app.get("/api-docs/openapi.json").await).await;
    let description = doc["info"]["description"].as_str().unwrap();
    assert!(description.contains("](/board)"), "{description}");
    // The page is not an operation of the API.
    assert!(doc["paths"]
        .as_object()
        .unwrap()
        .keys()
        .all(|p| !p.starts_with("/board")));
}
