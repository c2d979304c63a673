//! The server-rendered pages of design.md section 9: the landing from a "your move" link, the game
//! page with its action forms, my games, creating a game, accepting an invitation, signing in by
//! email link. Everything works without JavaScript; the stylesheet and the suit icons are compiled
//! into the binary.
//!
//! Pages call the same services as the API (`services::games`, `services::accounts`); the tokens
//! come from `auth::links`. This module owns no rules and must not be imported by `services`,
//! `engine` or `games`.

pub mod account;
pub mod archive;
pub mod assets;
pub mod clock;
pub mod competitions;
pub mod demo;
pub mod extract;
pub mod games;
pub mod history;
pub mod i18n;
pub mod layout;
pub mod lobby;
pub mod new_game;
pub mod play;
pub mod players;
pub mod rules;
pub mod session;
pub mod sign_up;

use actix_web::web;

/// Mounts the pages (outside the OpenAPI document: these answer HTML).
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/static/herald.css", web::get().to(assets::stylesheet))
        .route("/static/herald.js", web::get().to(assets::script))
        .route("/", web::get().to(account::home))
        .route("/games", web::get().to(account::my_games))
        .route("/lobby", web::get().to(lobby::lobby_page))
        .route("/archive", web::get().to(archive::archive_page))
        .route("/competitions", web::get().to(competitions::list_page))
        .route("/competitions/new", web::get().to(competitions::new_form))
        .route("/competitions/new", web::post().to(competitions::create))
        .route(
            "/competitions/{id}",
            web::get().to(competitions::competition_page),
        )
        .route(
            "/competitions/{id}/standings.csv",
            web::get().to(competitions::standings_csv),
        )
        .route(
            "/competitions/{id}/{action}",
            web::post().to(competitions::act),
        )
        .route("/games/new", web::get().to(new_game::new_game_form))
        .route("/games/new", web::post().to(new_game::create_game))
        .route("/sign-up", web::get().to(sign_up::sign_up_form))
        .route("/sign-up", web::post().to(sign_up::request_sign_up))
        .route("/sign-up/{token}", web::get().to(sign_up::sign_up_landing))
        .route(
            "/sign-up/{token}",
            web::post().to(sign_up::complete_sign_up),
        )
        .route("/sign-in", web::get().to(account::sign_in_form))
        .route("/sign-in", web::post().to(account::request_sign_in))
        .route("/sign-in/{token}", web::get().to(account::sign_in_landing))
        .route("/sign-in/{token}", web::post().to(account::sign_in_by_link))
        .route(
            "/sign-in/{token}/fresh",
            web::post().to(account::fresh_sign_in_link),
        )
        .route("/sign-out", web::post().to(account::sign_out))
        .route("/invitations/{game_id}", web::get().to(account::invitation))
        .route(
            "/invitations/{game_id}",
            web::post().to(account::accept_invitation),
        )
        .route(
            "/invitations/{game_id}/decline",
            web::post().to(account::decline_invitation),
        )
        .route(
            "/games/{game_id}/cancel",
            web::post().to(account::cancel_game),
        )
        .route(
            "/invitations/{game_id}/new",
            web::post().to(account::join_as_new_player),
        )
        .route("/settings", web::get().to(account::settings))
        .route("/settings", web::post().to(account::save_settings))
        .route("/settings/vacation", web::post().to(account::save_vacation))
        .route("/play/{game_id}", web::get().to(play::game_page))
        // Accepting or declining from the game page: under `/play/{id}`, where a play link's
        // session cookie is sent (before the catch-all of the game's own forms).
        .route(
            "/play/{game_id}/accept",
            web::post().to(account::accept_invitation),
        )
        .route(
            "/play/{game_id}/decline",
            web::post().to(account::decline_invitation),
        )
        .route("/play/{game_id}/chat", web::post().to(play::chat))
        .route("/play/{game_id}/{action}", web::post().to(play::act))
        .route("/players/{id}", web::get().to(players::profile_page))
        .route("/ratings/{kind}", web::get().to(players::leaderboard_page))
        .route("/rules", web::get().to(rules::rules_index))
        .route("/rules/{game}", web::get().to(rules::rules_page));
}
