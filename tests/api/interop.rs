//! Interoperability with the files and sites people use: lidraughts' and PlayStrategy's
//! variant names and GameTypes, variant ids in any case and by alias, lidraughts' FEN move
//! counters, and games written back as canonical PDN.

use serde_json::json;

use crate::helpers::{ok_json, problem, spawn_app};

#[tokio::test]
async fn variants_are_found_in_any_case_and_by_their_aliases() {
    let app = spawn_app().await;
    for (name, id) in [
        ("International", "international"),
        ("RUSSIAN", "russian"),
        ("standard", "international"),
        ("Standard", "international"),
        ("frysk!", "frysk"),
        ("Frysk!", "frysk"),
    ] {
        let v = ok_json(app.get(&format!("/v1/variants/{name}")).await).await;
        assert_eq!(v["id"], id, "{name}");
        let moves = ok_json(app.get(&format!("/v1/variants/{name}/moves")).await).await;
        assert_eq!(moves["variant"], id, "{name}");
    }
    let played = ok_json(
        app.post_json("/v1/variants/Standard/play", &json!({"move": "32-28"}))
            .await,
    )
    .await;
    assert_eq!(played["variant"], "international");
    problem(app.get("/v1/variants/chess").await, 404, "unknown-variant").await;
}

#[tokio::test]
async fn lidraughts_game_types_and_variant_tags_are_read() {
    let app = spawn_app().await;
    let file = "[GameType \"98\"]\n1. 32-28 19-23 *\n\n\
                [GameType \"20\"]\n[Variant \"Antidraughts\"]\n1. 32-28 *\n\n\
                [GameType \"20\"]\n[Variant \"Standard\"]\n1. 32-28 *\n\n\
                [GameType \"97\"]\n1. 46-41 *\n\n\
                [GameType \"20\"]\n[Variant \"Frysk!\"]\n1. 46-41 *\n\n\
                [GameType \"99\"]\n[FEN \"W:W28:B23\"]\n1. 28x19 *\n\n\
                [GameType \"99\"]\n[Variant \"Frisian\"]\n[FEN \"W:W28:B18\"]\n1. 28x8 *\n\n\
                [GameType \"96\"]\n1. 32-28 *\n\n\
                [Variant \"Russian\"]\n[FEN \"W:W21-32:B1-12:H0:F1\"]\n1. c3-d4 *\n";
    let body = ok_json(
        app.post_raw(
            "/v1/judge/pdn",
            Some("text/plain"),
            file.as_bytes().to_vec(),
        )
        .await,
    )
    .await;
    let got: Vec<(&str, &str)> = body["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["variant"].as_str().unwrap_or("-"),
                g["verdict"].as_str().unwrap_or("-"),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("antidraughts", "undecided"),
            ("antidraughts", "undecided"),
            ("international", "undecided"),
            ("frysk", "undecided"),
            ("frysk", "undecided"),
            ("international", "white_wins"),
            ("frisian", "white_wins"),
            ("breakthrough", "undecided"),
            ("russian", "undecided"),
        ],
        "{body}"
    );
}

#[tokio::test]
async fn lidraughts_move_counters_are_kept_and_carried_on() {
    let app = spawn_app().await;
    // A man move restarts the half-move clock; the move number goes up after Black's ply.
    let body = ok_json(
        app.get("/v1/variants/international/moves?position=W:W31-50:B1-20:H7:F12")
            .await,
    )
    .await;
    assert!(body["position"].as_str().unwrap().ends_with(":H7:F12"));
    let m = &body["moves"][0];
    assert_eq!(m["notation"], "31-26");
    assert!(
        m["resulting_position"]
            .as_str()
            .unwrap()
            .ends_with(":H0:F12"),
        "{m}"
    );
    let played = ok_json(
        app.post_json(
            "/v1/variants/international/play",
            &json!({"position": "W:WK47:BK5:H3:F30", "moves": ["47-42", "5-10"]}),
        )
        .await,
    )
    .await;
    assert_eq!(played["position"], "W:WK42:BK10:H5:F31");
    // Without counters in, none out.
    let plain = ok_json(
        app.post_json(
            "/v1/variants/international/play",
            &json!({"position": "W:WK46:BK5", "move": "46-41"}),
        )
        .await,
    )
    .await;
    assert_eq!(plain["position"], "B:WK41:BK5");
}

