//! `GET /v1/variants/{variant}/diagram`: SVG diagrams drawn from each board's geometry.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::helpers::{ok_json, problem, spawn_app, TestApp};

async fn svg(app: &TestApp, path: &str) -> String {
    let res = app.get(path).await;
    assert_eq!(res.status(), 200, "{path}");
    assert_eq!(
        res.headers()["content-type"].to_str().unwrap(),
        "image/svg+xml",
        "{path}"
    );
    res.text().await.unwrap()
}

/// The `<g class="piece ...">` elements of a well-formed SVG document: (classes, square).
fn pieces(text: &str) -> Vec<(String, String)> {
    let doc = roxmltree::Document::parse(text).expect("well-formed XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    root.descendants()
        .filter(|n| {
            n.attribute("class")
                .is_some_and(|c| c.split(' ').next() == Some("piece"))
        })
        .map(|n| {
            (
                n.attribute("class").unwrap().to_string(),
                n.attribute("data-square").unwrap_or("").to_string(),
            )
        })
        .collect()
}

/// The number of pieces of a FEN as the API writes it (explicit lists, no ranges).
fn piece_count(fen: &str) -> usize {
    fen.split(':')
        .skip(1)
        .filter(|f| f.starts_with('W') || f.starts_with('B'))
        .map(|f| f[1..].split(',').filter(|s| !s.is_empty()).count())
        .sum()
}

#[tokio::test]
async fn every_variant_start_position_is_drawn_with_one_element_per_piece() {
    let app = spawn_app().await;
    let catalogue = ok_json(app.get("/v1/variants").await).await;
    let variants = catalogue["variants"].as_array().unwrap();
    assert!(variants.len() >= 33);
    for v in variants {
        let id = v["id"].as_str().unwrap();
        let start = v["start_position"].as_str().unwrap();
        let text = svg(&app, &format!("/v1/variants/{id}/diagram")).await;
        let drawn = pieces(&text);
        assert_eq!(drawn.len(), piece_count(start), "{id}: {start}");
        let doc = roxmltree::Document::parse(&text).unwrap();
        let board = v["board"]["layout"].as_str().unwrap();
        let cells = v["board"]["cells"].as_u64().unwrap() as usize;
        // One element per playable cell, with its name: `class="cell …"` and `data-square`.
        let named: Vec<roxmltree::Node> =
            doc.descendants().filter(|n| has_class(n, "cell")).collect();
        assert_eq!(named.len(), cells, "{id}: an element per playable cell");
        let names: BTreeSet<&str> = named
            .iter()
            .map(|n| n.attribute("data-square").expect("data-square"))
            .collect();
        assert_eq!(names.len(), cells, "{id}: every cell named once");
        // Every piece stands on a named cell.
        for (_, square) in &drawn {
            assert!(names.contains(square.as_str()), "{id}: piece on {square}");
        }
        if board == "graph" {
            // A point per point of the description, by its name; a line per line.
            let points: BTreeSet<&str> = v["board"]["points"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p["name"].as_str().unwrap())
                .collect();
            assert_eq!(names, points, "{id}");
            assert!(named.iter().all(|n| has_class(n, "point")), "{id}");
            let lines = doc
                .descendants()
                .filter(|n| matches!(n.attribute("class"), Some("line" | "step-only")))
                .count();
            assert_eq!(lines, v["board"]["lines"].as_array().unwrap().len(), "{id}");
        } else {
            assert!(named.iter().all(|n| n.tag_name().name() == "rect"), "{id}");
            if v["board"]["squares"] == "numeric" {
                let numbers: BTreeSet<String> = (1..=cells).map(|n| n.to_string()).collect();
                let names: BTreeSet<String> = names.iter().map(|s| s.to_string()).collect();
                assert_eq!(names, numbers, "{id}: squares 1 to {cells}");
            }
        }
    }
}

fn has_class(n: &roxmltree::Node, class: &str) -> bool {
    n.attribute("class")
        .is_some_and(|c| c.split(' ').any(|x| x == class))
}

/// The squares of a grid diagram: (x, y, classes, square name), x and y in SVG units.
fn squares(text: &str) -> Vec<(f64, f64, String, String)> {
    let doc = roxmltree::Document::parse(text).unwrap();
    doc.descendants()
        .filter(|n| n.tag_name().name() == "rect" && has_class(n, "cell"))
        .map(|n| {
            (
                n.attribute("x").unwrap().parse().unwrap(),
                n.attribute("y").unwrap().parse().unwrap(),
                n.attribute("class").unwrap().to_string(),
                n.attribute("data-square").unwrap().to_string(),
            )
        })
        .collect()
}

#[tokio::test]
async fn boards_played_on_every_square_can_be_counted() {
    // A board whose every square is played (the orthogonal games, the Camelot family) has two
    // shades that alternate along files and ranks, and borders between the squares, so that a
    // person can count the files; a checkered board keeps its dark and light squares.
    let app = spawn_app().await;
    let catalogue = ok_json(app.get("/v1/variants").await).await;
    let mut full = 0;
    for v in catalogue["variants"].as_array().unwrap() {
        let id = v["id"].as_str().unwrap();
        let layout = v["board"]["layout"].as_str().unwrap();
        if layout == "graph" {
            continue;
        }
        let text = svg(&app, &format!("/v1/variants/{id}/diagram")).await;
        let cells = squares(&text);
        if layout == "checkered" {
            assert!(cells.iter().all(|c| c.2 == "cell dark"), "{id}");
            continue;
        }
        full += 1;
        let shade = |c: &str| {
            let classes: Vec<&str> = c.split(' ').collect();
            if classes.contains(&"even") {
                "even"
            } else {
                assert!(classes.contains(&"odd"), "{id}: {c}");
                "odd"
            }
        };
        let mut neighbours = 0;
        for a in &cells {
            for b in &cells {
                let (dx, dy) = ((a.0 - b.0).abs(), (a.1 - b.1).abs());
                let side_by_side = (dx == 48.0 && dy == 0.0) || (dx == 0.0 && dy == 48.0);
                if side_by_side {
                    neighbours += 1;
                    assert_ne!(shade(&a.2), shade(&b.2), "{id}: {} and {}", a.3, b.3);
                }
            }
        }
        assert!(neighbours > 0, "{id}");
        // The shades have borders, in the diagram's own style.
        assert!(
            text.contains(".even,.odd{stroke:"),
            "{id}: squares with borders"
        );
        // Castles: the squares the description lists, each marked with its side.
        if let Some(castles) = v["board"]["castles"].as_object() {
            for (side, list) in castles {
                let want: BTreeSet<&str> = list
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|s| s.as_str().unwrap())
                    .collect();
                let doc = roxmltree::Document::parse(&text).unwrap();
                let got: BTreeSet<&str> = doc
                    .descendants()
                    .filter(|n| n.attribute("data-castle") == Some(side.as_str()))
                    .map(|n| {
                        assert!(has_class(&n, "castle"));
                        n.attribute("data-square").unwrap()
                    })
                    .collect();
                assert_eq!(got, want, "{id}: {side}'s castle");
            }
        }
    }
    assert!(
        full >= 8,
        "the orthogonal games and the Camelot family: {full}"
    );
}

