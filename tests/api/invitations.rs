//! Invitations after creation (design.md section 19, api.md "The first hour"): withdrawing one,
//! inviting to the empty seat by address or by a player found by display name.

use crate::clocks::jobs_of_kind;
use crate::helpers::{TestApp, spawn_app};
use crate::web::{page, user_id};
use awc::http::Method;
use herald::auth::links::PlayGrant;
use herald::domain::GameId;
use serde_json::{Value, json};

async fn delete(app: &TestApp, path: &str, token: &str) -> crate::helpers::Reply {
    app.call(Method::DELETE, path, Some(token), None).await
}

/// A Lancaster game of Ada inviting Bruno (an account) and cyd@ (no account yet).
async fn three_seats(app: &TestApp, ada: &str) -> String {
    let g = app
        .post(
            "/api/v1/games",
            Some(ada),
            json!({"kind": "lancaster", "invite": ["bruno@example.test", "cyd@example.test"]}),
        )
        .await;
    assert_eq!(g.status, 201, "{}", g.text);
    g.json["id"].as_str().unwrap().to_owned()
}

#[actix_web::test]
async fn a_withdrawn_invitation_empties_the_seat_and_its_links_and_join_answer_403() {
    let app = spawn_app().await;
    let ada = app.user("ada@example.test", "Ada").await;
    let bruno = app.user("bruno@example.test", "Bruno").await;
    let id = three_seats(&app, &ada).await;
    let game = GameId(id.parse().unwrap());
    let bruno_link = app.links.play_link(
        PlayGrant {
            user: user_id(&app, &bruno).await,
            game,
            seat: 1,
        },
        600,
    );
    let cyd_link = app.links.invite_link(game, 2, "cyd@example.test", 600);
    // Both links open their pages while the invitations stand.
    assert_eq!(
        page(&app, &format!("/play/{id}?t={bruno_link}"), "")
            .await
            .status,
        303
    );
    let cyd_page = page(&app, &format!("/invitations/{id}?t={cyd_link}"), "").await;
    assert_eq!(cyd_page.status, 200, "{}", cyd_page.text);

    let before = app.get(&format!("/api/v1/games/{id}"), Some(&ada)).await;
    delete(&app, &format!("/api/v1/games/{id}/invitations/1"), &bruno)
        .await
        .assert_problem(403, "forbidden");
    let withdrawn = delete(&app, &format!("/api/v1/games/{id}/invitations/1"), &ada).await;
    assert_eq!(withdrawn.status, 200, "{}", withdrawn.text);
    let seat = &withdrawn.json["seats"][1];
    assert_eq!(
        (
            seat["player"].clone(),
            seat["invited"].clone(),
            seat["open"].clone()
        ),
        (Value::Null, Value::Null, json!(false))
    );
    assert_eq!(
        withdrawn.json["version"],
        before.json["version"].as_i64().unwrap() + 1
    );
    app.post(&format!("/api/v1/games/{id}/join"), Some(&bruno), json!({}))
        .await
        .assert_problem(403, "forbidden");
    let refused = page(&app, &format!("/play/{id}?t={bruno_link}"), "").await;
    assert_eq!(refused.status, 403, "{}", refused.text);
    assert!(refused.text.contains("withdrawn"), "{}", refused.text);
    assert!(
        !refused.header("set-cookie").contains("herald_play"),
        "no session for a withdrawn seat"
    );

    delete(&app, &format!("/api/v1/games/{id}/invitations/2"), &ada).await;
    let gone = page(&app, &format!("/invitations/{id}?t={cyd_link}"), "").await;
    assert_eq!(gone.status, 403, "{}", gone.text);
    // Nothing to withdraw twice, no such seat, nobody's taken seat.
    delete(&app, &format!("/api/v1/games/{id}/invitations/2"), &ada)
        .await
        .assert_problem(409, "conflict");
    delete(&app, &format!("/api/v1/games/{id}/invitations/7"), &ada)
        .await
        .assert_problem(404, "not_found");
    delete(&app, &format!("/api/v1/games/{id}/invitations/0"), &ada)
        .await
        .assert_problem(409, "conflict");
    let after = app.get(&format!("/api/v1/games/{id}"), Some(&ada)).await;
    assert_eq!(
        after.json["status"], "waiting",
        "a game of empty seats never starts"
    );
}

