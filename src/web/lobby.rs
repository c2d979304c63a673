//! `GET /lobby`: games waiting for players with open seats, each with a button to take one.

use super::account::{sign_in_page, signed_in};
use super::i18n::t;
use super::layout::{page, respond};
use super::play::error_page;
use super::session;
use crate::error::ApiError;
use crate::routes::games::{LobbyQuery, lobby_filter};
use crate::services::games::lobby::lobby;
use crate::state::AppState;
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use maud::html;

/// `GET /lobby?kind=&seats=`: the open tables, newest first.
pub async fn lobby_page(
    state: web::Data<AppState>,
    req: HttpRequest,
    query: web::Query<LobbyQuery>,
) -> HttpResponse {
    let Some((user, cookie, chrome)) = signed_in(&state, &req).await else {
        return sign_in_page(&req, StatusCode::UNAUTHORIZED, "/lobby");
    };
    let l = chrome.locale;
    let listed = match lobby_filter(&query) {
        Ok(filter) => crate::db::run(&state.pool, move |conn| lobby(conn, user, &filter))
            .await
            .map_err(ApiError::from),
        Err(e) => Err(e),
    };
    let games = match listed {
        Ok(games) => games,
        Err(e) => return error_page(&chrome, &e),
    };
    let csrf = session::csrf_token(&state, &cookie);
    let body = html! {
        h1 { (t(l, "lobby")) }
        @if games.is_empty() { p { (t(l, "lobby_empty")) } }
        ul.plain {
            @for g in &games {
                @let names: Vec<String> = g.seats.iter().filter_map(|s| s.player.as_ref().map(|p| p.display_name.clone())).collect();
                li.card data-game=(g.id) {
                    strong { (g.kind) } " · " (names.join(", "))
                    " · " (g.open_seats) " " (t(l, "open_seats"))
                    form.quick method="post" action={ "/invitations/" (g.id) } data-action="join" {
                        input type="hidden" name="csrf" value=(csrf);
                        button type="submit" { (t(l, "take_seat")) }
                    }
                }
            }
        }
    };
    respond(StatusCode::OK, page(&chrome, t(l, "lobby"), body))
}
