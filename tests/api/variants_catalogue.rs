//! The catalogue: metadata checked against the rules (the federations' rules, PDN 3.0's
//! GameType table, the sites and programs that serve each variant), and a few moves of every
//! variant through `/moves` and `/play`.

use serde_json::{json, Value};

use crate::helpers::{notations, ok_json, spawn_app, TestApp};

/// id, first mover, board width, board height, square names, PDN GameType number, provisional,
/// and one legal first move written by hand in the variant's own notation.
struct Expected {
    id: &'static str,
    first: &'static str,
    width: u64,
    height: u64,
    squares: &'static str,
    game_type: Option<&'static str>,
    provisional: bool,
    hand_move: &'static str,
}

const fn e(
    id: &'static str,
    first: &'static str,
    size: (u64, u64),
    squares: &'static str,
    game_type: Option<&'static str>,
    provisional: bool,
    hand_move: &'static str,
) -> Expected {
    Expected {
        id,
        first,
        width: size.0,
        height: size.1,
        squares,
        game_type,
        provisional,
        hand_move,
    }
}

const N: &str = "numeric";
const A: &str = "algebraic";

/// The diagonal family: the federations' rules and PDN 3.0's GameType table.
const DIAGONAL: [Expected; 18] = [
    e(
        "international",
        "white",
        (10, 10),
        N,
        Some("20,W,10,10,N2,0"),
        false,
        "32-28",
    ),
    e(
        "english",
        "black",
        (8, 8),
        N,
        Some("21,B,8,8,N1,0"),
        false,
        "11-15",
    ),
    e(
        "russian",
        "white",
        (8, 8),
        A,
        Some("25,W,8,8,A0,0"),
        false,
        "c3-d4",
    ),
    e(
        "brazilian",
        "white",
        (8, 8),
        A,
        Some("26,W,8,8,A0,0"),
        false,
        "c3-d4",
    ),
    e(
        "canadian",
        "white",
        (12, 12),
        N,
        Some("27,W,12,12,N2,0"),
        false,
        "45-39",
    ),
    e(
        "czech",
        "white",
        (8, 8),
        A,
        Some("29,W,8,8,A0,0"),
        false,
        "e3-f4",
    ),
    e(
        "italian",
        "white",
        (8, 8),
        N,
        Some("22,W,8,8,N2,1"),
        false,
        "22-19",
    ),
    e(
        "portuguese",
        "white",
        (8, 8),
        N,
        Some("28,W,8,8,N1,1"),
        false,
        "11-15",
    ),
    e(
        "thai",
        "black",
        (8, 8),
        N,
        Some("31,B,8,8,N2,0"),
        false,
        "27-23",
    ),
    e("checkers", "white", (8, 8), N, None, false, "22-18"),
    e("paraszt", "white", (8, 8), N, None, false, "23-19"),
    e("anti-checkers", "white", (8, 8), N, None, false, "24-20"),
    e("corner", "white", (8, 8), A, None, true, "e3-d4"),
    e("one-way", "white", (8, 8), A, None, true, "e5xc7"),
    e("parachute", "white", (8, 8), A, None, false, "c3-d4"),
    e(
        "frisian",
        "white",
        (10, 10),
        N,
        Some("40,W,10,10,N2,0"),
        false,
        "33-29",
    ),
    e(
        "pool",
        "black",
        (8, 8),
        N,
        Some("23,B,8,8,N1,0"),
        false,
        "11-15",
    ),
    e(
        "antidraughts",
        "white",
        (10, 10),
        N,
        Some("98,W,10,10,N2,0"),
        false,
        "34-30",
    ),
];

/// The variants other engines and sites serve (lidraughts, PlayStrategy, Scan, dctl).
const MORE: [Expected; 5] = [
    e(
        "frysk",
        "white",
        (10, 10),
        N,
        Some("97,W,10,10,N2,0"),
        false,
        "48-43",
    ),
    e(
        "breakthrough",
        "white",
        (10, 10),
        N,
        Some("96,W,10,10,N2,0"),
        false,
        "32-28",
    ),
    e("killer", "white", (10, 10), N, None, true, "32-28"),
    e(
        "spanish",
        "white",
        (8, 8),
        N,
        Some("24,W,8,8,N1,1"),
        true,
        "11-15",
    ),
    e("sri-lankan", "white", (12, 12), N, None, true, "43-38"),
];