#[tokio::test]
async fn a_diagram_shows_a_position_a_move_and_the_board_turned_round() {
    let app = spawn_app().await;
    let fen = "W:WK47:B14,19,29,31,42";
    let text = svg(
        &app,
        &format!("/v1/variants/international/diagram?position={fen}&move=47x38x20x9x36"),
    )
    .await;
    let drawn = pieces(&text);
    assert_eq!(drawn.len(), 6);
    assert!(drawn.contains(&("piece white king".to_string(), "47".to_string())));
    let doc = roxmltree::Document::parse(&text).unwrap();
    let count = |class: &str| {
        doc.descendants()
            .filter(|n| n.attribute("class") == Some(class))
            .count()
    };
    assert_eq!(count("route"), 1);
    assert_eq!(count("captured"), 4);
    assert_eq!(count("from"), 1);
    assert_eq!(count("to"), 1);
    // Numbers on every playable square by default, none without coordinates.
    assert_eq!(count("label"), 50);
    let bare = svg(
        &app,
        &format!("/v1/variants/international/diagram?position={fen}&coordinates=false"),
    )
    .await;
    let doc2 = roxmltree::Document::parse(&bare).unwrap();
    assert_eq!(
        doc2.descendants()
            .filter(|n| n.attribute("class") == Some("label"))
            .count(),
        0
    );
    // Turned round: square 47 (bottom left, as White sees it) is drawn at the top right.
    let centre = |text: &str, square: &str| -> (f64, f64) {
        let doc = roxmltree::Document::parse(text).unwrap();
        let g = doc
            .descendants()
            .find(|n| n.attribute("data-square") == Some(square) && has_class(n, "piece"))
            .unwrap();
        let c = g
            .children()
            .find(|n| n.tag_name().name() == "circle")
            .unwrap();
        (
            c.attribute("cx").unwrap().parse().unwrap(),
            c.attribute("cy").unwrap().parse().unwrap(),
        )
    };
    let normal = svg(
        &app,
        &format!("/v1/variants/international/diagram?position={fen}"),
    )
    .await;
    let flipped = svg(
        &app,
        &format!("/v1/variants/international/diagram?position={fen}&flip=true"),
    )
    .await;
    let (x1, y1) = centre(&normal, "47");
    let (x2, y2) = centre(&flipped, "47");
    assert!(x2 > x1 && y2 < y1, "({x1},{y1}) -> ({x2},{y2})");
    // Algebraic boards get files and ranks on the edges.
    let russian = svg(&app, "/v1/variants/russian/diagram").await;
    assert!(russian.contains(">a</text>") && russian.contains(">8</text>"));
}

#[tokio::test]
async fn the_moves_answer_links_to_its_diagram() {
    let app = spawn_app().await;
    let body: Value = ok_json(
        app.get("/v1/variants/lahti/moves?position=B:Wc2,e2:Ba1:S2,3")
            .await,
    )
    .await;
    let link = body["diagram"].as_str().unwrap();
    assert_eq!(
        link,
        "/v1/variants/lahti/diagram?position=B:Wc2,e2:Ba1:S2,3"
    );
    let text = svg(&app, link).await;
    assert_eq!(pieces(&text).len(), 3);
    assert!(text.contains("in hand: white 2, black 3"));
}

#[tokio::test]
async fn diagram_errors_are_problems() {
    let app = spawn_app().await;
    problem(
        app.get("/v1/variants/international/diagram?position=W:W99")
            .await,
        400,
        "invalid-position",
    )
    .await;
    problem(
        app.get("/v1/variants/international/diagram?move=32-23")
            .await,
        422,
        "illegal-move",
    )
    .await;
    problem(
        app.get("/v1/variants/international/diagram?size=3").await,
        400,
        "invalid-query",
    )
    .await;
    problem(
        app.get("/v1/variants/chess/diagram").await,
        404,
        "unknown-variant",
    )
    .await;
}
