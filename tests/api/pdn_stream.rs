//! `POST /v1/judge/pdn` with `Accept: application/x-ndjson`: PDN files of any size judged as
//! a stream of JSON lines, one per game, then a summary line (or an error line).

use std::io::Write;
use std::time::{Duration, Instant};

use arbiter::config::Config;
use arbiter::config::StreamLimits;
use serde_json::Value;

use crate::helpers::{ok_json, problem, spawn_app, spawn_app_with, TestApp};

const PATH: &str = "/v1/judge/pdn";
const NDJSON: &str = "application/x-ndjson";

fn real(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/data/games/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: the real game records: {e}"))
}

async fn send(
    app: &TestApp,
    query: &str,
    encoding: Option<&str>,
    body: Vec<u8>,
) -> reqwest::Response {
    let mut req = app
        .client
        .post(app.url(&format!("{PATH}{query}")))
        .header("content-type", "text/plain")
        .header("accept", NDJSON)
        .body(body);
    if let Some(e) = encoding {
        req = req.header("content-encoding", e);
    }
    req.send().await.expect("request sent")
}

/// The lines of a streamed answer, checked: 200, NDJSON, one line per game in file order,
/// then the last line (returned apart).
async fn lines(res: reqwest::Response) -> (Vec<Value>, Value) {
    assert_eq!(res.status(), 200);
    assert_eq!(
        res.headers()["content-type"].to_str().unwrap(),
        NDJSON,
        "{:?}",
        res.headers()
    );
    let text = res.text().await.expect("body");
    assert!(
        text.ends_with('\n'),
        "{}",
        &text[text.len().saturating_sub(300)..]
    );
    let mut all: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    let last = all.pop().expect("a last line");
    assert!(last.get("summary").is_some(), "{last}");
    for (i, g) in all.iter().enumerate() {
        assert_eq!(g["index"], i, "{g}");
        assert!(
            g.get("summary").is_none() && g.get("error").is_none_or(|e| e.get("code").is_some())
        );
    }
    let judged = all.iter().filter(|g| g["outcome"] == "judged").count();
    if last.get("error").is_none() {
        assert_eq!(last["summary"]["games"], all.len(), "{last}");
        assert_eq!(last["summary"]["judged"], judged, "{last}");
        assert_eq!(last["summary"]["errors"], all.len() - judged, "{last}");
    }
    (all, last)
}

#[tokio::test]
async fn a_real_file_gives_the_entries_of_the_json_answer_line_by_line() {
    let app = spawn_app().await;
    for (file, query) in [
        ("international/pcheckers_candidate95.pdn", ""),
        (
            "english/pdnstd_OCA_2.0_excerpt.pdn",
            "?variant=english&include_pdn=true",
        ),
        (
            "russian/pdnstd_abatsiev_cyrillic.pdn",
            "?result_convention=white-first",
        ),
        ("brazilian/py-draughts_lidraughts_brazilian.pdn", ""),
    ] {
        let body = real(file);
        let json = ok_json(
            app.post_raw(&format!("{PATH}{query}"), Some("text/plain"), body.clone())
                .await,
        )
        .await;
        let (games, last) = lines(send(&app, query, None, body).await).await;
        assert!(!games.is_empty(), "{file}");
        assert_eq!(Value::Array(games), json["games"], "{file}");
        assert_eq!(
            last,
            serde_json::json!({ "summary": json["summary"] }),
            "{file}"
        );
    }
}

/// A file of `n` copies of one short international game.
fn many_games(n: usize) -> Vec<u8> {
    let game = "[Event \"g\"]\n[GameType \"20\"]\n[Result \"2-0\"]\n\
                1. 32-28 19-23 2. 28x19 14x23 *\n\n";
    game.repeat(n).into_bytes()
}

