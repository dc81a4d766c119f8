//! `arbiter serve` configuration (flags and environment), the bounds it sets, and graceful
//! shutdown.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use arbiter::config::{Config, LogFormat, ServeArgs, MAX_BODY_BYTES};
use clap::Parser;

use crate::helpers::{ok_json, problem, spawn_app_with};

#[derive(Parser, Debug)]
struct Cli {
    #[command(flatten)]
    serve: ServeArgs,
}

const VARS: [&str; 8] = [
    "ARBITER_ADDR",
    "ARBITER_WORKERS",
    "ARBITER_BODY_LIMIT",
    "ARBITER_REQUEST_TIMEOUT",
    "ARBITER_KEEP_ALIVE",
    "ARBITER_SHUTDOWN_TIMEOUT",
    "ARBITER_SHUTDOWN_DELAY",
    "ARBITER_LOG_FORMAT",
];

/// Flags, environment fallbacks, defaults and refusals, in one test because the environment
/// is shared by the whole test process (no other test reads these variables).
#[test]
fn flags_env_fallbacks_and_defaults() {
    for v in VARS {
        std::env::remove_var(v);
    }
    let d = Cli::try_parse_from(["serve"]).unwrap().serve;
    assert_eq!(d.addr, "0.0.0.0:8080");
    assert_eq!(d.workers, None);
    assert_eq!(d.body_limit, MAX_BODY_BYTES);
    assert_eq!(d.request_timeout, 10);
    assert_eq!(d.keep_alive, 75);
    assert_eq!(d.shutdown_timeout, 20);
    assert_eq!(d.shutdown_delay, 0);
    assert_eq!(d.log_format, LogFormat::Pretty);
    let c = d.config();
    assert_eq!(c.request_timeout, Duration::from_secs(10));
    assert_eq!(c.shutdown_timeout, Duration::from_secs(20));
    assert!(!c.shutdown.is_shutting_down());

    let f = Cli::try_parse_from([
        "serve",
        "--addr",
        "127.0.0.1:9000",
        "--workers",
        "3",
        "--body-limit",
        "4096",
        "--request-timeout",
        "2",
        "--keep-alive",
        "0",
        "--shutdown-timeout",
        "7",
        "--log-format",
        "json",
    ])
    .unwrap()
    .serve
    .config();
    assert_eq!(f.addr, "127.0.0.1:9000");
    assert_eq!(f.workers, Some(3));
    assert_eq!(f.body_limit, 4096);
    assert_eq!(f.request_timeout, Duration::from_secs(2));
    assert!(f.keep_alive.is_zero());
    assert_eq!(f.shutdown_timeout, Duration::from_secs(7));

    let env = [
        ("ARBITER_ADDR", "127.0.0.1:7000"),
        ("ARBITER_WORKERS", "2"),
        ("ARBITER_BODY_LIMIT", "65536"),
        ("ARBITER_REQUEST_TIMEOUT", "30"),
        ("ARBITER_KEEP_ALIVE", "5"),
        ("ARBITER_SHUTDOWN_TIMEOUT", "9"),
        ("ARBITER_SHUTDOWN_DELAY", "3"),
        ("ARBITER_LOG_FORMAT", "JSON"),
    ];
    for (k, v) in env {
        std::env::set_var(k, v);
    }
    let e = Cli::try_parse_from(["serve"]).unwrap().serve;
    // A flag beats the environment.
    let flag_wins = Cli::try_parse_from(["serve", "--workers", "4"])
        .unwrap()
        .serve;
    let refused: Vec<(&str, &str)> = vec![
        ("ARBITER_WORKERS", "0"),
        ("ARBITER_BODY_LIMIT", "12"),
        ("ARBITER_BODY_LIMIT", "lots"),
        ("ARBITER_REQUEST_TIMEOUT", "0"),
        ("ARBITER_LOG_FORMAT", "xml"),
    ];
    let mut errors = Vec::new();
    for (k, v) in &refused {
        let keep = std::env::var(k).unwrap();
        std::env::set_var(k, v);
        errors.push(Cli::try_parse_from(["serve"]).is_err());
        std::env::set_var(k, keep);
    }
    for v in VARS {
        std::env::remove_var(v);
    }
    assert_eq!(e.addr, "127.0.0.1:7000");
    assert_eq!(e.workers, Some(2));
    assert_eq!(e.body_limit, 65536);
    assert_eq!(e.request_timeout, 30);
    assert_eq!(e.keep_alive, 5);
    assert_eq!(e.shutdown_timeout, 9);
    assert_eq!(e.shutdown_delay, 3);
    assert_eq!(e.log_format, LogFormat::Json);
    assert_eq!(flag_wins.workers, Some(4));
    assert!(errors.iter().all(|e| *e), "{refused:?} -> {errors:?}");
}

