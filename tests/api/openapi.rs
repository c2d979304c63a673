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
    // Public once the game is over, so a token is optional: `{}` (none) or bearer.
    let optional = [
        "get_game",
        "get_game_history",
        "get_game_fairness",
        "get_chat",
    ];
    for item in spec["paths"].as_object().unwrap().values() {
        for op in item.as_object().unwrap().values() {
            let id = op["operationId"].as_str().unwrap();
            let security = &op["security"];
            let anonymous = security.as_array().is_some_and(|s| {
                s.iter()
                    .any(|s| s.as_object().is_some_and(|s| s.is_empty()))
            });
            assert_eq!(
                anonymous,
                optional.contains(&id),
                "{id}: an empty requirement ({{}}) exactly when a token is optional"
            );
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

#[test]
fn the_unions_of_the_games_actions_are_any_of_since_two_games_share_an_end() {
    let spec: serde_json::Value = serde_json::from_str(&herald::routes::openapi_json()).unwrap();
    let s = &spec["components"]["schemas"];
    // The very same shape in two games: a strict oneOf would refuse it as matching twice.
    let keys = |name: &str| -> Vec<String> {
        s[name]["properties"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect()
    };
    assert_eq!(keys("MagnateEnd"), keys("MerchantsEnd"));
    assert_eq!(s["MagnateEnd"]["required"], s["MerchantsEnd"]["required"]);
    for name in ["Action", "GameAction"] {
        assert!(s[name]["oneOf"].is_null(), "{name} is a oneOf");
        let members = s[name]["anyOf"].as_array().unwrap();
        assert!(members.iter().all(|m| m["$ref"].is_string()), "{name}");
    }
}

/// The parameter `name` of the operation at `path`/`method`.
fn param<'a>(
    spec: &'a serde_json::Value,
    path: &str,
    method: &str,
    name: &str,
) -> &'a serde_json::Value {
    spec["paths"][path][method]["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == name)
        .map(|p| &p["schema"])
        .unwrap_or_else(|| panic!("{method} {path} has no parameter {name}"))
}

#[test]
fn the_bounds_the_server_checks_are_in_the_document() {
    use serde_json::json;
    let spec: serde_json::Value = serde_json::from_str(&herald::routes::openapi_json()).unwrap();
    let s = &spec["components"]["schemas"];
    let drop_after = &s["ClockSettings"]["properties"]["drop_after"];
    assert_eq!(
        (&drop_after["minimum"], &drop_after["maximum"]),
        (&json!(1), &json!(100))
    );
    // Competitions refuse a clock without deadlines.
    let competition = s["CreateCompetitionRequest"]["properties"]["clock"].to_string();
    assert!(competition.contains("CompetitionClock"), "{competition}");
    let kinds = s["CompetitionClock"]["discriminator"]["mapping"]
        .as_object()
        .unwrap();
    assert!(
        !kinds.contains_key("none") && kinds.contains_key("per_move"),
        "{kinds:?}"
    );
    // Reminders: at most 5, each 1 s to 30 days, kept (not sent) with mail off.
    let offset = &s["ReminderOffset"];
    assert_eq!(
        (&offset["minimum"], &offset["maximum"]),
        (&json!(1), &json!(2_592_000))
    );
    for schema in ["NotificationSettings", "NotificationSettingsUpdate"] {
        let r = &s[schema]["properties"]["reminders_seconds"];
        assert_eq!(r["maxItems"], 5, "{schema}");
        assert_eq!(
            r["items"]["$ref"], "#/components/schemas/ReminderOffset",
            "{schema}"
        );
    }
    let kept =
        s["NotificationSettings"]["properties"]["reminders_seconds"]["description"].to_string();
    assert!(!kept.contains("none with mode"), "{kept}");
    // Webhooks: the event kinds the server knows, each once, at least one; http(s) only.
    let events = &s["WebhookRequest"]["properties"]["events"];
    assert_eq!(
        (&events["minItems"], &events["uniqueItems"]),
        (&json!(1), &json!(true))
    );
    let kinds = &s["WebhookEventKind"]["enum"];
    assert!(
        kinds.as_array().unwrap().contains(&json!("your_move")),
        "{kinds}"
    );
    let url = s["WebhookRequest"]["properties"]["url"]["pattern"]
        .as_str()
        .unwrap();
    assert!(url.starts_with("^[Hh][Tt][Tt][Pp][Ss]?://"), "{url}");
    // Query and path parameters.
    let q = param(&spec, "/api/v1/players", "get", "q");
    assert_eq!((&q["minLength"], &q["maxLength"]), (&json!(2), &json!(64)));
    let limit = param(&spec, "/api/v1/lobby", "get", "limit");
    assert_eq!(
        (&limit["minimum"], &limit["maximum"]),
        (&json!(1), &json!(200))
    );
    let seat = param(
        &spec,
        "/api/v1/games/{id}/invitations/{seat}",
        "delete",
        "seat",
    );
    assert_eq!((&seat["minimum"], &seat["maximum"]), (&json!(0), &json!(7)));
    // Competitions.
    let size = &s["TableSize"];
    assert_eq!((&size["minimum"], &size["maximum"]), (&json!(3), &json!(5)));
    assert_eq!(
        s["FormatTables"]["properties"]["table_sizes"]["minItems"],
        1
    );
    assert_eq!(s["ResultPlace"]["minimum"], 1);
    // Invitations: exactly one of an address or a player, each a titled member.
    let members = s["InvitationRequest"]["oneOf"].as_array().unwrap();
    let titles: Vec<_> = members
        .iter()
        .map(|m| {
            let name = m["$ref"].as_str().unwrap().rsplit('/').next().unwrap();
            s[name]["title"].clone()
        })
        .collect();
    assert_eq!(
        titles,
        [json!("InvitationByEmail"), json!("InvitationByPlayer")]
    );
    assert_eq!(s["Email"]["format"], "email");
    assert_eq!(
        s["CreateGameRequest"]["properties"]["invite"]["items"]["$ref"],
        "#/components/schemas/Email"
    );
    // Every Idempotency-Key is what the server takes: 1 to 255 visible ASCII characters.
    for item in spec["paths"].as_object().unwrap().values() {
        for op in item.as_object().unwrap().values() {
            for p in op["parameters"].as_array().into_iter().flatten() {
                if p["name"] == "Idempotency-Key" {
                    assert_eq!(p["schema"]["maxLength"], 255, "{}", op["operationId"]);
                }
            }
        }
    }
}

#[test]
fn the_creators_that_replay_a_retry_declare_the_idempotency_key() {
    let spec: serde_json::Value = serde_json::from_str(&herald::routes::openapi_json()).unwrap();
    for (path, method) in [
        ("/api/v1/accounts", "post"),
        ("/api/v1/competitions/{id}/entries", "post"),
        ("/api/v1/me/vacation", "post"),
        ("/api/v1/games", "post"),
        ("/api/v1/competitions", "post"),
        ("/api/v1/me/webhooks", "post"),
    ] {
        param(&spec, path, method, "Idempotency-Key");
    }
}