#[tokio::test]
async fn more_than_200_games_are_judged_and_the_json_answer_names_the_stream() {
    let app = spawn_app().await;
    let body = many_games(1000);
    let res = app.post_raw(PATH, Some("text/plain"), body.clone()).await;
    let p = problem(res, 422, "too-many-games").await;
    assert!(
        p["detail"]
            .as_str()
            .unwrap()
            .contains("Accept: application/x-ndjson"),
        "{p}"
    );
    let (games, last) = lines(send(&app, "", None, body).await).await;
    assert_eq!(games.len(), 1000);
    assert_eq!(last["summary"]["judged"], 1000, "{last}");
    assert!(games.iter().all(|g| g["plies"] == 4), "{}", games[0]);
    // The same bound of one body as the JSON answer's does not apply: 3 MiB of games.
    let big = many_games(50_000);
    assert!(big.len() > 3 << 20);
    let (games, _) = lines(send(&app, "", None, big).await).await;
    assert_eq!(games.len(), 50_000);
}

fn gzip(b: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(6));
    e.write_all(b).unwrap();
    e.finish().unwrap()
}

fn zlib(b: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::new(6));
    e.write_all(b).unwrap();
    e.finish().unwrap()
}

fn brotli(b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let params = brotli::enc::BrotliEncoderParams::default();
    brotli::BrotliCompress(&mut &b[..], &mut out, &params).unwrap();
    out
}

fn zstd(b: &[u8]) -> Vec<u8> {
    zstd::stream::encode_all(b, 3).unwrap()
}

#[tokio::test]
async fn compressed_bodies_are_decoded_as_they_come() {
    let app = spawn_app().await;
    let body = real("international/pcheckers_candidate95.pdn");
    let (plain, _) = lines(send(&app, "", None, body.clone()).await).await;
    let cases: [(&str, Vec<u8>); 5] = [
        ("gzip", gzip(&body)),
        ("deflate", zlib(&body)),
        ("br", brotli(&body)),
        ("zstd", zstd(&body)),
        ("gzip, br", brotli(&gzip(&body))),
    ];
    for (coding, encoded) in cases {
        let (games, last) = lines(send(&app, "", Some(coding), encoded).await).await;
        assert!(last.get("error").is_none(), "{coding}: {last}");
        assert_eq!(games, plain, "{coding}");
    }
    // Two gzip members are one body.
    let half = body.len() / 2;
    let cut = body[..half].iter().rposition(|&b| b == b'\n').unwrap() + 1;
    let mut two = gzip(&body[..cut]);
    two.extend(gzip(&body[cut..]));
    let (games, _) = lines(send(&app, "", Some("gzip"), two).await).await;
    assert_eq!(games, plain);
    // A body that is not what its coding says: an error line, after the games before.
    let mut broken = gzip(&body);
    let n = broken.len();
    broken[n / 2..n - 8].fill(0x55);
    let (_, last) = lines(send(&app, "", Some("gzip"), broken).await).await;
    assert_eq!(last["error"]["code"], "invalid-encoding", "{last}");
    // Unknown codings are refused before anything is read.
    let res = send(&app, "", Some("compress"), body).await;
    problem(res, 415, "unsupported-content-encoding").await;
}

#[tokio::test]
async fn a_game_over_the_per_game_bound_is_an_error_entry() {
    let app = spawn_app().await;
    let game = "[GameType \"20\"]\n1. 32-28 19-23 *\n\n";
    let huge = format!(
        "[Event \"huge\"]\n[GameType \"20\"]\n1. 32-28 {{{}}} *\n\n",
        "x".repeat(1100 * 1024)
    );
    let body = format!("{game}{huge}{game}");
    let (games, last) = lines(send(&app, "", None, body.into_bytes()).await).await;
    assert_eq!(games.len(), 3, "{last}");
    assert_eq!(games[0]["outcome"], "judged");
    assert_eq!(games[1]["outcome"], "error");
    assert_eq!(games[1]["line"], 4);
    assert_eq!(
        games[1]["error"]["code"], "payload-too-large",
        "{}",
        games[1]
    );
    assert_eq!(games[2]["outcome"], "judged");
    assert_eq!(games[2]["line"], 8);
    assert_eq!(last["summary"]["errors"], 1);
}

