//! Hostile and heavy requests: requests actix-http refuses by itself get a bare answer and a
//! closed connection, bodies honour `Content-Encoding` within the body limit, and the engine's work budget and
//! slots bound every request (deterministic 422 over budget, 503 `overloaded` at once when
//! every slot is busy, work stopped when the request times out).

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use arbiter::config::Config;
use arbiter::config::EngineConfig;
use serde_json::{json, Value};

use crate::helpers::{ok_json, problem, spawn_app, spawn_app_with, TestApp};

const FRISIAN: &str =
    "W:WK2:BK3,K7,K8,K9,K12,K17,K18,K19,K20,K21,K24,K28,K29,K33,K35,K36,K38,K39,K41,K42,K44,K45,K49";

fn frisian_pdn(games: usize) -> String {
    format!("[GameType \"40\"]\n[FEN \"{FRISIAN}\"]\n1. 2-7 *\n\n").repeat(games)
}

fn port(app: &TestApp) -> u16 {
    app.address.rsplit(':').next().unwrap().parse().unwrap()
}

/// Sends raw bytes and reads until the server closes the connection (or 5 s pass).
async fn raw(port: u16, request: Vec<u8>, pause: Option<Duration>) -> String {
    raw_closed(port, request, pause).await.0
}

/// [`raw`], and whether the server closed the connection (rather than the 5 s running out).
async fn raw_closed(port: u16, request: Vec<u8>, pause: Option<Duration>) -> (String, bool) {
    tokio::task::spawn_blocking(move || {
        let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        s.write_all(&request).unwrap();
        if let Some(p) = pause {
            std::thread::sleep(p);
        }
        let mut out = Vec::new();
        let closed = s.read_to_end(&mut out).is_ok();
        (String::from_utf8_lossy(&out).into_owned(), closed)
    })
    .await
    .unwrap()
}

/// Asserts that `text` ends with the bare answer actix-http writes for a request it refuses
/// before the application sees it (`status`, no body), and that the server closed the
/// connection after it.
fn assert_bare((text, closed): (String, bool), status: u16) {
    assert!(closed, "the connection is closed: {text}");
    let at = text.rfind("HTTP/1.1 ").expect("an answer");
    let (head, body) = text[at..].split_once("\r\n\r\n").expect("a whole head");
    assert!(head.starts_with(&format!("HTTP/1.1 {status} ")), "{head}");
    let fields = format!("{}\r\n", head.to_ascii_lowercase());
    assert!(fields.contains("\r\ncontent-length: 0\r\n"), "{head}");
    assert_eq!(body, "", "{head}");
}

#[tokio::test]
async fn requests_the_http_layer_refuses_get_a_bare_answer_and_a_closed_connection() {
    let app = spawn_app().await;
    let p = port(&app);
    let long_query = format!(
        "GET /v1/variants?x={} HTTP/1.1\r\nHost: t\r\n\r\n",
        "a".repeat(100 * 1024)
    );
    assert_bare(raw_closed(p, long_query.into_bytes(), None).await, 400);
    let many_headers: String = (0..500).map(|i| format!("X-H{i}: 1\r\n")).collect();
    let req = format!("GET /healthz HTTP/1.1\r\nHost: t\r\n{many_headers}\r\n");
    assert_bare(raw_closed(p, req.into_bytes(), None).await, 431);
    let req =
        "POST /v1/variants/international/moves HTTP/1.1\r\nHost: t\r\nContent-Length: -1\r\n\r\n";
    assert_bare(raw_closed(p, req.into(), None).await, 400);
    // On a kept-alive connection, after a good answer.
    let req = "GET /healthz HTTP/1.1\r\nHost: t\r\n\r\nGET /healthz HTTP/1.1\r\nHost: t\r\nContent-Length: x\r\n\r\n";
    let answer = raw_closed(p, req.into(), None).await;
    assert!(answer.0.starts_with("HTTP/1.1 200 OK"), "{}", answer.0);
    assert_bare(answer, 400);
    // The server goes on answering.
    ok_json(app.get("/healthz").await).await;
}

