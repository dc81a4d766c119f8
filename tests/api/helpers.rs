use arbiter::config::Config;
use reqwest::{Client, Response};
use serde_json::Value;

/// A running server and a client for it.
pub struct TestApp {
    pub address: String,
    /// The admin listener's address, when the configuration has one.
    pub admin_address: Option<String>,
    pub client: Client,
}

/// Starts the real server on a free loopback port. An endgame table computed on first use is
/// waited for as long as its build takes, so that no answer depends on the machine's speed
/// (the tests of `endgame-building` set their own wait).
pub async fn spawn_app() -> TestApp {
    let mut config = Config {
        workers: Some(1),
        ..Config::new("127.0.0.1:0")
    };
    config.tables.build_wait = std::time::Duration::from_secs(600);
    spawn_app_with(config).await
}

/// Starts the real server with this configuration (its `addr`, and its `admin_addr` if any,
/// should be `127.0.0.1:0`).
pub async fn spawn_app_with(config: Config) -> TestApp {
    let servers = arbiter::build(&config).expect("bind 127.0.0.1:0");
    tokio::spawn(servers.api);
    let admin_address = servers.admin.map(|(admin, port)| {
        tokio::spawn(admin);
        format!("http://127.0.0.1:{port}")
    });
    TestApp {
        address: format!("http://127.0.0.1:{}", servers.port),
        admin_address,
        client: Client::new(),
    }
}

impl TestApp {
    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.address, path)
    }

    pub async fn get(&self, path: &str) -> Response {
        self.client
            .get(self.url(path))
            .send()
            .await
            .expect("request sent")
    }

    pub async fn post_json(&self, path: &str, body: &Value) -> Response {
        self.client
            .post(self.url(path))
            .json(body)
            .send()
            .await
            .expect("request sent")
    }

    pub async fn post_raw(
        &self,
        path: &str,
        content_type: Option<&str>,
        body: Vec<u8>,
    ) -> Response {
        let mut req = self.client.post(self.url(path)).body(body);
        if let Some(ct) = content_type {
            req = req.header("content-type", ct);
        }
        req.send().await.expect("request sent")
    }
}

/// Asserts a 2xx JSON answer and returns its body.
pub async fn ok_json(res: Response) -> Value {
    let status = res.status();
    let ct = content_type(&res);
    let body: Value = res.json().await.expect("JSON body");
    assert!(
        status.is_success(),
        "expected success, got {status}: {body}"
    );
    assert!(ct.starts_with("application/json"), "content type {ct}");
    body
}

/// Asserts a problem+json answer with this status and code, and returns it.
pub async fn problem(res: Response, status: u16, code: &str) -> Value {
    assert_eq!(res.status().as_u16(), status, "status of {}", res.url());
    let ct = content_type(&res);
    assert_eq!(ct, "application/problem+json", "content type");
    assert!(
        res.headers().contains_key("x-request-id"),
        "x-request-id header on errors too"
    );
    let body: Value = res.json().await.expect("problem JSON");
    assert_eq!(body["status"], status, "{body}");
    assert_eq!(body["code"], code, "{body}");
    assert_eq!(
        body["type"],
        format!("urn:arbiter:problem:{code}"),
        "{body}"
    );
    assert!(
        body["title"].as_str().is_some_and(|t| !t.is_empty()),
        "{body}"
    );
    assert!(
        body["detail"].as_str().is_some_and(|t| !t.is_empty()),
        "{body}"
    );
    body
}

pub fn content_type(res: &Response) -> String {
    res.headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string()
}

/// The notations of a moves answer.
pub fn notations(body: &Value) -> Vec<String> {
    body["moves"]
        .as_array()
        .expect("moves array")
        .iter()
        .map(|m| m["notation"].as_str().expect("notation").to_string())
        .collect()
}
