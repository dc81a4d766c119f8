use crate::helpers::{ok_json, spawn_app};

#[tokio::test]
async fn healthz_and_readyz_answer_ok_with_a_request_id() {
    let app = spawn_app().await;
    for path in ["/healthz", "/readyz"] {
        let res = app.get(path).await;
        let id = res
            .headers()
            .get("x-request-id")
            .and_then(|v| v.to_str().ok())
            .map(String::from)
            .expect("x-request-id header");
        assert_eq!(id.len(), 36, "a UUID: {id}");
        let body = ok_json(res).await;
        assert_eq!(body, serde_json::json!({"status": "ok"}));
    }
}

#[tokio::test]
async fn request_ids_differ_between_requests() {
    let app = spawn_app().await;
    let a = app.get("/healthz").await;
    let b = app.get("/healthz").await;
    assert_ne!(a.headers()["x-request-id"], b.headers()["x-request-id"]);
}

#[tokio::test]
async fn swagger_ui_is_served_and_redirected() {
    let app = spawn_app().await;
    let res = app.get("/swagger-ui/").await;
    assert_eq!(res.status(), 200);
    let html = res.text().await.unwrap();
    assert!(html.contains("swagger"), "Swagger UI page");
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let res = client.get(app.url("/swagger-ui")).send().await.unwrap();
    assert!(res.status().is_redirection(), "{}", res.status());
    assert_eq!(res.headers()["location"], "/swagger-ui/");
    let doc = ok_json(app.get("/api-docs/openapi.json").await).await;
    assert_eq!(doc["info"]["title"], "Arbiter");
}