#[tokio::test]
async fn a_request_head_too_slow_is_a_bare_408() {
    let app = spawn_app_with(Config {
        workers: Some(1),
        request_timeout: Duration::from_secs(1),
        ..Config::new("127.0.0.1:0")
    })
    .await;
    let answer = raw_closed(
        port(&app),
        b"GET /healthz HTTP/1.1\r\n".to_vec(),
        Some(Duration::from_millis(1500)),
    )
    .await;
    assert_bare(answer, 408);
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

async fn post_encoded(
    app: &TestApp,
    path: &str,
    content_type: &str,
    encoding: &str,
    body: Vec<u8>,
) -> reqwest::Response {
    app.client
        .post(app.url(path))
        .header("content-type", content_type)
        .header("content-encoding", encoding)
        .body(body)
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn content_encoding_is_honoured_on_every_endpoint_or_refused() {
    let app = spawn_app().await;
    let moves = json!({"position": "W:W28:B23"}).to_string();
    let plain = ok_json(
        app.post_json(
            "/v1/variants/international/moves",
            &json!({"position": "W:W28:B23"}),
        )
        .await,
    )
    .await;
    let zipped = ok_json(
        post_encoded(
            &app,
            "/v1/variants/international/moves",
            "application/json",
            "gzip",
            gzip(moves.as_bytes()),
        )
        .await,
    )
    .await;
    assert_eq!(plain, zipped);
    // brotli on the PDN endpoint (text/plain), zstd on /play, deflate on /judge.
    let pdn = "[GameType \"20\"]\n[FEN \"W:W28:B23\"]\n1. 28x19 *\n";
    let mut br = Vec::new();
    brotli::BrotliCompress(&mut pdn.as_bytes(), &mut br, &Default::default()).unwrap();
    let body = ok_json(post_encoded(&app, "/v1/judge/pdn", "text/plain", "br", br).await).await;
    assert_eq!(body["games"][0]["verdict"], "white_wins");
    let play = json!({"position": "W:W28:B23", "move": "28x19"}).to_string();
    let zst = zstd::encode_all(play.as_bytes(), 3).unwrap();
    let body = ok_json(
        post_encoded(
            &app,
            "/v1/variants/international/play",
            "application/json",
            "zstd",
            zst,
        )
        .await,
    )
    .await;
    assert_eq!(body["moves"], json!(["28x19"]));
    let judge = json!({"start_position": "W:W28:B23", "moves": ["28x19"]}).to_string();
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    z.write_all(judge.as_bytes()).unwrap();
    let body = ok_json(
        post_encoded(
            &app,
            "/v1/variants/international/judge",
            "application/json",
            "deflate",
            z.finish().unwrap(),
        )
        .await,
    )
    .await;
    assert_eq!(body["verdict"], "white_wins");
    // An unknown coding is never read as plain text.
    for path in ["/v1/variants/international/moves", "/v1/judge/pdn"] {
        let res = post_encoded(
            &app,
            path,
            "application/json",
            "compress",
            moves.clone().into(),
        )
        .await;
        let body = problem(res, 415, "unsupported-content-encoding").await;
        assert!(
            body["detail"].as_str().unwrap().contains("compress"),
            "{body}"
        );
    }
    // A small body that decodes past the limit: 413, saying so.
    let bomb = gzip(&vec![b' '; 2 * 1024 * 1024]);
    assert!(bomb.len() < 64 * 1024);
    for path in ["/v1/variants/international/moves", "/v1/judge/pdn"] {
        let res = post_encoded(&app, path, "application/json", "gzip", bomb.clone()).await;
        let body = problem(res, 413, "payload-too-large").await;
        assert!(
            body["detail"].as_str().unwrap().contains("decoded"),
            "{body}"
        );
    }
    // Bytes that are not what the header says.
    let res = post_encoded(
        &app,
        "/v1/variants/international/moves",
        "application/json",
        "gzip",
        moves.clone().into(),
    )
    .await;
    problem(res, 400, "invalid-encoding").await;
}

fn engine_app(engine: EngineConfig, timeout: Duration) -> Config {
    Config {
        workers: Some(2),
        request_timeout: timeout,
        engine,
        ..Config::new("127.0.0.1:0")
    }
}

async fn metric(app: &TestApp, name: &str) -> f64 {
    let text = app.get("/metrics").await.text().await.unwrap();
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
        .unwrap_or_else(|| panic!("{name} not in /metrics"))
}

#[tokio::test]
async fn work_over_the_budget_is_a_deterministic_422() {
    let app = spawn_app_with(engine_app(
        EngineConfig {
            max_jobs: 2,
            work_budget: 1_000_000,
            pdn_work_budget: 2_000_000,
            inline_units: 20_000,
        },
        Duration::from_secs(30),
    ))
    .await;
    for _ in 0..2 {
        let res = app
            .post_raw("/v1/judge/pdn", Some("text/plain"), frisian_pdn(200).into())
            .await;
        let body = problem(res, 422, "budget-exceeded").await;
        assert_eq!(body["limit"], 2_000_000);
    }
    let res = app
        .post_json("/v1/variants/frisian/moves", &json!({"position": FRISIAN}))
        .await;
    let body = problem(res, 422, "budget-exceeded").await;
    assert_eq!(body["limit"], 1_000_000);
    // Ordinary requests are far inside the budget.
    ok_json(app.get("/v1/variants/international/moves").await).await;
    assert_eq!(
        metric(&app, "arbiter_engine_rejected_total{reason=\"budget\"}").await,
        3.0
    );
}

#[tokio::test]
async fn a_busy_replica_sheds_engine_work_at_once_and_stays_healthy() {
    let app = spawn_app_with(engine_app(
        EngineConfig {
            max_jobs: 1,
            work_budget: 10_000_000,
            pdn_work_budget: 40_000_000,
            inline_units: 20_000,
        },
        Duration::from_secs(30),
    ))
    .await;
    let client = app.client.clone();
    let url = app.url("/v1/judge/pdn");
    let heavy = tokio::spawn(async move {
        client
            .post(url)
            .header("content-type", "text/plain")
            .body(frisian_pdn(200))
            .send()
            .await
            .unwrap()
    });
    let deadline = Instant::now() + Duration::from_secs(10);
    while metric(&app, "arbiter_engine_jobs_running").await < 1.0 {
        assert!(Instant::now() < deadline, "the heavy job never started");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    // The slot is taken: engine work that needs the pool is refused at once.
    let res = app
        .post_json("/v1/variants/frisian/moves", &json!({"position": FRISIAN}))
        .await;
    assert_eq!(res.headers()["retry-after"], "1");
    problem(res, 503, "overloaded").await;
    // Cheap engine work still runs on the I/O worker, and the probes answer.
    ok_json(app.get("/v1/variants/international/moves").await).await;
    ok_json(app.get("/healthz").await).await;
    ok_json(app.get("/readyz").await).await;
    assert_eq!(metric(&app, "arbiter_engine_jobs_running").await, 1.0);
    let res = heavy.await.unwrap();
    problem(res, 422, "budget-exceeded").await;
    assert_eq!(
        metric(&app, "arbiter_engine_rejected_total{reason=\"overloaded\"}").await,
        1.0
    );
}

#[tokio::test]
async fn a_timed_out_request_stops_its_engine_work() {
    // About ten seconds of work for a one-second request timeout.
    let app = spawn_app_with(engine_app(
        EngineConfig {
            max_jobs: 1,
            work_budget: 10_000_000,
            pdn_work_budget: 200_000_000,
            inline_units: 20_000,
        },
        Duration::from_secs(1),
    ))
    .await;
    let started = Instant::now();
    let res = app
        .post_raw("/v1/judge/pdn", Some("text/plain"), frisian_pdn(200).into())
        .await;
    problem(res, 503, "request-timeout").await;
    // The slot frees within moments of the answer, not when the work would have ended.
    while metric(&app, "arbiter_engine_jobs_running").await > 0.0 {
        assert!(
            started.elapsed() < Duration::from_secs(4),
            "the engine job went on after its request timed out"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test]
async fn the_admin_listener_serves_probes_and_metrics_only() {
    let app = spawn_app_with(Config {
        workers: Some(1),
        admin_addr: Some("127.0.0.1:0".into()),
        ..Config::new("127.0.0.1:0")
    })
    .await;
    let adm = app.admin_address.clone().expect("an admin listener");
    let client = &app.client;
    for path in ["/healthz", "/readyz"] {
        let res = client.get(format!("{adm}{path}")).send().await.unwrap();
        assert_eq!(ok_json(res).await["status"], "ok");
        // The probes are answered on the API port as well.
        ok_json(app.get(path).await).await;
    }
    // The API's requests are counted in the metrics the admin listener serves.
    ok_json(app.get("/v1/variants/international/moves").await).await;
    let res = client.get(format!("{adm}/metrics")).send().await.unwrap();
    assert_eq!(res.status(), 200);
    let text = res.text().await.unwrap();
    assert!(
        text.contains("arbiter_moves_generated_total{variant=\"international\"} 9"),
        "{text}"
    );
    // With an admin listener, the metrics are served there only.
    problem(app.get("/metrics").await, 404, "not-found").await;
    let res = client
        .get(format!("{adm}/v1/variants"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 404);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["code"], "not-found");
    let res = client.post(format!("{adm}/metrics")).send().await.unwrap();
    assert_eq!(res.status(), 405);
    assert_eq!(res.headers()["allow"], "GET, HEAD");
}

#[tokio::test]
async fn a_body_over_the_limit_leaves_the_connection_usable() {
    let app = spawn_app().await;
    let body = format!("{{\"position\": \"{}\"}}", "W".repeat(270 * 1024));
    let mut req = format!(
        "POST /v1/variants/international/moves HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes();
    req.extend_from_slice(b"GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n");
    let text = raw(port(&app), req, None).await;
    assert!(
        text.starts_with("HTTP/1.1 413"),
        "{}",
        &text[..80.min(text.len())]
    );
    assert!(
        text.contains("HTTP/1.1 200 OK"),
        "the next request on the connection is answered"
    );
}