#[actix_web::test]
async fn the_creator_invites_to_an_empty_seat_by_address_or_by_a_player_found_by_name() {
    let app = spawn_app().await;
    let ada = app.user("ada@example.test", "Ada").await;
    let bruno = app.user("bruno@example.test", "Bruno").await;
    let zeph = app.user("zephyrine@example.test", "Zephyrine Quill").await;
    let id = three_seats(&app, &ada).await;
    let invite = |body: Value| {
        let (app, ada, id) = (&app, ada.clone(), id.clone());
        async move {
            app.post(&format!("/api/v1/games/{id}/invitations"), Some(&ada), body)
                .await
        }
    };
    invite(json!({"email": "dora@example.test"}))
        .await
        .assert_problem(409, "conflict");
    delete(&app, &format!("/api/v1/games/{id}/invitations/1"), &ada).await;
    delete(&app, &format!("/api/v1/games/{id}/invitations/2"), &ada).await;

    let found = app.get("/api/v1/players?q=ePHYRin", Some(&bruno)).await;
    assert_eq!(found.status, 200, "{}", found.text);
    assert_eq!(
        found.json,
        json!([{"id": user_id(&app, &zeph).await.0, "display_name": "Zephyrine Quill"}])
    );
    let zeph_id = found.json[0]["id"].clone();

    invite(json!({}))
        .await
        .assert_problem(422, "validation_failed");
    invite(json!({"email": "x@example.test", "player_id": zeph_id}))
        .await
        .assert_problem(422, "validation_failed");
    invite(json!({"player_id": "00000000-0000-4000-8000-000000000000"}))
        .await
        .assert_problem(422, "validation_failed");
    invite(json!({"email": "ada@example.test"}))
        .await
        .assert_problem(422, "validation_failed");
    app.post(
        &format!("/api/v1/games/{id}/invitations"),
        Some(&bruno),
        json!({"email": "dora@example.test"}),
    )
    .await
    .assert_problem(403, "forbidden");

    let mails = jobs_of_kind(&app, "email.invitation");
    let by_id = invite(json!({"player_id": zeph_id})).await;
    assert_eq!(by_id.status, 200, "{}", by_id.text);
    assert_eq!(
        by_id.json["seats"][1]["invited"],
        json!({"display_name": "Zephyrine Quill"})
    );
    invite(json!({"player_id": zeph_id}))
        .await
        .assert_problem(409, "conflict");
    // Bruno's invitation was withdrawn; a new one lets him in again.
    let again = invite(json!({"email": "bruno@example.test"})).await;
    assert_eq!(again.status, 200, "{}", again.text);
    assert_eq!(
        jobs_of_kind(&app, "email.invitation"),
        mails + 2,
        "each invitation is mailed"
    );
    for who in [&zeph, &bruno] {
        let joined = app
            .post(&format!("/api/v1/games/{id}/join"), Some(who), json!({}))
            .await;
        assert_eq!(joined.status, 200, "{}", joined.text);
    }
    let g = app.get(&format!("/api/v1/games/{id}"), Some(&ada)).await;
    assert_eq!(g.json["status"], "active");
    invite(json!({"email": "dora@example.test"}))
        .await
        .assert_problem(409, "conflict");
}

#[actix_web::test]
async fn players_are_found_by_part_of_their_name_and_invited_at_creation() {
    let app = spawn_app().await;
    let ada = app.user("ada@example.test", "Ada").await;
    let zeph = app.user("zephyrine@example.test", "Zephyrine Quill").await;
    app.user("percent@example.test", "100% Sure").await;
    app.user("under@example.test", "Under_Score").await;

    let names = |r: &crate::helpers::Reply| -> Vec<String> {
        r.json
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["display_name"].as_str().unwrap().to_owned())
            .collect()
    };
    let pct = app.get("/api/v1/players?q=0%25", Some(&ada)).await;
    assert_eq!(
        names(&pct),
        ["100% Sure"],
        "a % is a character, not a wildcard"
    );
    let under = app.get("/api/v1/players?q=r_", Some(&ada)).await;
    assert_eq!(names(&under), ["Under_Score"]);
    let none = app.get("/api/v1/players?q=nobody%20here", Some(&ada)).await;
    assert_eq!(none.json, json!([]));
    let all = app.get("/api/v1/players?q=ep", Some(&ada)).await;
    assert!(!all.text.contains('@'), "never an address: {}", all.text);
    app.get("/api/v1/players?q=z", Some(&ada))
        .await
        .assert_problem(422, "validation_failed");
    app.get("/api/v1/players", Some(&ada))
        .await
        .assert_problem(422, "validation_failed");
    app.get("/api/v1/players?q=zeph", None)
        .await
        .assert_problem(401, "unauthenticated");

    let zeph_id = user_id(&app, &zeph).await.0;
    let unknown = app
        .post(
            "/api/v1/games",
            Some(&ada),
            json!({"kind": "magnate", "invite_players": ["00000000-0000-4000-8000-000000000000"]}),
        )
        .await;
    unknown.assert_problem(422, "validation_failed");
    let listed = app.get("/api/v1/games", Some(&ada)).await;
    assert_eq!(
        listed.json.as_array().map(Vec::len),
        Some(0),
        "nothing was created"
    );
    let twice = app
        .post(
            "/api/v1/games",
            Some(&ada),
            json!({"kind": "lancaster", "invite": ["zephyrine@example.test"], "invite_players": [zeph_id]}),
        )
        .await;
    twice.assert_problem(422, "validation_failed");
    assert!(!twice.text.contains("zephyrine@"), "{}", twice.text);
    let g = app
        .post(
            "/api/v1/games",
            Some(&ada),
            json!({"kind": "magnate", "invite_players": [zeph_id]}),
        )
        .await;
    assert_eq!(g.status, 201, "{}", g.text);
    assert_eq!(
        g.json["seats"][1]["invited"],
        json!({"display_name": "Zephyrine Quill"})
    );
    let id = g.json["id"].as_str().unwrap();
    let joined = app
        .post(&format!("/api/v1/games/{id}/join"), Some(&zeph), json!({}))
        .await;
    assert_eq!(joined.status, 200, "{}", joined.text);
    assert_eq!(joined.json["status"], "active");
}

/// A signed-in reader opening the invitation page of a game that does not exist gets 404, not
/// a form to accept an invitation nobody made.
#[actix_web::test]
async fn the_invitation_page_of_no_game_is_404() {
    let app = spawn_app().await;
    let ada = app.user("ada@example.test", "Ada").await;
    let (cookie, _) = crate::bad_input::account_cookie(&app, &ada, "ada@example.test").await;
    let nowhere = uuid::Uuid::new_v4();
    let r = page(&app, &format!("/invitations/{nowhere}"), &cookie).await;
    assert_eq!(r.status, 404, "{}", r.text);
    assert!(!r.text.contains("data-action=\"accept\""), "{}", r.text);
    // A real game's page still offers the choice.
    let id = three_seats(&app, &ada).await;
    let r = page(&app, &format!("/invitations/{id}"), &cookie).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert!(r.text.contains("data-action=\"accept\""), "{}", r.text);
}