#[tokio::test]
async fn the_stream_has_a_bound_on_bytes() {
    let app = spawn_app_with(Config {
        workers: Some(1),
        pdn_stream: StreamLimits {
            max_bytes: 100_000,
            ..StreamLimits::default()
        },
        ..Config::new("127.0.0.1:0")
    })
    .await;
    let body = many_games(2000); // about 210 KB
                                 // Declared above the bound: refused before anything is read.
    let res = send(&app, "", None, body.clone()).await;
    let p = problem(res, 413, "payload-too-large").await;
    assert_eq!(p["limit"], 100_000);
    // Sent compressed (below the bound) and decoded past it: the games read before the
    // bound, then an error line.
    let (games, last) = lines(send(&app, "", Some("gzip"), gzip(&body)).await).await;
    assert_eq!(last["error"]["code"], "payload-too-large", "{last}");
    assert_eq!(last["error"]["limit"], 100_000, "{last}");
    assert!((500..1000).contains(&games.len()), "{}", games.len());
    assert_eq!(last["summary"]["games"], games.len());
}

#[tokio::test]
async fn a_json_body_is_refused() {
    let app = spawn_app().await;
    let res = app
        .client
        .post(app.url(PATH))
        .header("accept", NDJSON)
        .json(&serde_json::json!({"pdn": "1. 32-28 *", "variant": "international"}))
        .send()
        .await
        .unwrap();
    let p = problem(res, 415, "unsupported-media-type").await;
    assert!(p["detail"].as_str().unwrap().contains("text/plain"), "{p}");
    // A refused media range is no request for the stream.
    let res = app
        .client
        .post(app.url(PATH))
        .header("accept", "application/x-ndjson;q=0, application/json")
        .json(&serde_json::json!({"pdn": "1. 32-28 *", "variant": "international"}))
        .send()
        .await
        .unwrap();
    ok_json(res).await;
}

/// The games judged by the server so far (`arbiter_games_judged_total`, every variant).
async fn games_judged(app: &TestApp) -> f64 {
    let text = app.get("/metrics").await.text().await.unwrap();
    text.lines()
        .filter(|l| l.starts_with("arbiter_games_judged_total{"))
        .map(|l| l.rsplit(' ').next().unwrap().parse::<f64>().unwrap())
        .sum()
}

#[tokio::test]
async fn a_client_that_goes_away_stops_the_judging() {
    let app = spawn_app().await;
    let n = 100_000;
    let before = games_judged(&app).await;
    let mut res = send(&app, "?include_pdn=true", None, many_games(n)).await;
    assert_eq!(res.status(), 200);
    let first = res.chunk().await.unwrap().expect("a first chunk");
    assert!(first.starts_with(b"{\"index\":0,"));
    drop(res);
    // The count stops growing, far from the whole file.
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut last = games_judged(&app).await;
    loop {
        tokio::time::sleep(Duration::from_millis(500)).await;
        let now = games_judged(&app).await;
        if now == last {
            break;
        }
        assert!(Instant::now() < deadline, "still judging: {now}");
        last = now;
    }
    let judged = last - before;
    assert!(
        judged >= 1.0 && judged < (n / 2) as f64,
        "{judged} of {n} games judged"
    );
}

fn arbiter(args: &[&str], stdin: &[u8]) -> std::process::Output {
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run arbiter");
    let mut input = child.stdin.take().unwrap();
    let body = stdin.to_vec();
    let writer = std::thread::spawn(move || input.write_all(&body));
    let out = child.wait_with_output().expect("arbiter output");
    writer.join().unwrap().unwrap();
    out
}

