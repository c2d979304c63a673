//! The game page: the landing from a "your move" link (`/play/{id}?t=...`), the page itself, and
//! the action forms' posts, submitted through `services::games::submit` like the API's.

use super::i18n::t;
use super::layout::{Chrome, message, page, respond, see_other};
use super::session::{self, Viewer};
use crate::auth::links::LinkError;
use crate::domain::{GameId, Locale, UserId};
use crate::error::ApiError;
use crate::services::games::{self, GameResource, HistoryEntry, Mode, Submission};
use crate::state::AppState;
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, ResponseError, web};
use maud::html;
use serde::Deserialize;
use serde_json::Value;
use std::collections::HashMap;
use uuid::Uuid;

#[derive(Debug, Deserialize)]
pub struct LinkQuery {
    t: Option<String>,
}

/// A refused form: which form, why, and what the player entered.
#[derive(Debug, Clone, Default)]
pub struct FormProblem {
    pub action: String,
    pub rule: Option<String>,
    pub detail: String,
    pub fields: HashMap<String, String>,
}

/// What the game page shows besides the game.
#[derive(Debug, Clone, Default)]
pub struct PageNotes {
    pub problem: Option<FormProblem>,
    pub notice: Option<Notice>,
}

/// A sentence above the game: a translated one by key, or the service's own words.
#[derive(Debug, Clone)]
pub enum Notice {
    Key(&'static str),
    Text(String),
}

/// Everything one rendering of the game page needs.
pub struct GamePage {
    pub game: GameResource,
    pub history: Vec<HistoryEntry>,
    pub locale: Locale,
    pub csrf: Option<String>,
    pub notes: PageNotes,
}

/// The account's name and locale, for the page shell.
pub(super) fn chrome_of(
    conn: &mut diesel::PgConnection,
    user: Option<UserId>,
    signed_in: bool,
    fallback: Locale,
) -> Chrome {
    match user.and_then(|u| crate::services::accounts::get(conn, u).ok()) {
        Some(account) => Chrome {
            locale: account.locale,
            account: signed_in.then_some(account.display_name),
            time_zone: account.time_zone,
            sign_out_csrf: None,
        },
        None => Chrome::anonymous(fallback),
    }
}

/// `GET /play/{game_id}[?t=...]`.
pub async fn game_page(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<Uuid>,
    query: web::Query<LinkQuery>,
) -> HttpResponse {
    let game = GameId(path.into_inner());
    if let Some(token) = &query.t {
        return landing(&state, &req, game, token);
    }
    let viewer = session::viewer(&state, &req, game);
    render(
        &state,
        &req,
        game,
        viewer,
        PageNotes::default(),
        StatusCode::OK,
    )
    .await
}

/// A link: a valid one becomes the play-session cookie and a 303 to the clean address.
fn landing(state: &AppState, req: &HttpRequest, game: GameId, token: &str) -> HttpResponse {
    match state.links.verify_play_link(token, game) {
        Ok(grant) => {
            tracing::info!(game.id = %game, user.id = %grant.user, seat = grant.seat, "play link opened");
            let mut res = see_other(&format!("/play/{game}"));
            let _ = res.add_cookie(&session::play_cookie(state, grant));
            res
        }
        Err(e) => {
            let l = super::i18n::request_locale(req);
            let reason = match e {
                LinkError::Expired => t(l, "link_expired"),
                LinkError::OtherGame => t(l, "link_other_game"),
                LinkError::Invalid => t(l, "link_invalid"),
            };
            respond(
                StatusCode::FORBIDDEN,
                page(
                    &Chrome::anonymous(l),
                    t(l, "link_refused"),
                    html! {
                        h1 { (t(l, "link_refused")) }
                        p.problem { (reason) }
                        (super::account::sign_in_box(l, &format!("/play/{game}"), t(l, "fresh_link")))
                    },
                ),
            )
        }
    }
}

/// Renders the game page for `viewer` with `status`.
async fn render(
    state: &AppState,
    req: &HttpRequest,
    game: GameId,
    viewer: Viewer,
    notes: PageNotes,
    status: StatusCode,
) -> HttpResponse {
    let user = viewer.user();
    let signed_in = matches!(viewer, Viewer::User { seat: None, .. });
    let csrf = match &viewer {
        Viewer::User { session, .. } => Some(session::csrf_token(state, session)),
        Viewer::Anonymous => None,
    };
    let fallback = super::i18n::request_locale(req);
    let account_session = match &viewer {
        Viewer::User {
            session,
            seat: None,
            ..
        } => Some(session.clone()),
        _ => None,
    };
    let st = state.clone();
    let loaded = crate::db::run(&state.pool, move |conn| {
        // An account cookie whose session was ended (signed out) reads as no one.
        let ended = match &account_session {
            Some(token) => !session::is_live(conn, &st, token)?,
            None => false,
        };
        let user = if ended { None } else { user };
        let signed_in = signed_in && !ended;
        let mut chrome = chrome_of(conn, user, signed_in, fallback);
        if signed_in {
            chrome.sign_out_csrf = account_session
                .as_ref()
                .map(|s| session::csrf_token(&st, s));
        }
        let found = games::get(conn, user, game)
            .and_then(|g| games::history(conn, user, game).map(|h| (g, h)));
        Ok::<_, ApiError>((chrome, found))
    })
    .await;
    let (chrome, found) = match loaded {
        Ok(x) => x,
        Err(e) => return error_page(&Chrome::anonymous(fallback), &ApiError::from(e)),
    };
    let (game_res, history) = match found {
        Ok(x) => x,
        Err(ApiError::Unauthenticated(_)) => {
            let l = chrome.locale;
            return respond(
                StatusCode::UNAUTHORIZED,
                page(
                    &chrome,
                    t(l, "sign_in"),
                    html! {
                        h1 { (t(l, "sign_in")) }
                        p { (t(l, "need_sign_in")) }
                        (super::account::sign_in_box(l, &format!("/play/{game}"), t(l, "send_link")))
                    },
                ),
            );
        }
        Err(e) => return error_page(&chrome, &e),
    };
    let view = GamePage {
        game: game_res,
        history,
        locale: chrome.locale,
        csrf,
        notes,
    };
    let mut title = super::history::title(&view);
    if !view.game.legal_actions.is_empty() {
        // The tab says so too, for a player with several games open.
        title = format!("{} · {title}", t(view.locale, "your_move"));
    }
    let game_body = match view.game.kind.as_str() {
        "magnate" => super::magnate::body(&view),
        _ => super::history::plain_body(&view, &title),
    };
    let body = html! { (game_body) (super::clock::panel(&chrome, &view.game)) };
    respond(status, page(&chrome, &title, body))
}

/// A page for a problem outside the forms.
pub(super) fn error_page(chrome: &Chrome, e: &ApiError) -> HttpResponse {
    let l = chrome.locale;
    let status = e.status_code();
    let title = if status == StatusCode::NOT_FOUND {
        t(l, "not_found")
    } else {
        t(l, "error")
    };
    let text = if status.is_server_error() {
        String::new()
    } else {
        e.to_string()
    };
    message(chrome, status, title, &text)
}

fn field<'a>(
    body: &'a HashMap<String, String>,
    query: &'a HashMap<String, String>,
    name: &str,
) -> &'a str {
    body.get(name)
        .map(String::as_str)
        .filter(|v| !v.trim().is_empty())
        .or_else(|| query.get(name).map(String::as_str))
        .unwrap_or("")
        .trim()
}