#[tokio::test]
async fn the_judge_continues_the_half_move_clock_of_the_start_fen() {
    let app = spawn_app().await;
    // FMJD 6.2 (KINGS_25): 50 plies of king moves without a capture. Four more plies reach
    // it from a clock at 46; from a FEN without the clock they do not.
    let moves = json!(["47-42", "4-9", "42-47", "9-4"]);
    let counted = ok_json(
        app.post_json(
            "/v1/variants/international/judge",
            &json!({"start_position": "W:WK46,K47:BK5,K4:H46:F60", "moves": moves}),
        )
        .await,
    )
    .await;
    assert_eq!(counted["verdict"], "draw", "{counted}");
    assert_eq!(counted["reason"]["code"], "KINGS_25");
    assert_eq!(counted["decided_at_ply"], 4);
    assert_eq!(counted["final_position"], "W:WK46,K47:BK4,K5:H50:F62");
    let fresh = ok_json(
        app.post_json(
            "/v1/variants/international/judge",
            &json!({"start_position": "W:WK46,K47:BK5,K4", "moves": moves}),
        )
        .await,
    )
    .await;
    assert_eq!(fresh["verdict"], "undecided", "{fresh}");
    // The same in a PDN file's FEN tag.
    let file = "[GameType \"20\"]\n[FEN \"W:WK46,K47:BK5,K4:H46:F60\"]\n\
                60. 47-42 4-9 61. 42-47 9-4 *\n";
    let pdn = ok_json(
        app.post_raw(
            "/v1/judge/pdn",
            Some("text/plain"),
            file.as_bytes().to_vec(),
        )
        .await,
    )
    .await;
    assert_eq!(pdn["games"][0]["reason"]["code"], "KINGS_25", "{pdn}");
    assert_eq!(
        pdn["games"][0]["final_position"],
        "W:WK46,K47:BK4,K5:H50:F62"
    );
}

#[tokio::test]
async fn judged_games_come_back_as_canonical_pdn() {
    let app = spawn_app().await;
    let judged = ok_json(
        app.post_json(
            "/v1/variants/international/judge",
            &json!({"start_position": "W:W28:B23", "moves": ["28x19"], "include_pdn": true}),
        )
        .await,
    )
    .await;
    assert_eq!(
        judged["pdn"],
        "[GameType \"20,W,10,10,N2,0\"]\n[FEN \"W:W28:B23\"]\n[Result \"2-0\"]\n\n\
         1. 28x19 {game over after ply 1: NO_LEGAL_MOVES} 2-0\n"
    );
    let plain = ok_json(
        app.post_json(
            "/v1/variants/international/judge",
            &json!({"moves": ["32-28"]}),
        )
        .await,
    )
    .await;
    assert!(plain.get("pdn").is_none(), "only when asked for");

    // A file: its tags kept, the Result set from the judgement (a resignation the moves do
    // not show stays as declared), the illegal move and the reading of an ambiguous capture
    // in comments. Black moves first in English; the second game starts with White to move.
    let file = "[Event \"Club\"]\n[GameType \"20\"]\n[Result \"0-2\"]\n\
                1. 32-28 19-23 2. 28-22 *\n\n\
                [Event \"Resigned\"]\n[GameType \"21\"]\n[Result \"1-0\"]\n1. 11-15 23-19 1-0\n\n\
                [GameType \"20\"]\n[FEN \"W:WK47:B14,19,29,31,42,5\"]\n1. 47x36 {ambiguous} 5-10 *\n";
    let body = ok_json(
        app.post_raw(
            "/v1/judge/pdn?include_pdn=true",
            Some("text/plain"),
            file.as_bytes().to_vec(),
        )
        .await,
    )
    .await;
    let games = body["games"].as_array().unwrap();
    let first = games[0]["pdn"].as_str().unwrap();
    assert!(first.starts_with("[Event \"Club\"]\n[GameType \"20,W,10,10,N2,0\"]\n[Result \"*\"]\n\n1. 32-28 19-23\n{ply 3: '28-22' is not a legal move"), "{first}");
    assert!(first.ends_with("*\n"), "{first}");
    let second = games[1]["pdn"].as_str().unwrap();
    assert_eq!(
        second,
        "[Event \"Resigned\"]\n[GameType \"21,B,8,8,N1,0\"]\n[Result \"1-0\"]\n\n1. 11-15 23-19 1-0\n"
    );
    let third = games[2]["pdn"].as_str().unwrap();
    assert!(third.contains("1. 47x38x"), "{third}");
    assert!(third.contains("{ambiguous-move-"), "{third}");
}