#[tokio::test]
async fn the_cli_writes_the_lines_of_the_stream() {
    let app = spawn_app().await;
    let mut body = real("international/pcheckers_candidate95.pdn");
    body.extend(many_games(500));
    let (games, last) = lines(send(&app, "", None, body.clone()).await).await;
    assert!(games.len() > 500);
    let out = arbiter(&["judge", "-", "--ndjson"], &body);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // No progress bar when standard error is not a terminal.
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let cli: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(cli.len(), games.len() + 1);
    assert_eq!(&cli[..games.len()], &games[..]);
    assert_eq!(cli[games.len()], last);
    // The pretty JSON answer too, for any number of games.
    let out = arbiter(&["judge", "-"], &body);
    assert!(out.status.success());
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["games"], Value::Array(games));
    assert_eq!(json["summary"], last["summary"]);
    // --max-games still refuses a larger file, printing nothing.
    let out = arbiter(&["judge", "-", "--max-games", "500"], &body);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
}

#[tokio::test]
async fn streams_past_the_bound_on_streams_at_once_are_shed() {
    let app = spawn_app_with(Config {
        workers: Some(1),
        pdn_stream: StreamLimits {
            max_streams: 0,
            ..StreamLimits::default()
        },
        ..Config::new("127.0.0.1:0")
    })
    .await;
    let res = send(&app, "", None, many_games(3)).await;
    assert_eq!(res.headers()["retry-after"], "1");
    let p = problem(res, 503, "overloaded").await;
    assert_eq!(p["limit"], 0);
    // The JSON answer is not a stream.
    let res = app.post_raw(PATH, Some("text/plain"), many_games(3)).await;
    ok_json(res).await;
}

/// A brotli or zstd body counts 1 + 8 stream units (its decoder's window takes up to 16 MiB),
/// so a bound of 8 units refuses it before anything is read, whatever else runs.
#[tokio::test]
async fn wide_window_streams_count_more_against_the_bound() {
    use arbiter::api::pdn_stream::stream_units;
    use arbiter::http::coding::Coding;
    assert_eq!(stream_units(&[]), 1);
    assert_eq!(stream_units(&[Coding::Gzip]), 1);
    assert_eq!(stream_units(&[Coding::Brotli]), 9);
    assert_eq!(stream_units(&[Coding::Gzip, Coding::Zstd]), 9);
    let app = spawn_app_with(Config {
        workers: Some(1),
        pdn_stream: StreamLimits {
            max_streams: 8,
            ..StreamLimits::default()
        },
        ..Config::new("127.0.0.1:0")
    })
    .await;
    for (coding, body) in [
        ("br", brotli(&many_games(3))),
        ("zstd", zstd(&many_games(3))),
    ] {
        let res = send(&app, "", Some(coding), body).await;
        let p = problem(res, 503, "overloaded").await;
        assert_eq!(p["limit"], 8, "{coding}: {p}");
    }
}

#[tokio::test]
async fn each_game_has_its_own_budget() {
    // A budget too small for the game: each game is an entry with the error, and the stream
    // goes on.
    let app = spawn_app_with(Config {
        workers: Some(1),
        engine: arbiter::config::EngineConfig {
            work_budget: 100,
            ..arbiter::config::EngineConfig::default()
        },
        ..Config::new("127.0.0.1:0")
    })
    .await;
    let (games, last) = lines(send(&app, "", None, many_games(3)).await).await;
    assert_eq!(games.len(), 3, "{last}");
    for g in &games {
        assert_eq!(g["error"]["code"], "budget-exceeded", "{g}");
        assert_eq!(g["variant"], "international", "{g}");
    }
    assert_eq!(last["summary"]["errors"], 3);
    // The default budget is each game's own: 500 games need more than a file's budget of
    // 1000 units, and all are judged.
    let app = spawn_app_with(Config {
        workers: Some(1),
        engine: arbiter::config::EngineConfig {
            pdn_work_budget: 1000,
            ..arbiter::config::EngineConfig::default()
        },
        ..Config::new("127.0.0.1:0")
    })
    .await;
    let (games, last) = lines(send(&app, "", None, many_games(500)).await).await;
    assert_eq!(games.len(), 500);
    assert_eq!(last["summary"]["judged"], 500, "{last}");
}

