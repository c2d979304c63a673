//! `GET /lobby`: games waiting for players with open seats, each with a button to take one.

use super::extract::{Accepts, PageError, Params, SignedIn, Unaccepted, db};
use super::i18n::t;
use super::layout::{page, respond};
use crate::engine::registry::GameKind;
use crate::routes::games::{LOBBY_LIMIT, LOBBY_SEATS, LobbyParam, LobbyQuery, lobby_filter};
use crate::services::games::lobby::lobby;
use crate::state::AppState;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use maud::html;
use serde::Deserialize;

/// The lobby page's query: the API's [`LobbyQuery`], but a page ignores names it does not read
/// (a link may carry others), where the API refuses them.
#[derive(Debug, Deserialize)]
pub struct LobbyParams {
    kind: Option<String>,
    seats: Option<i16>,
    limit: Option<i64>,
}

/// `GET /lobby?kind=&seats=`: the open tables, newest first.
pub async fn lobby_page(
    state: web::Data<AppState>,
    me: SignedIn,
    query: Params<LobbyParams>,
) -> Result<HttpResponse, PageError> {
    let (user, l) = (me.user, me.chrome.locale);
    let Params(LobbyParams { kind, seats, limit }) = query;
    // A form's "any game" is an empty kind.
    let kind = kind.filter(|k| !k.is_empty());
    let filter = lobby_filter(&LobbyQuery { kind, seats, limit })
        .map_err(|refused| unaccepted(refused).page(&me.chrome))?;
    let games = db(&state, &me.chrome, move |conn| lobby(conn, user, &filter)).await?;
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
                        input type="hidden" name="csrf" value=(me.csrf);
                        button type="submit" { (t(l, "take_seat")) }
                    }
                }
            }
        }
    };
    Ok(respond(
        StatusCode::OK,
        page(&me.chrome, t(l, "lobby"), body),
    ))
}

/// The API's refusal of a lobby query as the page says it: the parameter and what it takes, from
/// the ranges the API's check reads.
fn unaccepted(refused: LobbyParam) -> Unaccepted {
    let accepts = match refused {
        LobbyParam::Kind => Accepts::OneOf(GameKind::ALL.iter().map(|k| k.as_str()).collect()),
        LobbyParam::Seats => Accepts::range(&LOBBY_SEATS),
        LobbyParam::Limit => Accepts::range(&LOBBY_LIMIT),
    };
    Unaccepted {
        field: refused.name(),
        accepts,
    }
}