const SUITS: [&str; 6] = ["M", "S", "V", "L", "Y", "K"];

/// A suit->count map from the `<prefix>M` ... `<prefix>K` fields.
fn tokens(
    body: &HashMap<String, String>,
    query: &HashMap<String, String>,
    prefix: &str,
) -> Result<Value, String> {
    let mut map = serde_json::Map::new();
    for s in SUITS {
        let text = field(body, query, &format!("{prefix}{s}"));
        if text.is_empty() {
            continue;
        }
        let n: u16 = text
            .parse()
            .map_err(|_| format!("{s}: “{text}” is not a whole number from 0 to 99"))?;
        if n > 99 {
            return Err(format!("{s}: {n} is more than 99"));
        }
        if n > 0 {
            map.insert(s.to_owned(), Value::from(n));
        }
    }
    Ok(Value::Object(map))
}

/// The action a form describes, as the API's JSON.
fn action_of(
    kind: &str,
    body: &HashMap<String, String>,
    query: &HashMap<String, String>,
) -> Result<Value, String> {
    let f = |name: &str| Value::from(field(body, query, name));
    Ok(match kind {
        "build" => {
            serde_json::json!({"type": "build", "card": f("card"), "district": f("district"), "payment": tokens(body, query, "pay_")?})
        }
        "deed" => serde_json::json!({"type": "deed", "card": f("card"), "district": f("district")}),
        "sell" => serde_json::json!({"type": "sell", "card": f("card")}),
        "develop" => {
            serde_json::json!({"type": "develop", "card": f("card"), "payment": tokens(body, query, "pay_")?})
        }
        "trade" => {
            serde_json::json!({"type": "trade", "give": tokens(body, query, "give_")?, "take": f("take")})
        }
        "prefer" => serde_json::json!({"type": "prefer", "card": f("card"), "suit": f("suit")}),
        "end" => serde_json::json!({"type": "end"}),
        other => return Err(format!("there is no action “{other}”")),
    })
}