#[tokio::test]
async fn the_stream_has_a_bound_on_time() {
    use std::io::Read;
    let app = spawn_app_with(Config {
        workers: Some(1),
        pdn_stream: StreamLimits {
            max_time: Duration::from_secs(1),
            ..StreamLimits::default()
        },
        ..Config::new("127.0.0.1:0")
    })
    .await;
    let addr = app.address.trim_start_matches("http://").to_string();
    // A body that never ends: one game, then nothing.
    let answer = tokio::task::spawn_blocking(move || {
        let mut s = std::net::TcpStream::connect(addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        let game = many_games(1);
        write!(
            s,
            "POST {PATH} HTTP/1.1\r\nHost: t\r\nContent-Type: text/plain\r\n\
             Accept: {NDJSON}\r\nTransfer-Encoding: chunked\r\n\r\n{:x}\r\n",
            game.len()
        )
        .unwrap();
        s.write_all(&game).unwrap();
        s.write_all(b"\r\n").unwrap();
        // Up to the chunked answer's last chunk.
        let mut out = Vec::new();
        let started = Instant::now();
        let mut buf = [0u8; 4096];
        while !out.ends_with(b"\r\n0\r\n\r\n") {
            match s.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => out.extend_from_slice(&buf[..n]),
            }
        }
        (String::from_utf8_lossy(&out).to_string(), started.elapsed())
    })
    .await
    .unwrap();
    let (text, took) = answer;
    assert!(took < Duration::from_secs(10), "{took:?}");
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
    assert!(text.contains("{\"index\":0,"), "{text}");
    let last = text
        .lines()
        .rfind(|l| l.starts_with('{'))
        .expect("a last line");
    let last: Value = serde_json::from_str(last).unwrap();
    assert_eq!(last["error"]["code"], "request-timeout", "{last}");
    assert_eq!(last["summary"]["games"], 1, "{last}");
}

/// `strict=true` in the stream: a game the PDN 3.0 grammar rejects is an error entry
/// (`pdn-syntax`, with its first fault), the games around it are judged, and the same games
/// are judged with warnings when the reading is tolerant.
#[tokio::test]
async fn strict_streams_give_each_rejected_game_its_error_entry() {
    let app = spawn_app().await;
    let good = "[GameType \"20\"]\n1. 32-28 19-23 *\n\n";
    // A comment nested in a comment (the grammar's COMMENT holds no '{').
    let nested = "[GameType \"20\"]\n1. 32-28 { a { b } } 19-23 *\n\n";
    let body = format!("{good}{nested}{good}");
    let (games, last) =
        lines(send(&app, "?strict=true", None, body.clone().into_bytes()).await).await;
    assert_eq!(games.len(), 3, "{last}");
    assert_eq!(games[0]["outcome"], "judged", "{}", games[0]);
    assert_eq!(games[1]["outcome"], "error", "{}", games[1]);
    assert_eq!(games[1]["error"]["code"], "pdn-syntax", "{}", games[1]);
    assert_eq!(games[1]["variant"], "international", "{}", games[1]);
    let detail = games[1]["error"]["detail"].as_str().unwrap();
    assert!(detail.starts_with("line 5, column "), "{detail}");
    assert_eq!(games[2]["outcome"], "judged", "{}", games[2]);
    assert_eq!(last["summary"]["errors"], 1, "{last}");

    let (games, _) = lines(send(&app, "", None, body.into_bytes()).await).await;
    assert!(games.iter().all(|g| g["outcome"] == "judged"));
    let codes: Vec<&str> = games[1]["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["code"].as_str().unwrap())
        .collect();
    assert!(codes.contains(&"nested-comment"), "{codes:?}");
}
