use crate::helpers::{ok_json, problem, spawn_app};

#[tokio::test]
async fn the_catalogue_lists_every_engine_variant() {
    let app = spawn_app().await;
    let body = ok_json(app.get("/v1/variants").await).await;
    let ids: Vec<&str> = body["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, arbiter_rules::ids());
    assert!(ids.contains(&"international") && ids.contains(&"english"));
}

#[tokio::test]
async fn international_is_described() {
    let app = spawn_app().await;
    let v = ok_json(app.get("/v1/variants/international").await).await;
    assert_eq!(v["id"], "international");
    assert_eq!(v["board"]["width"], 10);
    assert_eq!(v["board"]["height"], 10);
    assert_eq!(v["board"]["squares"], "numeric");
    assert_eq!(v["first_mover"], "white");
    let start = v["start_position"].as_str().unwrap();
    assert!(start.starts_with("W:W31,32,"), "{start}");
    assert_eq!(v["pdn_game_type"], "20,W,10,10,N2,0");
    assert!(v["rules"]["end_of_game"].as_str().is_some());
    assert!(v["rules"]["men"].as_str().is_some());
    assert!(!v["sources"].as_array().unwrap().is_empty());
    assert!(v["notes"].is_array());
    assert_eq!(v["provisional"], false);
    assert!(v["provisional_reason"].is_null());
}

#[tokio::test]
async fn english_black_moves_first() {
    let app = spawn_app().await;
    let v = ok_json(app.get("/v1/variants/english").await).await;
    assert_eq!(v["first_mover"], "black");
    assert_eq!(v["board"]["width"], 8);
    assert_eq!(
        v["start_position"].as_str().unwrap().chars().next(),
        Some('B')
    );
}

#[tokio::test]
async fn unknown_variant_is_a_404_listing_the_known_ids() {
    let app = spawn_app().await;
    let body = problem(app.get("/v1/variants/chess").await, 404, "unknown-variant").await;
    let known = body["known_variants"].as_array().unwrap();
    assert!(known.iter().any(|k| k == "international"));
    assert!(body["detail"].as_str().unwrap().contains("chess"));
}

#[tokio::test]
async fn every_variant_serves_its_start_position_and_plays_each_first_move() {
    let app = spawn_app().await;
    for id in arbiter_rules::ids() {
        let v = ok_json(app.get(&format!("/v1/variants/{id}")).await).await;
        assert_eq!(v["id"], id);
        assert_eq!(
            v["provisional"],
            v["provisional_reason"].is_string(),
            "{id}"
        );
        let moves = ok_json(app.get(&format!("/v1/variants/{id}/moves")).await).await;
        assert_eq!(moves["position"], v["start_position"], "{id}");
        assert_eq!(moves["side_to_move"], v["first_mover"], "{id}");
        let list = moves["moves"].as_array().unwrap();
        assert!(!list.is_empty(), "{id}: no moves from the start");
        for m in list {
            let played = ok_json(
                app.post_json(
                    &format!("/v1/variants/{id}/play"),
                    &serde_json::json!({"move": m["notation"]}),
                )
                .await,
            )
            .await;
            assert_eq!(played["position"], m["resulting_position"], "{id} {m}");
            assert_eq!(played["moves"][0], m["notation"], "{id}");
        }
    }
}

#[tokio::test]
async fn seth_describes_its_arc_and_goal_points() {
    let app = crate::helpers::spawn_app().await;
    let v = crate::helpers::ok_json(app.get("/v1/variants/seth").await).await;
    let lines = v["board"]["lines"].as_array().unwrap();
    let arcs: Vec<_> = lines.iter().filter(|l| l["kind"] == "step-only").collect();
    assert_eq!(
        arcs,
        [
            &serde_json::json!({"from": "a1", "to": "a5", "kind": "step-only"}),
            &serde_json::json!({"from": "e1", "to": "e5", "kind": "step-only"})
        ]
    );
    assert_eq!(
        v["board"]["goal_points"],
        serde_json::json!({"white": ["c5"], "black": ["c1"]})
    );
    assert_eq!(v["provisional"], true);
}