/// Whether a request came without a body (no length, or a length of zero, and not chunked).
fn bodiless(req: &HttpRequest) -> bool {
    use actix_web::http::header;
    let headers = req.headers();
    !headers.contains_key(header::TRANSFER_ENCODING)
        && headers
            .get(header::CONTENT_LENGTH)
            .is_none_or(|v| v.as_bytes() == b"0")
}

/// `POST /play/{game_id}/{action}`: one action from a form. Accepted: 303 to the game page.
/// Refused: 422 (409 for a stale page or another seat's turn) with the page, the reason next to
/// the form and the player's entries kept.
pub async fn act(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<(Uuid, String)>,
    query: web::Query<HashMap<String, String>>,
    body: Result<web::Form<HashMap<String, String>>, actix_web::Error>,
) -> HttpResponse {
    let (game, kind) = path.into_inner();
    let game = GameId(game);
    let query = query.into_inner();
    let viewer = session::live(&state, session::viewer(&state, &req, game)).await;
    let (user, session_value) = match &viewer {
        Viewer::User { user, session, .. } => (*user, session.clone()),
        Viewer::Anonymous => {
            return render(
                &state,
                &req,
                game,
                viewer,
                PageNotes::default(),
                StatusCode::UNAUTHORIZED,
            )
            .await;
        }
    };
    // No body at all (a one-click form, its choice in the address) is no fields; a body that
    // cannot be read as a form (too large, another media type) is refused, never taken for none.
    let body = match body {
        Ok(form) => form.into_inner(),
        Err(_) if bodiless(&req) => HashMap::new(),
        Err(e) => {
            let status = e.as_response_error().status_code();
            let status = if status.is_client_error() {
                status
            } else {
                StatusCode::BAD_REQUEST
            };
            let notes = PageNotes {
                problem: None,
                notice: Some(Notice::Text(format!("The form could not be read: {e}"))),
            };
            return render(&state, &req, game, viewer, notes, status).await;
        }
    };
    let csrf = field(&body, &query, "csrf");
    if !session::csrf_ok(&state, &session_value, csrf) {
        let notes = PageNotes {
            problem: None,
            notice: Some(Notice::Key("csrf")),
        };
        return render(&state, &req, game, viewer, notes, StatusCode::FORBIDDEN).await;
    }
    let mut fields = query.clone();
    fields.extend(body.clone());
    fields.remove("csrf");
    let refused = |rule: Option<String>, detail: String| PageNotes {
        problem: Some(FormProblem {
            action: kind.clone(),
            rule,
            detail,
            fields: fields.clone(),
        }),
        notice: None,
    };
    let action = match action_of(&kind, &body, &query) {
        Ok(a) => a,
        Err(detail) => {
            let status = StatusCode::UNPROCESSABLE_ENTITY;
            return render(&state, &req, game, viewer, refused(None, detail), status).await;
        }
    };
    let Ok(version) = field(&body, &query, "v").parse::<i64>() else {
        let notes = PageNotes {
            problem: None,
            notice: Some(Notice::Key("csrf")),
        };
        return render(
            &state,
            &req,
            game,
            viewer,
            notes,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
    };
    let submission = Submission {
        expected_version: version,
        actions: vec![action],
    };
    let result = crate::db::run(&state.pool, move |conn| {
        games::submit(conn, user, game, &submission, None, Mode::Store)
    })
    .await
    .map_err(ApiError::from);
    match result {
        Ok(_) => {
            tracing::info!(game.id = %game, user.id = %user, action = kind, "form action stored");
            see_other(&format!("/play/{game}"))
        }
        Err(ApiError::IllegalAction { rule, detail, .. }) => {
            let notes = refused(Some(rule), detail);
            render(
                &state,
                &req,
                game,
                viewer,
                notes,
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await
        }
        Err(ApiError::InvalidAction { detail, .. } | ApiError::Validation(detail)) => {
            let notes = refused(None, detail);
            render(
                &state,
                &req,
                game,
                viewer,
                notes,
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await
        }
        Err(
            e @ (ApiError::StaleVersion { .. }
            | ApiError::NotYourTurn { .. }
            | ApiError::GameOver { .. }
            | ApiError::Conflict(_)),
        ) => {
            let notes = PageNotes {
                problem: None,
                notice: Some(match e {
                    ApiError::StaleVersion { .. } => Notice::Key("stale"),
                    other => Notice::Text(other.to_string()),
                }),
            };
            render(&state, &req, game, viewer, notes, StatusCode::CONFLICT).await
        }
        Err(e) => {
            let status = e.status_code();
            let notes = PageNotes {
                problem: None,
                notice: Some(if status.is_server_error() {
                    Notice::Key("error")
                } else {
                    Notice::Text(e.to_string())
                }),
            };
            render(&state, &req, game, viewer, notes, status).await
        }
    }
}

#[cfg(test)]
mod properties {
    //! The form reader of the game page ([`action_of`], a pure function): whatever a browser or a
    //! forger posts, it never panics and gives either an action the API's parser then reads or
    //! refuses, or a sentence; and the fields of any action, as the page's forms name them, read
    //! back as that very action, from the body or from the address.
    #![allow(clippy::unwrap_used)]

    use super::action_of;
    use crate::engine::registry::GameKind;
    use crate::games::magnate::Action;
    use crate::games::magnate::cards::{Card, District, Suit};
    use crate::games::magnate::tokens::Tokens;
    use proptest::collection::{hash_map, vec};
    use proptest::prelude::*;
    use serde_json::Value;
    use std::collections::HashMap;

    fn magnate() -> GameKind {
        GameKind::parse("magnate").unwrap()
    }

    const KINDS: [&str; 7] = ["build", "deed", "sell", "develop", "trade", "prefer", "end"];

    fn text() -> impl Strategy<Value = String> {
        prop_oneof![
            prop::sample::select(Card::all().map(|c| c.code().to_owned()).collect::<Vec<_>>()),
            "[a-f]",
            "[MSVLYK]",
            "-?[0-9]{1,6}",
            Just(String::new()),
            Just("\0".to_owned()),
            Just(" 3 ".to_owned()),
            any::<String>(),
        ]
    }

    fn form() -> impl Strategy<Value = HashMap<String, String>> {
        let mut names: Vec<String> = ["card", "district", "take", "suit", "csrf", "v", "zz"]
            .map(str::to_owned)
            .to_vec();
        names.extend(
            ["pay_", "give_"]
                .iter()
                .flat_map(|p| Suit::ALL.map(|s| format!("{p}{s}"))),
        );
        hash_map(prop::sample::select(names), text(), 0..8)
    }

    fn tokens() -> impl Strategy<Value = Tokens> {
        vec(0u16..=99, 6).prop_map(|counts| {
            let mut t = Tokens::NONE;
            for (s, n) in Suit::ALL.into_iter().zip(counts) {
                t.set(s, n);
            }
            t
        })
    }

    /// Every action a form can describe (the roll has no form: the server rolls).
    fn action() -> impl Strategy<Value = Action> {
        let card = prop::sample::select(Card::all().collect::<Vec<_>>());
        let district = prop::sample::select(District::ALL.to_vec());
        let suit = prop::sample::select(Suit::ALL.to_vec());
        prop_oneof![
            (card.clone(), district.clone(), tokens()).prop_map(|(card, district, payment)| {
                Action::Build {
                    card,
                    district,
                    payment,
                }
            }),
            (card.clone(), district).prop_map(|(card, district)| Action::Deed { card, district }),
            card.clone().prop_map(|card| Action::Sell { card }),
            (card.clone(), tokens()).prop_map(|(card, payment)| Action::Develop { card, payment }),
            (tokens(), suit.clone()).prop_map(|(give, take)| Action::Trade { give, take }),
            (card, suit).prop_map(|(card, suit)| Action::Prefer { card, suit }),
            Just(Action::End),
        ]
    }

    /// The fields the page's form for `action` posts (padded with spaces when `pad`).
    fn fields_of(action: &Action, pad: bool) -> HashMap<String, String> {
        let json = serde_json::to_value(action).unwrap();
        let mut out = HashMap::new();
        let shown = |v: String| if pad { format!(" {v}\t") } else { v };
        for (k, v) in json.as_object().unwrap() {
            match (k.as_str(), v) {
                ("type", _) => {}
                ("payment" | "give", Value::Object(map)) => {
                    let prefix = if k == "payment" { "pay_" } else { "give_" };
                    for (s, n) in map {
                        out.insert(format!("{prefix}{s}"), shown(n.to_string()));
                    }
                }
                (_, Value::String(s)) => {
                    out.insert(k.clone(), shown(s.clone()));
                }
                (_, other) => {
                    out.insert(k.clone(), shown(other.to_string()));
                }
            }
        }
        out
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

        #[test]
        fn any_form_gives_an_action_or_a_sentence(
            kind in prop_oneof![prop::sample::select(KINDS.to_vec()).prop_map(str::to_owned), any::<String>()],
            body in form(),
            query in form(),
        ) {
            match action_of(&kind, &body, &query) {
                Ok(action) => {
                    prop_assert_eq!(action["type"].as_str(), Some(kind.as_str()));
                    // The API's reader takes it from here: an action or a reason, no panic.
                    if let Err(reason) = magnate().parse_action(&action) {
                        prop_assert!(!reason.is_empty());
                    }
                }
                Err(sentence) => prop_assert!(!sentence.is_empty()),
            }
        }

        #[test]
        fn the_fields_of_any_action_read_back_as_that_action(action in action(), pad in any::<bool>(), in_query in any::<bool>()) {
            let fields = fields_of(&action, pad);
            let none = HashMap::new();
            let (body, query) = if in_query { (&none, &fields) } else { (&fields, &none) };
            let read = action_of(action.kind(), body, query)
                .map_err(|e| TestCaseError::fail(format!("{action}: {e}")))?;
            let read = magnate()
                .parse_action(&read)
                .map_err(|e| TestCaseError::fail(format!("{action}: {e}")))?;
            prop_assert_eq!(read.notation(), action.to_string());
        }
    }
}