/// The orthogonal family and Konane.
const ORTHOGONAL: [Expected; 5] = [
    e(
        "turkish",
        "white",
        (8, 8),
        A,
        Some("30,W,8,8,A0,0"),
        false,
        "d3-d4",
    ),
    e("croda", "white", (8, 8), A, None, false, "d3-e4"),
    e("dameo", "white", (8, 8), A, None, false, "c1-c4"),
    e("gothic", "white", (8, 8), A, None, false, "d2-c3"),
    e("hawaiian", "black", (8, 8), A, None, false, "xd5"),
];

/// Point-and-line boards.
const LINES: [Expected; 3] = [
    e("alquerque", "white", (5, 5), A, None, false, "d3-c3"),
    e(
        "alquerque-brainking",
        "white",
        (5, 5),
        A,
        None,
        false,
        "d3-c3",
    ),
    e("seth", "white", (5, 5), A, None, true, "d3-c3"),
];

/// Drop games on small grids given as graphs (Markus Salo's games).
const DROPS: [Expected; 4] = [
    e("hageby", "white", (5, 3), A, None, false, "*d2"),
    e("vilbergen", "white", (4, 3), A, None, false, "*d2"),
    e("vilbergen-salo", "white", (4, 3), A, None, false, "*a1"),
    e("lahti", "white", (5, 2), A, None, false, "*c2"),
];

/// The Camelot family: the World Camelot Federation's Cam and Camelot, and the Hungarian
/// booklet's knights' game on the Cam board.
const CAMELOT: [Expected; 3] = [
    e("cam", "white", (7, 13), A, None, false, "d5-d6"),
    e("camelot", "white", (12, 16), A, None, false, "g7-g8"),
    e(
        "camelot-lovagcsata",
        "white",
        (7, 13),
        A,
        None,
        true,
        "c4-c6",
    ),
];

fn every() -> impl Iterator<Item = &'static Expected> {
    DIAGONAL
        .iter()
        .chain(&MORE)
        .chain(&ORTHOGONAL)
        .chain(&LINES)
        .chain(&DROPS)
        .chain(&CAMELOT)
}

