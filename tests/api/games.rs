//! Whole games through /play and /judge.

use serde_json::{json, Value};

use crate::helpers::{ok_json, problem, spawn_app, TestApp};

async fn judge(app: &TestApp, variant: &str, body: Value) -> Value {
    ok_json(
        app.post_json(&format!("/v1/variants/{variant}/judge"), &body)
            .await,
    )
    .await
}

/// International kings shuffling back and forth: the start position occurs a third time
/// after 8 plies (an automatic draw under FMJD rules).
const SHUFFLE_INTL: [&str; 8] = [
    "50-44", "1-7", "44-50", "7-1", "50-44", "1-7", "44-50", "7-1",
];

/// The same in English draughts, where threefold repetition must be claimed (WCDF).
const SHUFFLE: [&str; 8] = [
    "32-28", "1-5", "28-32", "5-1", "32-28", "1-5", "28-32", "5-1",
];

#[tokio::test]
async fn threefold_repetition_is_a_draw() {
    let app = spawn_app().await;
    let body = judge(
        &app,
        "international",
        json!({"start_position": "W:WK50:BK1", "moves": SHUFFLE_INTL, "declared_result": "1-1"}),
    )
    .await;
    assert_eq!(body["verdict"], "draw", "{body}");
    assert_eq!(body["reason"]["code"], "REPETITION");
    let why = body["reason"]["description"].as_str().unwrap();
    assert!(why.contains('3'), "{why}");
    assert_eq!(body["result"], "1-1");
    assert_eq!(body["plies"], 8);
    assert_eq!(body["decided_at_ply"], 8);
    assert_eq!(body["moves_after_end"], 0);
    assert_eq!(body["final_position"], "W:WK50:BK1");
    assert_eq!(body["agreement"]["agrees"], true);
    assert!(body["invalid_move"].is_null());
}

#[tokio::test]
async fn a_claimable_repetition_is_reported_and_supports_a_draw_claim() {
    let app = spawn_app().await;
    let body = judge(
        &app,
        "english",
        json!({"start_position": "W:WK32:BK1", "moves": SHUFFLE, "declared_result": "1/2-1/2"}),
    )
    .await;
    assert_eq!(body["verdict"], "undecided", "{body}");
    assert_eq!(body["result"], "*");
    assert_eq!(body["plies"], 8);
    let claimable = body["claimable_draws"].as_array().unwrap();
    assert_eq!(claimable.len(), 1, "{body}");
    assert_eq!(claimable[0]["code"], "REPETITION");
    let ply = claimable[0]["ply"].as_u64().unwrap();
    assert!((7..=8).contains(&ply), "{ply}");
    assert_eq!(body["agreement"]["agrees"], true);
    // A win claim is not decided by these moves.
    let body = judge(
        &app,
        "english",
        json!({"start_position": "W:WK32:BK1", "moves": SHUFFLE, "declared_result": "1-0"}),
    )
    .await;
    assert!(body["agreement"]["agrees"].is_null(), "{body}");
}

#[tokio::test]
async fn moves_after_a_repetition_are_counted_not_judged() {
    let app = spawn_app().await;
    let mut moves: Vec<&str> = SHUFFLE_INTL.to_vec();
    moves.extend(["50-44", "1-7"]);
    let body = judge(
        &app,
        "international",
        json!({"start_position": "W:WK50:BK1", "moves": moves, "declared_result": "white_wins"}),
    )
    .await;
    assert_eq!(body["verdict"], "draw");
    assert_eq!(body["plies"], 8);
    assert_eq!(body["moves_after_end"], 2);
    assert_eq!(body["agreement"]["agrees"], false);
    assert_eq!(body["declared_result"], "white_wins");
}

#[tokio::test]
async fn the_same_shuffle_through_play_is_only_a_position() {
    let app = spawn_app().await;
    let body = ok_json(
        app.post_json(
            "/v1/variants/english/play",
            &json!({"position": "W:WK32:BK1", "moves": SHUFFLE}),
        )
        .await,
    )
    .await;
    assert_eq!(body["position"], "W:WK32:BK1");
    assert_eq!(body["status"]["state"], "ongoing");
    assert_eq!(body["moves"].as_array().unwrap().len(), 8);
}

