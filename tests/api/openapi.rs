use crate::helpers::spawn_app;

const COMMITTED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/openapi.json");

#[test]
fn the_committed_openapi_document_matches_the_code() {
    let generated = herald::routes::openapi_json();
    let committed = std::fs::read_to_string(COMMITTED).unwrap_or_default();
    assert!(
        committed == generated,
        "openapi/openapi.json is stale: refresh it with `cargo run -- openapi > openapi/openapi.json` and commit it"
    );
}

#[actix_web::test]
async fn the_served_document_is_the_committed_one_byte_for_byte() {
    let app = spawn_app().await;
    let r = app.get("/api/openapi.json", None).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.text, herald::routes::openapi_json());
    assert!(r.json["openapi"].as_str().unwrap().starts_with("3.1"));
}

#[test]
fn every_operation_has_an_id_a_summary_and_described_responses() {
    let spec: serde_json::Value = serde_json::from_str(&herald::routes::openapi_json()).unwrap();
    let mut ids = std::collections::BTreeSet::new();
    for (path, item) in spec["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let id = op["operationId"]
                .as_str()
                .unwrap_or_else(|| panic!("{method} {path} has no operationId"));
            assert!(ids.insert(id.to_owned()), "operationId {id} is used twice");
            assert!(id.contains('_'), "{id} is not verb_resource");
            assert!(
                op["summary"].as_str().is_some_and(|s| !s.is_empty()),
                "{id} has no summary"
            );
            for (status, response) in op["responses"].as_object().unwrap() {
                assert!(
                    response["description"]
                        .as_str()
                        .is_some_and(|d| !d.is_empty()),
                    "{id} {status} has no description"
                );
            }
        }
    }
}

#[test]
fn public_operations_declare_no_security_and_the_others_declare_bearer_or_the_inbound_secret() {
    let spec: serde_json::Value = serde_json::from_str(&herald::routes::openapi_json()).unwrap();
    let public = [
        "get_healthz",
        "get_readyz",
        "create_account",
        "create_token",
        "create_email_link",
        "list_game_kinds",
        "get_leaderboard",
        "get_player",
        "get_player_rating_history",
        "list_competitions",
        "get_competition",
        "list_competition_rounds",
        "get_competition_standings",
        "get_competition_trf",
        "get_competition_audit",
    ];
    for item in spec["paths"].as_object().unwrap().values() {
        for op in item.as_object().unwrap().values() {
            let id = op["operationId"].as_str().unwrap();
            let security = &op["security"];
            if public.contains(&id) {
                assert!(security.is_null(), "{id} should need no auth");
            } else if id == "receive_inbound_mail" {
                // The mail service's shared secret, not an account's token.
                assert!(
                    security
                        .as_array()
                        .unwrap()
                        .iter()
                        .all(|s| s.get("inbound_secret").is_some()
                            || s.get("inbound_basic").is_some()),
                    "{id} should declare the inbound secret only"
                );
            } else {
                assert!(
                    security
                        .as_array()
                        .unwrap()
                        .iter()
                        .any(|s| s.get("bearer").is_some()),
                    "{id} should declare the bearer scheme"
                );
            }
        }
    }
}

#[actix_web::test]
async fn the_interactive_docs_are_served_locally() {
    let app = spawn_app().await;
    let r = app.get("/docs/", None).await;
    assert_eq!(r.status, 200);
    assert!(r.text.contains("swagger-ui"));
    let r = app.get("/docs/swagger-initializer.js", None).await;
    assert!(r.text.contains("/api/openapi.json"));
    let r = app.get("/docs", None).await;
    assert_eq!(r.status, 308);
}