#[tokio::test]
async fn the_catalogue_lists_every_variant_with_its_metadata() {
    let app = spawn_app().await;
    let body = ok_json(app.get("/v1/variants").await).await;
    let list = body["variants"].as_array().expect("variants array");
    assert_eq!(list.len(), every().count(), "{body}");
    for x in every() {
        let v = list
            .iter()
            .find(|v| v["id"] == x.id)
            .unwrap_or_else(|| panic!("{} missing from the catalogue", x.id));
        assert_eq!(v["first_mover"], x.first, "{}", x.id);
        assert_eq!(v["board"]["width"], x.width, "{}", x.id);
        assert_eq!(v["board"]["height"], x.height, "{}", x.id);
        assert_eq!(v["board"]["squares"], x.squares, "{}", x.id);
        // Checkered boards use half the squares; the orthogonal family all of them; the
        // point-and-line boards are graphs of 25 points, drawn with their points and lines.
        let full = ORTHOGONAL.iter().any(|o| o.id == x.id);
        let lines_board = LINES.iter().any(|o| o.id == x.id);
        let drops = DROPS.iter().any(|o| o.id == x.id);
        let camelot = CAMELOT.iter().any(|o| o.id == x.id);
        let graph = lines_board || drops;
        let area = x.width * x.height;
        assert_eq!(
            (v["board"]["layout"].as_str(), v["board"]["cells"].as_u64()),
            if x.id == "hageby" {
                (Some("graph"), Some(13))
            } else if x.id == "camelot" {
                // The 12×16 grid without 32 corner squares (World Camelot Federation).
                (Some("full"), Some(160))
            } else if camelot {
                // The 7×13 grid without 24 corner squares (World Camelot Federation, Cam).
                (Some("full"), Some(67))
            } else if graph {
                (Some("graph"), Some(area))
            } else if full {
                (Some("full"), Some(area))
            } else {
                (Some("checkered"), Some(area / 2))
            },
            "{}",
            x.id
        );
        if x.id == "hageby" {
            // Salo's hageby.zrf: 13 points, 26 lines (the neighbour table has 52 entries, each line
            // listed from both ends).
            let lines = v["board"]["lines"].as_array().expect("lines");
            assert_eq!(lines.len(), 26, "{}", x.id);
            assert!(lines.contains(&json!({"from": "c2", "to": "b3", "kind": "line"})));
            assert!(!lines.iter().any(|l| l["from"] == "c2" && l["to"] == "d3"));
            let names: Vec<&str> = v["board"]["points"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p["name"].as_str().unwrap())
                .collect();
            assert!(
                !names.contains(&"a1") && !names.contains(&"e3"),
                "{names:?}"
            );
            assert_eq!(v["stones_in_hand"], 5);
            assert!(v["rules"]["end_of_game"]
                .as_str()
                .unwrap()
                .contains("passes"));
        } else if drops {
            // Every point joined to its orthogonal and diagonal neighbours: on w×h,
            // (w-1)h + w(h-1) orthogonal and 2(w-1)(h-1) diagonal lines.
            let (w, h) = (x.width, x.height);
            let lines = v["board"]["lines"].as_array().expect("lines");
            assert_eq!(
                lines.len() as u64,
                (w - 1) * h + w * (h - 1) + 2 * (w - 1) * (h - 1),
                "{}",
                x.id
            );
            let goal = if x.id == "lahti" { "c2" } else { "d2" };
            assert_eq!(
                v["board"]["goal_points"],
                json!({"white": [goal], "black": [goal]}),
                "{}",
                x.id
            );
            let stones = if x.id == "vilbergen-salo" { 5 } else { 4 };
            assert_eq!(v["stones_in_hand"], stones, "{}", x.id);
            assert_eq!(
                v["start_position"],
                format!("W:W:B:S{stones},{stones}"),
                "{}",
                x.id
            );
        } else {
            assert!(v["stones_in_hand"].is_null(), "{}", x.id);
        }
        if x.id == "camelot" {
            let ranks = v["board"]["ranks"].as_array().expect("ranks");
            assert_eq!(ranks.len(), 16, "{}", x.id);
            assert_eq!(ranks[0], json!(["f1", "g1"]), "{}", x.id);
            assert_eq!(ranks[1], json!(["c2", "j2"]), "{}", x.id);
            assert_eq!(ranks[2], json!(["b3", "k3"]), "{}", x.id);
            assert_eq!(ranks[7], json!(["a8", "l8"]), "{}", x.id);
            assert_eq!(ranks[15], json!(["f16", "g16"]), "{}", x.id);
            assert_eq!(
                v["board"]["castles"],
                json!({"white": ["f1", "g1"], "black": ["f16", "g16"]}),
                "{}",
                x.id
            );
        } else if camelot {
            let ranks = v["board"]["ranks"].as_array().expect("ranks");
            assert_eq!(ranks.len(), 13, "{}", x.id);
            assert_eq!(ranks[0], json!(["d1", "d1"]), "{}", x.id);
            assert_eq!(ranks[5], json!(["a6", "g6"]), "{}", x.id);
            assert_eq!(ranks[11], json!(["c12", "e12"]), "{}", x.id);
            assert_eq!(
                v["board"]["castles"],
                json!({"white": ["d1"], "black": ["d13"]}),
                "{}",
                x.id
            );
        } else {
            assert!(v["board"].get("ranks").is_none(), "{}", x.id);
            assert!(v["board"].get("castles").is_none(), "{}", x.id);
        }
        if lines_board {
            let points = v["board"]["points"].as_array().expect("points");
            assert_eq!(points.len(), 25, "{}", x.id);
            assert!(points
                .iter()
                .any(|p| p == &json!({"name": "c3", "x": 2, "y": 2})));
            // 40 lines along ranks and files, 16 diagonals through the even points.
            let lines = v["board"]["lines"].as_array().expect("lines");
            let count = |kind: &str| lines.iter().filter(|l| l["kind"] == kind).count();
            assert_eq!(count("line"), 56, "{}", x.id);
            assert!(lines.contains(&json!({"from": "b2", "to": "c3", "kind": "line"})));
            assert!(!lines.iter().any(|l| l["from"] == "b1" && l["to"] == "c2"));
        } else if !graph {
            assert!(v["board"].get("points").is_none(), "{}", x.id);
            assert!(v["board"].get("lines").is_none(), "{}", x.id);
        }
        assert_eq!(v["pdn_game_type"], json!(x.game_type), "{}", x.id);
        assert_eq!(v["provisional"], x.provisional, "{}", x.id);
        let reason = &v["provisional_reason"];
        if x.provisional {
            assert!(
                reason.as_str().is_some_and(|r| r.len() > 20),
                "{}: a provisional variant says why: {reason}",
                x.id
            );
        } else {
            assert!(reason.is_null(), "{}: {reason}", x.id);
        }
        let side = if x.first == "white" { "W:" } else { "B:" };
        let start = v["start_position"].as_str().unwrap();
        assert!(start.starts_with(side), "{}: {start}", x.id);
        // The GameType's start colour agrees with the first mover.
        if let Some(gt) = x.game_type {
            let colour = gt.split(',').nth(1).unwrap();
            assert_eq!(colour, &side[..1], "{}", x.id);
        }
        // The single-variant resource says the same.
        let one = ok_json(app.get(&format!("/v1/variants/{}", x.id)).await).await;
        assert_eq!(&one, v, "{}", x.id);
    }
}

