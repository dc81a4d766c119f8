//! The committed API document matches the code, and its examples work.

use serde_json::Value;

use crate::helpers::{ok_json, spawn_app};

#[test]
fn committed_document_is_up_to_date() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/openapi.json");
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    let generated = arbiter::openapi::document_json();
    assert!(
        committed.trim_end() == generated.trim_end(),
        "openapi/openapi.json differs from the API the code serves; regenerate it with\n\n    \
         cargo run -- openapi > openapi/openapi.json\n\nand commit the result"
    );
}

#[test]
fn problem_schema_is_declared_once_and_referenced_by_error_responses() {
    let doc: Value = serde_json::from_str(&arbiter::openapi::document_json()).unwrap();
    assert!(doc["components"]["schemas"]["Problem"].is_object());
    let mut refs = 0;
    for (_, item) in doc["paths"].as_object().unwrap() {
        for (_, op) in item.as_object().unwrap() {
            for (status, res) in op["responses"].as_object().unwrap() {
                if status.starts_with('4') || status.starts_with('5') {
                    let schema = &res["content"]["application/problem+json"]["schema"]["$ref"];
                    assert_eq!(schema, "#/components/schemas/Problem", "{status}");
                    refs += 1;
                }
            }
        }
    }
    assert!(refs >= 10, "{refs}");
}

/// Calls every operation with the examples of its parameters and request body, as Swagger UI's
/// "Try it out" does, and expects a 2xx answer.
#[tokio::test]
async fn every_example_is_accepted() {
    let app = spawn_app().await;
    let doc = ok_json(app.get("/api-docs/openapi.json").await).await;
    let mut calls = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let mut url = path.clone();
            let mut query = Vec::new();
            for p in op["parameters"].as_array().cloned().unwrap_or_default() {
                let name = p["name"].as_str().unwrap();
                let example = match &p["example"] {
                    Value::String(s) => s.clone(),
                    Value::Bool(b) => b.to_string(),
                    Value::Number(n) => n.to_string(),
                    // An optional parameter may go without one (Swagger UI then sends none).
                    Value::Null if p["required"] != true => continue,
                    _ => panic!("{method} {path}: parameter {name} has no example"),
                };
                match p["in"].as_str().unwrap() {
                    "path" => url = url.replace(&format!("{{{name}}}"), &example),
                    "query" => query.push((name.to_string(), example)),
                    other => panic!("unexpected parameter location {other}"),
                }
            }
            let mut req = app
                .client
                .request(method.to_uppercase().parse().unwrap(), app.url(&url))
                .query(&query);
            if let Some(content) = op["requestBody"]["content"]["application/json"].as_object() {
                // A reference, or an optional body: `oneOf: [null, reference]`.
                let schema = &content["schema"];
                let schema_ref = schema["$ref"]
                    .as_str()
                    .or_else(|| {
                        schema["oneOf"]
                            .as_array()?
                            .iter()
                            .find_map(|s| s["$ref"].as_str())
                    })
                    .unwrap_or_else(|| panic!("{method} {path}: body schema {schema}"));
                let name = schema_ref.rsplit('/').next().unwrap();
                let example = &doc["components"]["schemas"][name]["example"];
                assert!(
                    example.is_object(),
                    "{method} {path}: {name} has no example"
                );
                req = req.json(example);
            }
            let res = req.send().await.unwrap();
            let status = res.status();
            let body = res.text().await.unwrap();
            assert!(status.is_success(), "{method} {url}: {status} {body}");
            calls += 1;
        }
    }
    assert_eq!(calls, 13);
}

/// The PDN text examples of `POST /v1/judge/pdn` are judged as their summaries say.
#[tokio::test]
async fn pdn_text_examples_are_judged() {
    let app = spawn_app().await;
    let doc = ok_json(app.get("/api-docs/openapi.json").await).await;
    let examples = doc["paths"]["/v1/judge/pdn"]["post"]["requestBody"]["content"]["text/plain"]
        ["examples"]
        .as_object()
        .expect("text/plain examples");
    let mut seen = Vec::new();
    for (name, example) in examples {
        let text = example["value"].as_str().unwrap().to_string();
        // The tables example says to send it with `adjudicate=tables`.
        let path = if name == "english_tables" {
            "/v1/judge/pdn?adjudicate=tables"
        } else {
            "/v1/judge/pdn"
        };
        let res = app
            .post_raw(path, Some("text/plain"), text.into_bytes())
            .await;
        let body = ok_json(res).await;
        let game = &body["games"][0];
        assert_eq!(game["outcome"], "judged", "{name}: {game}");
        let expected = match name.as_str() {
            "bad_move" => "invalid",
            "english_tables" => "white_wins",
            _ => "undecided",
        };
        assert_eq!(game["verdict"], expected, "{name}: {game}");
        seen.push(game["variant"].as_str().unwrap().to_string());
    }
    seen.sort();
    assert_eq!(
        seen,
        ["english", "international", "international", "russian"]
    );
}

#[tokio::test]
async fn response_examples_match_the_engine() {
    // The examples of MoveInfo and the request examples agree with what the server answers.
    let app = spawn_app().await;
    let doc = ok_json(app.get("/api-docs/openapi.json").await).await;
    let example = &doc["components"]["schemas"]["MoveInfo"]["example"];
    let answer = ok_json(app.get("/v1/variants/international/moves").await).await;
    if example.is_object() {
        let found = answer["moves"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m == example);
        assert!(found, "MoveInfo example {example} is not a real move");
    }
}

#[test]
fn the_document_names_every_variant() {
    let doc: Value = serde_json::from_str(&arbiter::openapi::document_json()).unwrap();
    let description = doc["info"]["description"].as_str().unwrap();
    for id in arbiter_rules::ids() {
        assert!(
            description.contains(&format!("`{id}`")),
            "{id} missing from the API description"
        );
    }
}

/// The document's operations are exactly the routes the router serves: each handler's
/// `#[utoipa::path]` names the pattern and method it is registered with in the route table.
#[test]
fn the_document_describes_the_route_table() {
    let doc: Value = serde_json::from_str(&arbiter::openapi::document_json()).unwrap();
    let mut documented = std::collections::BTreeSet::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for method in item.as_object().unwrap().keys() {
            documented.insert((path.clone(), method.to_ascii_uppercase()));
        }
    }
    let routed: std::collections::BTreeSet<_> = arbiter::api::ROUTES
        .iter()
        .flat_map(|r| {
            r.methods
                .iter()
                .map(|(m, _)| (r.pattern.to_string(), m.to_string()))
        })
        .collect();
    assert_eq!(documented, routed);
    assert!(routed.len() >= 10, "{routed:?}");
}