#[test]
fn serve_help_documents_every_setting() {
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["serve", "--help"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    for v in VARS {
        assert!(help.contains(&format!("[env: {v}")), "{v} in\n{help}");
    }
    assert!(help.contains("ARBITER_LOG") && help.contains("RUST_LOG"));
}

#[tokio::test]
async fn the_configured_body_limit_is_enforced() {
    let app = spawn_app_with(Config {
        workers: Some(1),
        body_limit: 2048,
        ..Config::new("127.0.0.1:0")
    })
    .await;
    let moves: Vec<String> = (0..400).map(|_| "32-28".to_string()).collect();
    let res = app
        .post_json(
            "/v1/variants/international/play",
            &serde_json::json!({ "moves": moves }),
        )
        .await;
    let body = problem(res, 413, "payload-too-large").await;
    assert_eq!(body["limit"], 2048);
}

#[tokio::test]
async fn readyz_turns_503_once_shutdown_starts_and_healthz_stays_200() {
    let config = Config {
        workers: Some(1),
        ..Config::new("127.0.0.1:0")
    };
    let flag = config.shutdown.clone();
    let app = spawn_app_with(config).await;
    ok_json(app.get("/readyz").await).await;
    flag.start();
    problem(app.get("/readyz").await, 503, "shutting-down").await;
    ok_json(app.get("/healthz").await).await;
}

/// Sends a request head announcing a body, then only part of it, and reads the answer.
fn slow_body(port: u16, pause: Duration, finish: bool) -> String {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let body = br#"{"position": "W:W31-50:B1-20"}"#;
    let head = format!(
        "POST /v1/variants/international/moves HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nX-Request-Id: slow-client-7\r\nOrigin: https://page.example\r\nConnection: close\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    s.write_all(&body[..5]).unwrap();
    std::thread::sleep(pause);
    if finish {
        let _ = s.write_all(&body[5..]);
    }
    let mut answer = String::new();
    let _ = s.read_to_string(&mut answer);
    answer
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_over_the_request_timeout_is_answered_503() {
    let config = Config {
        workers: Some(1),
        request_timeout: Duration::from_secs(1),
        ..Config::new("127.0.0.1:0")
    };
    let app = spawn_app_with(config).await;
    let port: u16 = app.address.rsplit(':').next().unwrap().parse().unwrap();
    let started = Instant::now();
    let answer =
        tokio::task::spawn_blocking(move || slow_body(port, Duration::from_secs(3), false))
            .await
            .unwrap();
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    assert!(answer.contains("application/problem+json"), "{answer}");
    assert!(answer.contains(r#""code":"request-timeout""#), "{answer}");
    // Like every answer: the client's request id, the version, and CORS for a web page.
    assert!(answer.contains("x-request-id: slow-client-7"), "{answer}");
    assert!(answer.contains("x-arbiter-version: "), "{answer}");
    assert!(
        answer.contains("access-control-allow-origin: *"),
        "{answer}"
    );
    assert!(started.elapsed() < Duration::from_secs(10));
    let metrics = app.get("/metrics").await.text().await.unwrap();
    assert!(
        metrics.contains(r#"route="/v1/variants/{variant}/moves",status="503"} 1"#),
        "{metrics}"
    );
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn get(stream: &mut TcpStream, path: &str) -> String {
    write!(stream, "GET {path} HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
    let mut buf = vec![0u8; 8192];
    let n = stream.read(&mut buf).unwrap();
    String::from_utf8_lossy(&buf[..n]).into_owned()
}

/// The real binary and a real SIGTERM: during the shutdown delay `/readyz` answers 503 while
/// `/healthz` and the API still answer 200; a request in flight when the listener closes
/// finishes; the process exits 0.
#[test]
#[cfg(unix)]
fn sigterm_finishes_in_flight_requests_and_exits_cleanly() {
    let port = free_port();
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["serve", "--workers", "1", "--shutdown-timeout", "10"])
        .env("ARBITER_SHUTDOWN_DELAY", "1")
        .env("ARBITER_ADDR", format!("127.0.0.1:{port}"))
        .env("ARBITER_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    let connect = || loop {
        if let Ok(s) = TcpStream::connect(("127.0.0.1", port)) {
            s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
            break s;
        }
        assert!(Instant::now() < deadline, "server did not start");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(get(&mut connect(), "/readyz").starts_with("HTTP/1.1 200"));
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    std::thread::sleep(Duration::from_millis(200));
    // In the shutdown delay (1 s): not ready, but alive and serving.
    let ready = get(&mut connect(), "/readyz");
    assert!(ready.starts_with("HTTP/1.1 503"), "{ready}");
    assert!(ready.contains("application/problem+json"), "{ready}");
    assert!(ready.contains("shutting-down"), "{ready}");
    assert!(get(&mut connect(), "/healthz").starts_with("HTTP/1.1 200"));
    // A request whose body is still arriving when the listener closes (at 1 s) finishes.
    let answer = slow_body(port, Duration::from_millis(1800), true);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains(r#""variant":"international""#), "{answer}");
    let deadline = Instant::now() + Duration::from_secs(15);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the server did not exit after SIGTERM");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "{status}");
}

/// The access log: one structured (JSON) line per request with its id, method, route, target,
/// status and latency; the probes and `/metrics` left out unless `ARBITER_LOG_PROBES` is set.
#[test]
fn the_access_log_is_structured_and_leaves_out_the_probes() {
    for log_probes in [false, true] {
        let port = free_port();
        let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(["serve", "--workers", "1", "--log-format", "json"])
            .env("ARBITER_ADDR", format!("127.0.0.1:{port}"))
            .env("ARBITER_LOG", "info")
            .env("ARBITER_LOG_PROBES", log_probes.to_string())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(20);
        let connect = || loop {
            if let Ok(s) = TcpStream::connect(("127.0.0.1", port)) {
                s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
                break s;
            }
            assert!(Instant::now() < deadline, "server did not start");
            std::thread::sleep(Duration::from_millis(50));
        };
        for path in ["/healthz", "/readyz", "/metrics", "/v1/variants/english"] {
            assert!(
                get(&mut connect(), path).starts_with("HTTP/1.1 200"),
                "{path}"
            );
        }
        let mut s = connect();
        write!(
            s,
            "GET /v1/variants/chess HTTP/1.1\r\nHost: x\r\nX-Request-Id: log-me-1\r\n\r\n"
        )
        .unwrap();
        let mut buf = vec![0u8; 4096];
        let _ = s.read(&mut buf).unwrap();
        std::thread::sleep(Duration::from_millis(300));
        let _ = child.kill();
        let out = child.wait_with_output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        let access: Vec<serde_json::Value> = text
            .lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .filter(|v| v["target"] == "arbiter::access")
            .collect();
        let paths: Vec<&str> = access
            .iter()
            .map(|v| v["fields"]["target"].as_str().unwrap_or(""))
            .collect();
        if log_probes {
            assert_eq!(
                paths,
                [
                    "/healthz",
                    "/readyz",
                    "/metrics",
                    "/v1/variants/english",
                    "/v1/variants/chess"
                ],
                "{text}"
            );
        } else {
            assert_eq!(
                paths,
                ["/v1/variants/english", "/v1/variants/chess"],
                "{text}"
            );
        }
        let last = &access.last().unwrap()["fields"];
        assert_eq!(last["request_id"], "log-me-1", "{text}");
        assert_eq!(last["status"], 404);
        assert_eq!(last["method"], "GET");
        assert_eq!(last["route"], "/v1/variants/{variant}");
        assert!(last["latency_ms"].is_number());
        let english = &access[access.len() - 2]["fields"];
        assert_eq!(english["route"], "/v1/variants/{variant}");
    }
}

/// The hidden `sleep` subcommand (the preStop hook of an image without a shell).
#[test]
fn sleep_subcommand_is_hidden_and_sleeps() {
    let started = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["sleep", "1"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(started.elapsed() >= Duration::from_secs(1));
    let help = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .arg("--help")
        .output()
        .unwrap();
    let help = String::from_utf8(help.stdout).unwrap();
    assert!(help.contains("serve") && !help.contains("sleep"), "{help}");
}