#[tokio::test]
async fn a_game_ending_with_no_legal_moves() {
    let app = spawn_app().await;
    let body = judge(
        &app,
        "international",
        json!({"start_position": "W:W28:B23", "moves": ["28x19"], "declared_result": "2-0"}),
    )
    .await;
    assert_eq!(body["verdict"], "white_wins");
    assert_eq!(body["reason"]["code"], "NO_LEGAL_MOVES");
    assert_eq!(body["result"], "2-0");
    assert_eq!(body["plies"], 1);
    assert_eq!(body["decided_at_ply"], 1);
    assert_eq!(body["final_position"], "B:W19:B");
    assert_eq!(body["side_to_move"], "black");
    assert_eq!(body["agreement"]["agrees"], true);

    // Through /play, the resulting status says the same.
    let play = ok_json(
        app.post_json(
            "/v1/variants/international/play",
            &json!({"position": "W:W28:B23", "move": "28x19"}),
        )
        .await,
    )
    .await;
    assert_eq!(
        play["status"],
        json!({"state": "white_wins", "reason": "NO_LEGAL_MOVES"})
    );
}

#[tokio::test]
async fn a_wrong_claim_is_refused() {
    let app = spawn_app().await;
    let body = judge(
        &app,
        "international",
        json!({"start_position": "W:W28:B23", "moves": ["28x19", "1-7"], "declared_result": "0-2"}),
    )
    .await;
    assert_eq!(body["verdict"], "white_wins");
    assert_eq!(body["moves_after_end"], 1);
    assert_eq!(body["agreement"]["agrees"], false);
    assert!(body["agreement"]["explanation"]
        .as_str()
        .unwrap()
        .contains("a win for White"));
}

#[tokio::test]
async fn undecided_game_leaves_the_claim_open() {
    let app = spawn_app().await;
    let body = judge(
        &app,
        "international",
        json!({"moves": ["32-28", "19-23", "28x19", "14x23"], "declared_result": "1-1"}),
    )
    .await;
    assert_eq!(body["verdict"], "undecided");
    assert!(body["reason"].is_null());
    assert_eq!(body["result"], "*");
    assert_eq!(body["plies"], 4);
    assert!(body["decided_at_ply"].is_null());
    assert_eq!(body["moves"], json!(["32-28", "19-23", "28x19", "14x23"]));
    assert!(body["agreement"]["agrees"].is_null());
    let why = body["agreement"]["explanation"].as_str().unwrap();
    assert!(why.contains("resignation, time or agreement"), "{why}");
}

#[tokio::test]
async fn no_claim_means_claim_null() {
    let app = spawn_app().await;
    let body = judge(&app, "english", json!({"moves": ["11-15"]})).await;
    assert_eq!(body["verdict"], "undecided");
    assert!(body["agreement"].is_null());
    assert_eq!(body["side_to_move"], "white");
}

#[tokio::test]
async fn an_illegal_move_is_an_invalid_verdict_not_an_error() {
    let app = spawn_app().await;
    let body = judge(
        &app,
        "international",
        json!({"moves": ["32-28", "19-23", "28-22"], "declared_result": "2-0"}),
    )
    .await;
    assert_eq!(body["verdict"], "invalid");
    assert_eq!(body["result"], "*");
    assert_eq!(body["plies"], 2);
    let bad = &body["invalid_move"];
    assert_eq!(bad["ply"], 3);
    assert_eq!(bad["move"], "28-22");
    assert_eq!(bad["code"], "illegal-move");
    assert_eq!(bad["legal_moves"], json!(["28x19"]));
    assert!(body["agreement"]["agrees"].is_null(), "{body}");
    assert!(body["agreement"]["explanation"]
        .as_str()
        .unwrap()
        .contains("illegal move at ply 3"));
}

