use serde_json::json;

use crate::helpers::{notations, ok_json, problem, spawn_app};

#[tokio::test]
async fn international_start_has_nine_moves() {
    let app = spawn_app().await;
    let body = ok_json(app.get("/v1/variants/international/moves").await).await;
    assert_eq!(body["side_to_move"], "white");
    assert_eq!(body["status"], json!({"state": "ongoing", "reason": null}));
    let n = notations(&body);
    assert_eq!(n.len(), 9, "{n:?}");
    assert!(n.contains(&"32-28".to_string()));
    let m = body["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["notation"] == "32-28")
        .unwrap();
    assert_eq!(m["from"], "32");
    assert_eq!(m["to"], "28");
    assert_eq!(m["route"], json!(["32", "28"]));
    assert_eq!(m["captured"], json!([]));
    assert_eq!(m["promotion"], false);
    let after = m["resulting_position"].as_str().unwrap();
    assert!(after.starts_with("B:W28,31,33,"), "{after}");
}

#[tokio::test]
async fn english_start_has_seven_moves_for_black() {
    let app = spawn_app().await;
    let body = ok_json(app.get("/v1/variants/english/moves").await).await;
    assert_eq!(body["side_to_move"], "black");
    let n = notations(&body);
    assert_eq!(n.len(), 7, "{n:?}");
    assert!(n.contains(&"11-15".to_string()));
}

#[tokio::test]
async fn post_with_empty_object_missing_body_or_fen_agree_with_get() {
    let app = spawn_app().await;
    let path = "/v1/variants/international/moves";
    let get = ok_json(app.get(path).await).await;
    let empty = ok_json(app.post_json(path, &json!({})).await).await;
    let missing = ok_json(app.post_raw(path, None, Vec::new()).await).await;
    let fen = ok_json(
        app.post_json(path, &json!({"position": "W:W31-50:B1-20"}))
            .await,
    )
    .await;
    assert_eq!(get, empty);
    assert_eq!(get, missing);
    assert_eq!(get, fen);
}

/// A body that arrives in several pieces (one read each) is read whole: the same answer as
/// the body sent at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_sent_in_pieces_is_read_whole() {
    use std::io::{Read, Write};
    let app = spawn_app().await;
    let fen = "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29";
    let path = "/v1/variants/international/moves";
    let whole = ok_json(app.post_json(path, &json!({ "position": fen })).await).await;
    let port: u16 = app.address.rsplit(':').next().unwrap().parse().unwrap();
    let body = format!(r#"{{"position": "{fen}"}}"#);
    let answer = tokio::task::spawn_blocking(move || {
        let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
        s.set_nodelay(true).unwrap();
        s.set_read_timeout(Some(std::time::Duration::from_secs(20)))
            .unwrap();
        let head = format!(
            "POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        );
        s.write_all(head.as_bytes()).unwrap();
        for piece in [&body[..3], &body[3..20], &body[20..]] {
            std::thread::sleep(std::time::Duration::from_millis(100));
            s.write_all(piece.as_bytes()).unwrap();
        }
        let mut answer = String::new();
        let _ = s.read_to_string(&mut answer);
        answer
    })
    .await
    .unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    let (_, json_text) = answer.split_once("\r\n\r\n").unwrap();
    let pieces: serde_json::Value = serde_json::from_str(json_text).unwrap();
    assert_eq!(pieces, whole);
}

/// Requests sent back to back on one connection, bodies and all in one write (pipelined):
/// each is answered, in order, without the client sending anything more.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pipelined_requests_with_bodies_are_all_answered() {
    use std::io::{Read, Write};
    let app = spawn_app().await;
    let port: u16 = app.address.rsplit(':').next().unwrap().parse().unwrap();
    let path = "/v1/variants/international/moves";
    let post = |fen: &str| {
        let body = format!(r#"{{"position": "{fen}"}}"#);
        format!(
            "POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
    };
    let requests = [
        post("W:W28:B23"),
        post("W:W31-50:B1-20"),
        format!("GET {path}?position=B:W28:B23 HTTP/1.1\r\nHost: x\r\n\r\n"),
        post("B:W28:B23"),
    ]
    .concat();
    let answer = tokio::task::spawn_blocking(move || {
        let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
        s.set_nodelay(true).unwrap();
        // A request left waiting would fail the test here rather than hang it.
        s.set_read_timeout(Some(std::time::Duration::from_secs(10)))
            .unwrap();
        s.write_all(requests.as_bytes()).unwrap();
        let mut answer = Vec::new();
        let mut buf = [0u8; 65536];
        while answer.windows(9).filter(|w| w == b"HTTP/1.1 ").count() < 4 || !answer.ends_with(b"}")
        {
            match s.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => answer.extend_from_slice(&buf[..n]),
            }
        }
        String::from_utf8(answer).unwrap()
    })
    .await
    .unwrap();
    let heads: Vec<&str> = answer
        .match_indices("HTTP/1.1 ")
        .map(|(i, _)| &answer[i..i + 12])
        .collect();
    assert_eq!(heads, ["HTTP/1.1 200"; 4], "{answer}");
    let positions: Vec<&str> = answer
        .match_indices(r#""position":""#)
        .map(|(i, m)| {
            let rest = &answer[i + m.len()..];
            &rest[..rest.find('"').unwrap()]
        })
        .collect();
    assert_eq!(positions, ["W:W28:B23", "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20", "B:W28:B23", "B:W28:B23"], "{answer}");
}

#[tokio::test]
async fn get_with_a_fen_in_the_query_string() {
    let app = spawn_app().await;
    let res = app
        .client
        .get(app.url("/v1/variants/international/moves"))
        .query(&[("position", "W:W28:B23")])
        .send()
        .await
        .unwrap();
    let body = ok_json(res).await;
    assert_eq!(body["position"], "W:W28:B23");
    let m = &body["moves"][0];
    assert_eq!(notations(&body), vec!["28x19"]);
    assert_eq!(m["captured"], json!(["23"]));
    assert_eq!(m["resulting_position"], "B:W19:B");
}

#[tokio::test]
async fn ambiguous_captures_are_written_in_long_form() {
    let app = spawn_app().await;
    let body = ok_json(
        app.post_json(
            "/v1/variants/international/moves",
            &json!({"position": "W:WK47:B14,19,29,31,42"}),
        )
        .await,
    )
    .await;
    let mut n = notations(&body);
    n.sort();
    assert_eq!(n, vec!["47x38x20x9x36", "47x38x24x13x36"]);
    for m in body["moves"].as_array().unwrap() {
        assert_eq!(m["captured"].as_array().unwrap().len(), 4, "{m}");
        assert_eq!(m["from"], "47");
        assert_eq!(m["to"], "36");
    }
}

#[tokio::test]
async fn a_position_without_moves_is_over() {
    let app = spawn_app().await;
    let body = ok_json(
        app.post_json(
            "/v1/variants/international/moves",
            &json!({"position": "B:W19:B"}),
        )
        .await,
    )
    .await;
    assert_eq!(body["moves"], json!([]));
    assert_eq!(body["side_to_move"], "black");
    assert_eq!(
        body["status"],
        json!({"state": "white_wins", "reason": "NO_LEGAL_MOVES"})
    );
}

#[tokio::test]
async fn bad_fen_is_a_400_saying_where() {
    let app = spawn_app().await;
    let body = problem(
        app.post_json(
            "/v1/variants/international/moves",
            &json!({"position": "W:W31-50:B1-20,99"}),
        )
        .await,
        400,
        "invalid-position",
    )
    .await;
    let detail = body["detail"].as_str().unwrap();
    assert!(
        detail.contains("99") && detail.contains("character"),
        "{detail}"
    );
    assert_eq!(body["field"], "position");
    let res = app
        .client
        .get(app.url("/v1/variants/english/moves"))
        .query(&[("position", "X:W1")])
        .send()
        .await
        .unwrap();
    problem(res, 400, "invalid-position").await;
}

#[tokio::test]
async fn unknown_query_parameter_is_a_400() {
    let app = spawn_app().await;
    let body = problem(
        app.get("/v1/variants/international/moves?fen=W:W31-50:B1-20")
            .await,
        400,
        "invalid-query",
    )
    .await;
    assert!(body["detail"].as_str().unwrap().contains("fen"), "{body}");
}

#[tokio::test]
async fn unknown_variant_on_moves_is_a_404() {
    let app = spawn_app().await;
    problem(
        app.get("/v1/variants/nope/moves").await,
        404,
        "unknown-variant",
    )
    .await;
    problem(
        app.post_json("/v1/variants/nope/moves", &json!({})).await,
        404,
        "unknown-variant",
    )
    .await;
}