async fn moves_of(app: &TestApp, id: &str, fen: &str) -> Value {
    ok_json(
        app.post_json(
            &format!("/v1/variants/{id}/moves"),
            &json!({ "position": fen }),
        )
        .await,
    )
    .await
}

async fn play(app: &TestApp, id: &str, fen: &str, mv: &str) -> Value {
    ok_json(
        app.post_json(
            &format!("/v1/variants/{id}/play"),
            &json!({ "position": fen, "move": mv }),
        )
        .await,
    )
    .await
}

#[tokio::test]
async fn every_variant_plays_three_moves_as_moves_predicts() {
    let app = spawn_app().await;
    for x in every() {
        let start = ok_json(app.get(&format!("/v1/variants/{}", x.id)).await).await;
        let mut fen = start["start_position"].as_str().unwrap().to_string();
        let mut side = x.first.to_string();
        for ply in 0..3 {
            let listed = moves_of(&app, x.id, &fen).await;
            assert_eq!(listed["side_to_move"], side.as_str(), "{} ply {ply}", x.id);
            let first = &listed["moves"][0];
            let notation = first["notation"]
                .as_str()
                .expect("a legal move")
                .to_string();
            let predicted = first["resulting_position"].as_str().unwrap().to_string();
            let played = play(&app, x.id, &fen, &notation).await;
            assert_eq!(
                played["position"], predicted,
                "{} ply {ply}: {notation} from {fen}",
                x.id
            );
            assert_eq!(played["moves"], json!([notation]), "{}", x.id);
            assert_ne!(played["side_to_move"], side.as_str(), "{} ply {ply}", x.id);
            fen = predicted;
            side = played["side_to_move"].as_str().unwrap().to_string();
        }
    }
}

#[tokio::test]
async fn every_variant_accepts_a_hand_written_first_move() {
    let app = spawn_app().await;
    for x in every() {
        let listed = ok_json(app.get(&format!("/v1/variants/{}/moves", x.id)).await).await;
        let legal = notations(&listed);
        assert!(
            legal.iter().any(|m| m == x.hand_move),
            "{}: {} not among {legal:?}",
            x.id,
            x.hand_move
        );
        let predicted = listed["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["notation"] == x.hand_move)
            .unwrap()["resulting_position"]
            .clone();
        let start = listed["position"].as_str().unwrap();
        let played = play(&app, x.id, start, x.hand_move).await;
        assert_eq!(played["position"], predicted, "{}", x.id);
    }
}