#[tokio::test]
async fn an_ambiguous_move_in_a_game_is_judged_with_a_warning() {
    // A game is a record: 47x36 names two captures (PDN 3.0's example); both keep the game
    // legal to its end, so the first is judged and the warning names both.
    let app = spawn_app().await;
    let body = judge(
        &app,
        "international",
        json!({"start_position": "W:WK47:B14,19,29,31,42", "moves": ["47x36"]}),
    )
    .await;
    assert_eq!(body["verdict"], "undecided", "{body}");
    assert!(body["invalid_move"].is_null());
    let w = &body["warnings"][0];
    assert_eq!(w["code"], "ambiguous-move-unresolved", "{w}");
    assert_eq!(w["ply"], 1);
    assert_eq!(w["text"], "47x36");
    assert_eq!(w["verdict_differs"], false);
    let mut both = vec![
        w["reading"].as_str().unwrap().to_string(),
        w["alternatives"][0].as_str().unwrap().to_string(),
    ];
    both.sort();
    assert_eq!(both, ["47x38x20x9x36", "47x38x24x13x36"]);
    assert_eq!(body["moves"][0], w["reading"]);
}

#[tokio::test]
async fn a_judged_game_without_repairs_has_no_warnings() {
    let app = spawn_app().await;
    let body = judge(&app, "international", json!({"moves": ["32-28", "19-23"]})).await;
    assert_eq!(body["warnings"], json!([]));
}

#[tokio::test]
async fn the_claimed_result_is_read_by_the_result_convention() {
    // English: Black moves first. Black's 14x23 takes White's last piece: a Black win. With
    // the first mover's score first (PDN 3.0, the default) that is 1-0; with White's score
    // first it is 0-1.
    let app = spawn_app().await;
    let game = |claimed: &str, convention: Option<&str>| {
        let mut body = json!({"start_position": "B:W18:B14", "moves": ["14x23"],
                              "declared_result": claimed});
        if let Some(c) = convention {
            body["result_convention"] = json!(c);
        }
        body
    };
    let body = judge(&app, "english", game("1-0", None)).await;
    assert_eq!(body["verdict"], "black_wins", "{body}");
    assert_eq!(body["result"], "1-0");
    assert_eq!(body["agreement"]["agrees"], true, "{body}");
    assert_eq!(body["warnings"], json!([]));

    // Declared the other way round: the claim disagrees, and a warning says that the other
    // convention would agree. The claim itself is never flipped.
    let body = judge(&app, "english", game("0-1", None)).await;
    assert_eq!(body["agreement"]["agrees"], false, "{body}");
    assert_eq!(body["warnings"][0]["code"], "result-convention", "{body}");
    assert_eq!(body["warnings"][0]["ply"], 0);

    let body = judge(&app, "english", game("0-1", Some("white-first"))).await;
    assert_eq!(body["result"], "0-1");
    assert_eq!(body["agreement"]["agrees"], true, "{body}");
    assert_eq!(body["warnings"], json!([]));

    // Where White moves first both conventions read alike.
    let body = judge(
        &app,
        "international",
        json!({"start_position": "W:W28:B23", "moves": ["28x19"], "declared_result": "2-0",
               "result_convention": "white-first"}),
    )
    .await;
    assert_eq!(body["agreement"]["agrees"], true, "{body}");
    assert_eq!(body["result"], "2-0");
}

#[tokio::test]
async fn judge_request_errors() {
    let app = spawn_app().await;
    let path = "/v1/variants/international/judge";
    problem(
        app.post_json(path, &json!({"moves": ["32-28"], "declared_result": "3-0"}))
            .await,
        400,
        "invalid-body",
    )
    .await;
    problem(app.post_json(path, &json!({})).await, 400, "invalid-body").await;
    problem(
        app.post_json(
            path,
            &json!({"moves": ["32-28"], "result_convention": "black-first"}),
        )
        .await,
        400,
        "invalid-body",
    )
    .await;
    problem(
        app.post_json(path, &json!({"start_position": "W:Z1", "moves": []}))
            .await,
        400,
        "invalid-position",
    )
    .await;
    let moves: Vec<&str> = std::iter::repeat_n("32-28", 1001).collect();
    problem(
        app.post_json(path, &json!({"moves": moves})).await,
        422,
        "too-many-moves",
    )
    .await;
}

#[tokio::test]
async fn a_decided_start_position_is_decided_at_ply_zero() {
    let app = spawn_app().await;
    let body = judge(
        &app,
        "international",
        json!({"start_position": "B:W19:B", "moves": ["1-7"]}),
    )
    .await;
    assert_eq!(body["verdict"], "white_wins");
    assert_eq!(body["decided_at_ply"], 0);
    assert_eq!(body["moves_after_end"], 1);
}

#[tokio::test]
async fn the_full_long_form_of_a_capture_is_one_move() {
    let app = spawn_app().await;
    let body = judge(
        &app,
        "international",
        json!({"start_position": "W:WK47:B14,19,29,31,42", "moves": ["47x38x24x13x36"]}),
    )
    .await;
    assert_eq!(body["verdict"], "undecided", "{body}");
    assert_eq!(body["moves"], json!(["47x38x24x13x36"]));
    assert_eq!(body["final_position"], "B:WK36:B14");
}

#[tokio::test]
async fn unfinished_and_forfeit_results_are_accepted() {
    let app = spawn_app().await;
    for claimed in ["*", "0-0"] {
        let body = judge(
            &app,
            "english",
            json!({"moves": ["11-15"], "declared_result": claimed}),
        )
        .await;
        assert_eq!(body["declared_result"], claimed);
        assert!(body["agreement"]["agrees"].is_null(), "{body}");
    }
}

/// Camelot moves that neither capture nor enter a castle nor repeat a position: White's a4
/// walks rank by rank from a4 to c8, Black's l13 from l13 down to j9, 50 moves each.
fn fifty_moves() -> Vec<String> {
    let walk = |file: u8, rank: u8, dir: i8, up: i8| {
        let (mut at, mut dir) = ((file, rank), dir);
        let mut out = Vec::new();
        while out.len() < 50 {
            let f = at.0 as i8 + dir;
            let next = if (0..12).contains(&f) {
                (f as u8, at.1)
            } else {
                dir = -dir;
                (at.0, (at.1 as i8 + up) as u8)
            };
            out.push(format!(
                "{}{}-{}{}",
                (b'a' + at.0) as char,
                at.1,
                (b'a' + next.0) as char,
                next.1
            ));
            at = next;
        }
        out
    };
    walk(0, 4, 1, 1)
        .into_iter()
        .zip(walk(11, 13, -1, -1))
        .flat_map(|(w, b)| [w, b])
        .collect()
}

/// Whole games of the Camelot family, each ending by another rule: the enemy castle taken
/// (in the middle of a capture, too; both squares in Camelot), every enemy piece captured, a
/// side left without a move (in Camelot a loss against two pieces, a draw against one), one
/// piece each, threefold repetition and Camelot's 50-move rule. The games from the start
/// position were played at random; the engine's tests check random games move by move
/// against an independent generator. The blocked sides are set up by hand.
#[tokio::test]
async fn camelot_family_games_end_by_castle_capture_stalemate_and_draws() {
    let app = spawn_app().await;
    let shuffle = [
        "c4-c3", "c10-c11", "c3-c4", "c11-c10", "c4-c3", "c10-c11", "c3-c4", "c11-c10",
    ];
    let games: [(&str, Value, &str, &str, u64); 17] = [
        (
            "cam",
            json!({"moves": ["e5-g5", "b9-d11", "e4-c6", "d11-d12", "c6-d7", "e10-f11",
                             "b5-a4", "c9-c8", "d7xb9xd11xd13"]}),
            "white_wins",
            "CASTLE_TAKEN",
            9,
        ),
        (
            "cam",
            json!({"moves": ["e4-d3", "e9-d8", "f5-f6", "c9-e7", "c5-c3-e3", "c10-e8-e6xg6",
                             "e5-d6", "e10-c8-e8-e6xc6xe4xe2", "d3-c3", "e2-d1"]}),
            "black_wins",
            "CASTLE_TAKEN",
            10,
        ),
        (
            "cam",
            json!({"moves": ["c4-c6", "c9-b8", "c6-b7", "b8xb6xb4xd6xf4xf6", "e4-e5",
                             "f6xd4xd6"]}),
            "black_wins",
            "ALL_CAPTURED",
            6,
        ),
        (
            "cam",
            json!({"start_position": "B:Wa4:Ba5,a6,b5,c6,b4,c4,b3,d2", "moves": ["d2-c2"]}),
            "black_wins",
            "NO_LEGAL_MOVES",
            1,
        ),
        ("cam", json!({"moves": shuffle}), "draw", "REPETITION", 8),
        (
            "camelot-lovagcsata",
            json!({"moves": ["e4-d3", "d9-c8", "d5-d6", "b9-d7xd5xb3", "d3-c2", "b3xd1"]}),
            "black_wins",
            "CASTLE_TAKEN",
            6,
        ),
        (
            "camelot-lovagcsata",
            json!({"moves": ["d5-c6", "f9-e8", "e4-g6", "e9-e11", "f5-d5-b3", "e11-d12",
                             "b5-d7xf9xd11xd13"]}),
            "white_wins",
            "CASTLE_TAKEN",
            7,
        ),
        (
            "camelot-lovagcsata",
            json!({"moves": ["e4-e6", "f9-f8", "e6-f7", "f8xf6xf4xd6xb4xb6", "d5-c5",
                             "b6xd4xb4"]}),
            "black_wins",
            "ALL_CAPTURED",
            6,
        ),
        (
            "camelot-lovagcsata",
            json!({"start_position": "B:WNa4:BNa5,Na6,Nb5,Nc6,Nb4,Nc4,Nb3,Nd2",
                   "moves": ["d2-c2"]}),
            "black_wins",
            "NO_LEGAL_MOVES",
            1,
        ),
        (
            "camelot-lovagcsata",
            json!({"moves": shuffle}),
            "draw",
            "REPETITION",
            8,
        ),
        (
            "camelot",
            json!({"start_position": "W:Wf14,g14,a4:Ba13,b13",
                   "moves": ["f14-f15", "a13-a12", "f15-f16", "a12-a11", "g14-g15", "a11-a10",
                             "g15-g16"]}),
            "white_wins",
            "CASTLE_TAKEN",
            7,
        ),
        (
            "camelot",
            json!({"moves": ["j6-k6", "e10-d9", "g6-f5", "g10-h9", "d7-d5", "f11-f12", "i6-g8",
                             "i10-g10-i8xi6xg6xe8",
                             "c6-e4-g6-i8xg10xg12xe12xc10xe10xc8", "h10-g9",
                             "d5-d7xf9xf11xd11xb11", "i11-j12", "g8xg10xi12xk10", "j12-k11",
                             "k10xk12"]}),
            "white_wins",
            "ALL_CAPTURED",
            15,
        ),
        (
            "camelot",
            json!({"start_position": "W:Wa4,b4:Bf16,e15,f15,g15,d14,f14,h14",
                   "moves": ["a4-a5"]}),
            "white_wins",
            "NO_LEGAL_MOVES",
            1,
        ),
        (
            "camelot",
            json!({"start_position": "W:Wa4:Bf16,e15,f15,g15,d14,f14,h14",
                   "moves": ["a4-a5"]}),
            "draw",
            "STALEMATE_DRAW",
            1,
        ),
        (
            "camelot",
            json!({"start_position": "W:Wd4:Bd5,a13", "moves": ["d4xd6"]}),
            "draw",
            "INSUFFICIENT_MATERIAL",
            1,
        ),
        (
            "camelot",
            json!({"moves": ["d6-d5", "d10-d9", "d5-d6", "d9-d10", "d6-d5", "d10-d9",
                             "d5-d6", "d9-d10"]}),
            "draw",
            "REPETITION",
            8,
        ),
        (
            "camelot",
            json!({"start_position": "W:Wa4,f2:Bl13,f15", "moves": fifty_moves()}),
            "draw",
            "NO_PROGRESS_50",
            100,
        ),
    ];
    for (variant, body, verdict, code, ply) in games {
        let got = judge(&app, variant, body.clone()).await;
        assert_eq!(got["verdict"], verdict, "{variant} {body}: {got}");
        assert_eq!(got["reason"]["code"], code, "{variant} {body}: {got}");
        assert_eq!(got["decided_at_ply"], ply, "{variant} {body}: {got}");
        assert_eq!(got["moves_after_end"], 0, "{variant} {body}: {got}");
    }
}

/// Frisian: the king run is part of the position, read from the FEN's `R` field and carried
/// in every answer: `/moves`' resulting positions, `/play`, `/judge` and the PDN judge.
#[tokio::test]
async fn a_frisian_king_run_is_carried_in_every_answer() {
    let app = spawn_app().await;
    // From a FEN alone: the king on 41 has made three quiet moves in a row; only the man on
    // 48 may move, and its move ends the run.
    let run3 = "W:WK41,48:BK6:R41/3,-";
    let listed = ok_json(
        app.post_json("/v1/variants/frisian/moves", &json!({"position": run3}))
            .await,
    )
    .await;
    let moves: Vec<(&str, &str)> = listed["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["notation"].as_str().unwrap(),
                m["resulting_position"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        moves,
        [("48-42", "B:WK41,42:BK6"), ("48-43", "B:WK41,43:BK6")],
        "{listed}"
    );
    // A king's quiet move extends its run; the answer's FEN carries it.
    let listed = ok_json(
        app.post_json(
            "/v1/variants/frisian/moves",
            &json!({"position": "W:WK41,48:BK6:R41/2,-"}),
        )
        .await,
    )
    .await;
    let to_46 = listed["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["notation"] == "41-46")
        .expect("41-46 is legal after two quiet moves");
    assert_eq!(to_46["resulting_position"], "B:WK46,48:BK6:R46/3,-");

    // /play: three quiet king moves from no run, the FEN comes back with a run of three...
    let played = ok_json(
        app.post_json(
            "/v1/variants/frisian/play",
            &json!({"position": "W:WK46,48:BK1", "moves": ["46-41", "1-6", "41-46", "6-1", "46-41", "1-6"]}),
        )
        .await,
    )
    .await;
    assert_eq!(played["position"], run3, "{played}");
    // ... and played from that FEN, the fourth is refused, the man's move clears the run.
    let body = problem(
        app.post_json(
            "/v1/variants/frisian/play",
            &json!({"position": run3, "move": "41-46"}),
        )
        .await,
        422,
        "illegal-move",
    )
    .await;
    assert_eq!(body["violation"], "king-move-limit", "{body}");
    let played = ok_json(
        app.post_json(
            "/v1/variants/frisian/play",
            &json!({"position": run3, "moves": ["48-42", "6-1", "41-46"]}),
        )
        .await,
    )
    .await;
    assert_eq!(played["position"], "B:W42,K46:BK1:R46/1,-", "{played}");

    // /judge from a start with a run: the fourth move is an invalid move at ply 1.
    let body = judge(
        &app,
        "frisian",
        json!({"start_position": run3, "moves": ["41-46"]}),
    )
    .await;
    assert_eq!(body["verdict"], "invalid", "{body}");
    assert_eq!(body["invalid_move"]["ply"], 1, "{body}");
    let body = judge(
        &app,
        "frisian",
        json!({"start_position": "W:WK41,48:BK6:R41/2,-", "moves": ["41-46"]}),
    )
    .await;
    assert_eq!(body["final_position"], "B:WK46,48:BK6:R46/3,-", "{body}");

    // The PDN judge reads the run from the FEN tag.
    let pdn = format!("[GameType \"40\"]\n[FEN \"{run3}\"]\n1. 41-46 *\n");
    let body = ok_json(
        app.post_raw("/v1/judge/pdn", Some("text/plain"), pdn.into_bytes())
            .await,
    )
    .await;
    assert_eq!(body["games"][0]["verdict"], "invalid", "{body}");
    assert_eq!(body["games"][0]["invalid_move"]["ply"], 1, "{body}");
}
