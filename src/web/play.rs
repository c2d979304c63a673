//! The game page: the landing from a "your move" link (`/play/{id}?t=...`), the page itself, and
//! the action forms' posts, submitted through `services::games::submit` like the API's.

use super::extract::{Accepts, Fields, Form, Params, Query, Repeated, Unfit, unfit};
use super::games::Posted;
use super::i18n::t;
use super::layout::{Chrome, message, page, respond, see_other, with_retry_after};
use super::session::{self, Viewer};
use crate::auth::links::LinkError;
use crate::domain::{GameId, Locale, UserId};
use crate::error::ApiError;
use crate::services::chat::ChatMessage;
use crate::services::games::{self, GameResource, HistoryEntry, Mode, Submission, Watch};
use crate::services::paging::After;
use crate::state::AppState;
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, ResponseError, web};
use maud::html;
use serde::Deserialize;
use uuid::Uuid;

#[derive(Debug, Deserialize)]
pub struct LinkQuery {
    t: Option<String>,
}

/// A refused form: which form, why, and what the player entered.
#[derive(Debug, Clone)]
pub struct FormProblem {
    pub action: String,
    pub rule: Option<String>,
    pub detail: Notice,
    pub fields: Fields,
}

/// What the game page shows besides the game.
#[derive(Debug, Clone, Default)]
pub struct PageNotes {
    pub problem: Option<FormProblem>,
    pub notice: Option<Notice>,
    /// A rate limit's wait, for the page's `Retry-After`.
    pub retry_after_s: Option<u64>,
}

/// A sentence above the game: a translated one by key, the service's own words, or a form
/// refused for a field given twice.
#[derive(Debug, Clone)]
pub enum Notice {
    Key(&'static str),
    Text(String),
    Repeated(Repeated),
    /// A rate limit, with its wait in seconds.
    Limited(u64),
    /// A form field the page's form reader does not take.
    Unfit(Unfit),
}

impl Notice {
    /// The sentence in `l`.
    pub fn say(&self, l: Locale) -> String {
        match self {
            Notice::Key(k) => t(l, k).to_owned(),
            Notice::Text(s) => s.clone(),
            Notice::Repeated(r) => r.sentence(l),
            Notice::Limited(wait) => limited(l, *wait),
            Notice::Unfit(u) => u.sentence(l),
        }
    }
}

/// Everything one rendering of the game page needs.
pub struct GamePage {
    pub game: GameResource,
    /// The game's view and the reader's legal actions, read back from the resource's JSON text
    /// for the page to look into (the API passes that text on untouched).
    pub view: Option<serde_json::Value>,
    pub legal_actions: Vec<serde_json::Value>,
    pub history: Vec<HistoryEntry>,
    pub locale: Locale,
    pub csrf: Option<String>,
    pub notes: PageNotes,
    /// The game's chat as the reader may see it (none for someone who may not).
    pub chat: Vec<ChatMessage>,
    /// The competition the game is played in, if any.
    pub competition: Option<crate::services::competitions::GameInCompetition>,
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
    query: Params<LinkQuery>,
) -> HttpResponse {
    let game = GameId(path.into_inner());
    if let Some(token) = &query.t {
        return landing(&state, &req, game, token).await;
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

/// A link: a valid one whose seat is still the link's (taken by its account, or still inviting
/// its address) becomes the play-session cookie and a 303 to the clean address.
async fn landing(state: &AppState, req: &HttpRequest, game: GameId, token: &str) -> HttpResponse {
    let l = super::i18n::request_locale(req);
    let grant = match state.links.verify_play_link(token, game) {
        Ok(grant) => grant,
        Err(e) => return link_refused(l, game, link_error(l, e)),
    };
    let holds = crate::db::run(&state.pool, move |conn| {
        let holds = crate::services::games::invitations::grant_holds(conn, grant)?;
        if holds {
            // A mailed link was opened: mail reaches this account.
            crate::services::accounts::address_works(conn, grant.user)?;
        }
        Ok::<_, ApiError>(holds)
    })
    .await;
    match holds {
        Ok(true) => {
            tracing::info!(game.id = %game, user.id = %grant.user, seat = grant.seat, "play link opened");
            let mut res = see_other(&format!("/play/{game}"));
            let _ = res.add_cookie(&session::play_cookie(state, grant));
            res
        }
        Ok(false) => link_refused(l, game, t(l, "link_withdrawn")),
        Err(e) => error_page(&Chrome::anonymous(l), &ApiError::from(e)),
    }
}

/// Why a play or invitation link is refused, in `l` (the error's own words are English).
pub(super) fn link_error(l: Locale, e: LinkError) -> &'static str {
    t(
        l,
        match e {
            LinkError::Expired => "link_expired",
            LinkError::OtherGame => "link_other_game",
            LinkError::Invalid => "link_invalid",
        },
    )
}

/// 403: a play link that does not (or no longer) open its game, with a way to sign in.
fn link_refused(l: Locale, game: GameId, reason: &str) -> HttpResponse {
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

/// Renders the game page for `viewer` with `status`.
async fn render(
    state: &AppState,
    req: &HttpRequest,
    game: GameId,
    viewer: Viewer,
    notes: PageNotes,
    status: StatusCode,
) -> HttpResponse {
    let fallback = super::i18n::request_locale(req);
    let st = state.clone();
    let wait = notes.retry_after_s;
    let loaded = crate::db::run(&state.pool, move |conn| {
        load(conn, &st, viewer, game, fallback, notes)
    })
    .await;
    match loaded {
        Ok((chrome, Ok(view))) => {
            with_retry_after(respond(status, whole_page(&chrome, &view)), wait)
        }
        Ok((chrome, Err(e))) => error_page(&chrome, &e),
        Err(e) => error_page(&Chrome::anonymous(fallback), &ApiError::from(e)),
    }
}

/// The reader's shell, the game with its history as they may see it, and its chat (none when
/// the reader may not read it). An account cookie whose session was ended (signed out) reads
/// as no one.
fn load(
    conn: &mut diesel::PgConnection,
    state: &AppState,
    viewer: Viewer,
    game: GameId,
    fallback: crate::domain::Locale,
    notes: PageNotes,
) -> Result<(Chrome, Result<GamePage, ApiError>), ApiError> {
    let csrf = match &viewer {
        Viewer::User { session, .. } => Some(session::csrf_token(state, session)),
        Viewer::Anonymous => None,
    };
    let account_session = match &viewer {
        Viewer::User {
            session,
            seat: None,
            ..
        } => Some(session.clone()),
        _ => None,
    };
    let ended = match &account_session {
        Some(token) => !session::is_live(conn, state, token)?,
        None => false,
    };
    let user = if ended { None } else { viewer.user() };
    let signed_in = account_session.is_some() && !ended;
    let mut chrome = chrome_of(conn, user, signed_in, fallback);
    if signed_in {
        chrome.sign_out_csrf = account_session
            .as_ref()
            .map(|s| session::csrf_token(state, s));
    }
    let page = games::read(conn, &state.seen, user, game, Watch::Anyone).and_then(|found| {
        Ok(GamePage {
            history: games::history(conn, user, game, Watch::Anyone)?,
            chat: crate::services::chat::list(conn, user, game, After::ALL)
                .map(|page| page.rows)
                .unwrap_or_default(),
            competition: crate::services::competitions::of_game(conn, game)?,
            view: found.view.as_deref().map(parsed),
            legal_actions: found.legal_actions.iter().map(|a| parsed(a)).collect(),
            game: found,
            locale: chrome.locale,
            csrf,
            notes,
        })
    });
    Ok((chrome, page))
}

/// JSON text the engine wrote, as a value (it always parses).
fn parsed(text: &serde_json::value::RawValue) -> serde_json::Value {
    serde_json::from_str(text.get()).unwrap_or(serde_json::Value::Null)
}

/// For a reader who is not signed in, under a game still being played: anyone may watch
/// (public information only), and signing in is how to play or chat.
fn watcher_sign_in(chrome: &Chrome, view: &GamePage) -> maud::Markup {
    let l = chrome.locale;
    let open = !matches!(
        view.game.status,
        games::GameStatus::Finished | games::GameStatus::Aborted
    );
    html! {
        @if open && view.csrf.is_none() {
            section.sign-in aria-labelledby="watch-sign-in" {
                h2 id="watch-sign-in" { (t(l, "sign_in")) }
                // A link, not the form itself: the page's forms are the game's actions.
                p {
                    (t(l, "need_sign_in")) " "
                    a href={ "/sign-in?next=/play/" (view.game.id) } { (t(l, "sign_in")) }
                }
            }
        }
    }
}

/// The game's page: its own body, the cancel form, the clock, the rules link.
fn whole_page(chrome: &Chrome, view: &GamePage) -> maud::Markup {
    let mut title = super::history::title(view);
    if !view.legal_actions.is_empty() {
        // The tab says so too, for a player with several games open.
        title = format!("{} · {title}", t(view.locale, "your_move"));
    }
    let game_body = super::games::body(&view.game.kind, view, &title);
    let rules = super::rules::rules_href(&view.game.kind);
    // A refusal is shown next to its form; a form the page does not draw now (one posted from
    // an older page, or made up) gets it above the game, so no refusal goes unexplained.
    let unplaced = view.notes.problem.as_ref().filter(|p| {
        p.action != "chat"
            && !game_body
                .0
                .contains(&format!("id=\"problem-{}\"", p.action))
    });
    // So does a notice: a game not started has no board to show it by.
    let notice = view
        .notes
        .notice
        .as_ref()
        .filter(|_| !game_body.0.contains("class=\"notice\""));
    let body = html! {
        @if let Some(notice) = notice {
            p.notice role="alert" { (notice.say(chrome.locale)) }
        }
        @if let Some(problem) = unplaced {
            div.problem role="alert" id="problem-form" {
                strong { (t(chrome.locale, "refused")) }
                @if let Some(rule) = &problem.rule {
                    " (" (super::games::rule_ref(&view.game.kind, rule)) ")"
                }
                ": " (problem.detail.say(chrome.locale))
            }
        }
        (competition_line(chrome, view))
        (game_body)
        (cancel_form(view))
        (super::clock::panel(chrome, &view.game))
        (chat_panel(view))
        (watcher_sign_in(chrome, view))
        p.rules { a href=(rules) { (t(chrome.locale, "rules")) } }
    };
    page(chrome, &title, body)
}

/// The competition and round a game belongs to, and the result its director set, if one did:
/// a game the director ended in play reads `aborted`, and this says what counts instead.
fn competition_line(chrome: &Chrome, view: &GamePage) -> maud::Markup {
    let l = chrome.locale;
    let Some(c) = &view.competition else {
        return html! {};
    };
    let name = |seat: usize| {
        view.game
            .seats
            .get(seat)
            .and_then(|s| s.player.as_ref())
            .map_or_else(|| format!("{seat}"), |p| p.display_name.clone())
    };
    let mut placed: Vec<(u32, usize)> = c
        .set_by_director
        .iter()
        .flatten()
        .enumerate()
        .map(|(seat, place)| (*place, seat))
        .collect();
    placed.sort_unstable();
    html! {
        p.competition {
            a href={ "/competitions/" (c.id) } { (c.name) }
            " · " (t(l, "comp_round")) " " (c.round)
        }
        @if !placed.is_empty() {
            div.status.director role="status" {
                strong { (t(l, "comp_result_by_director")) } ": "
                @for (i, (place, seat)) in placed.iter().enumerate() {
                    @if i > 0 { ", " }
                    (place) ". " (name(*seat))
                }
            }
        }
    }
}

/// The game's chat and, for its players (and signed-in spectators when the game lets them
/// chat), the form to write in it (no script needed).
fn chat_panel(p: &GamePage) -> maud::Markup {
    let l = p.locale;
    let player = p.csrf.is_some() && (p.game.you.is_some() || p.game.spectator_chat);
    // The page's forms end with the game (the API still takes a last word).
    let open = !matches!(
        p.game.status,
        games::GameStatus::Finished | games::GameStatus::Aborted
    );
    let problem = p
        .notes
        .problem
        .as_ref()
        .filter(|f| f.action == "chat")
        .map(|f| f.detail.say(l));
    html! {
        @if player || !p.chat.is_empty() {
            section.chat aria-labelledby="chat-title" {
                h2 id="chat-title" { (t(l, "chat")) }
                @if p.chat.is_empty() { p.muted { (t(l, "chat_empty")) } }
                ol.chat {
                    @for m in &p.chat {
                        li data-seq=(m.seq) {
                            strong { (m.display_name) }
                            @if m.seat.is_none() { " (" (t(l, "spectator")) ")" }
                            ": " (m.text)
                        }
                    }
                }
                @if player && open {
                    form method="post" action={ "/play/" (p.game.id) "/chat" } data-action="chat" {
                        input type="hidden" name="csrf" value=(p.csrf.as_deref().unwrap_or(""));
                        @if let Some(problem) = &problem { p.error role="alert" { (problem) } }
                        label for="chat-text" { (t(l, "chat_say")) }
                        " "
                        input id="chat-text" name="text" maxlength="500" required;
                        " "
                        button type="submit" { (t(l, "chat_send")) }
                    }
                }
            }
        }
    }
}

/// `POST /play/{game}/chat`: a player's chat message from the page.
pub async fn chat(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<Uuid>,
    query: Result<Query, actix_web::Error>,
    body: Result<Form, actix_web::Error>,
) -> HttpResponse {
    let game = GameId(path.into_inner());
    let viewer = session::live(&state, session::viewer(&state, &req, game)).await;
    let (user, fields) = match posted(&state, &req, &viewer, query, body) {
        Ok(x) => x,
        Err(Refused(notes, status)) => {
            return render(&state, &req, game, viewer, *notes, status).await;
        }
    };
    let text = fields.get("text").to_owned();
    let limit = state.settings.auth.chat_per_minute;
    let said = crate::db::run(&state.pool, move |conn| {
        crate::services::chat::post(conn, user, game, &text, limit)
    })
    .await
    .map_err(ApiError::from);
    match said {
        Ok(_) => see_other(&format!("/play/{game}#chat-title")),
        Err(e) => {
            let status = actix_web::ResponseError::status_code(&e);
            // Said in the reader's language where the page knows the reason; the service's
            // sentences are English.
            let detail = match &e {
                ApiError::RateLimited { retry_after_s } => Notice::Limited(*retry_after_s),
                ApiError::Validation(_) => Notice::Unfit(unfit(
                    "chat_say",
                    Accepts::Counted("accepts_one_line", crate::services::chat::MAX_CHARS),
                )),
                _ => unmapped(&e),
            };
            let Refused(mut notes, _) = Refused::at_form("chat", &fields, None, detail);
            // Over CHAT_PER_MINUTE: the reason next to the form, and the wait in `Retry-After`.
            notes.retry_after_s = e.retry_after_s();
            render(&state, &req, game, viewer, *notes, status).await
        }
    }
}

/// The creator (seat 0) may cancel a game nobody has started playing; a signed-in visitor
/// without a seat (an invitee from their mail's link, or anyone at an open table) may accept or
/// decline.
fn cancel_form(p: &GamePage) -> maud::Markup {
    let creator = p.game.you.as_ref().is_some_and(|y| y.seat == 0);
    let waiting = p.game.status == games::GameStatus::Waiting;
    let csrf = p.csrf.as_deref().unwrap_or("");
    html! {
        @if waiting && p.game.you.is_none() && p.csrf.is_some() {
            form.action method="post" action={ "/play/" (p.game.id) "/accept" } data-action="accept" {
                input type="hidden" name="csrf" value=(csrf);
                button type="submit" { (t(p.locale, "accept")) }
            }
            form.action method="post" action={ "/play/" (p.game.id) "/decline" } data-action="decline" {
                input type="hidden" name="csrf" value=(csrf);
                button type="submit" { (t(p.locale, "decline")) }
            }
        }
        @if creator && waiting {
            form.action method="post" action={ "/games/" (p.game.id) "/cancel" } data-action="cancel" {
                input type="hidden" name="csrf" value=(p.csrf.as_deref().unwrap_or(""));
                button type="submit" { (t(p.locale, "cancel_game")) }
            }
        }
    }
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
    // The API's words are English (and a not-found one may repeat the address): the page's
    // reader is told in their language.
    let text = match e {
        _ if status.is_server_error() => {
            e.log_failure();
            String::new()
        }
        ApiError::RateLimited { retry_after_s }
        | ApiError::AccountRateLimited { retry_after_s, .. } => limited(l, *retry_after_s),
        ApiError::NotFound(_) => t(l, "address_not_found").to_owned(),
        _ => unmapped(e).say(l),
    };
    with_retry_after(message(chrome, status, title, &text), e.retry_after_s())
}

/// A service's refusal that its page does not say in words of its own, said by its status (its
/// sentence is English, and may repeat what was sent or name an account by its id). Logged at
/// warn by its code, so that the page that let it through can be given its words.
pub(super) fn unmapped(e: &ApiError) -> Notice {
    let status = e.status_code();
    if status == StatusCode::NOT_FOUND {
        return Notice::Key("address_not_found");
    }
    // A failure (the database not answering) is not a refusal: nothing the reader sent is at
    // fault, and no page is missing words for it.
    if status.is_server_error() {
        e.log_failure();
        return Notice::Key("error");
    }
    tracing::warn!(
        status = status.as_u16(),
        code = e.code().as_str(),
        "a service's refusal reached a page that has no words for it"
    );
    match status {
        StatusCode::CONFLICT => Notice::Key("refused_conflict"),
        StatusCode::UNPROCESSABLE_ENTITY => Notice::Key("form_not_taken"),
        StatusCode::FORBIDDEN => Notice::Key("refused_forbidden"),
        StatusCode::UNAUTHORIZED => Notice::Key("refused_unauthenticated"),
        _ => Notice::Key("refused_request"),
    }
}

/// A rate limit's sentence in `l`, with its wait.
pub(super) fn limited(l: Locale, retry_after_s: u64) -> String {
    t(l, "rate_limited").replace("{s}", &retry_after_s.to_string())
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
    query: Result<Query, actix_web::Error>,
    body: Result<Form, actix_web::Error>,
) -> HttpResponse {
    let (game, form) = path.into_inner();
    let game = GameId(game);
    let viewer = session::live(&state, session::viewer(&state, &req, game)).await;
    let stored = match posted(&state, &req, &viewer, query, body) {
        Ok((user, fields)) => store(&state, user, game, &form, &fields).await,
        Err(refused) => Err(refused),
    };
    match stored {
        Ok(()) => {
            tracing::info!(game.id = %game, action = form, "form action stored");
            see_other(&format!("/play/{game}"))
        }
        Err(Refused(notes, status)) => render(&state, &req, game, viewer, *notes, status).await,
    }
}

/// Why a form was not played: what the page says, and its status (boxed: the notes keep the
/// player's entries).
struct Refused(Box<PageNotes>, StatusCode);

impl Refused {
    fn notice(notice: Notice, status: StatusCode) -> Refused {
        let notes = PageNotes {
            problem: None,
            notice: Some(notice),
            retry_after_s: None,
        };
        Refused(Box::new(notes), status)
    }

    /// Refused by a rate limit: its sentence above the game, its status and its wait.
    fn limited(e: &ApiError) -> Refused {
        let wait = e.retry_after_s().unwrap_or_default();
        let mut refused = Refused::notice(Notice::Limited(wait), e.status_code());
        refused.0.retry_after_s = e.retry_after_s();
        refused
    }

    /// Refused by the rules or the form's own checks: the reason next to the form.
    fn at_form(form: &str, fields: &Posted, rule: Option<String>, detail: Notice) -> Refused {
        let problem = FormProblem {
            action: form.to_owned(),
            rule,
            detail,
            fields: fields.entered(),
        };
        let notes = PageNotes {
            problem: Some(problem),
            notice: None,
            retry_after_s: None,
        };
        Refused(Box::new(notes), StatusCode::UNPROCESSABLE_ENTITY)
    }
}

/// The poster and the form's fields, once they are signed in (401), the body and the address
/// read (4xx; 400 for a field given twice) and the page's token matches their session (403).
fn posted(
    state: &AppState,
    req: &HttpRequest,
    viewer: &Viewer,
    query: Result<Query, actix_web::Error>,
    body: Result<Form, actix_web::Error>,
) -> Result<(UserId, Posted), Refused> {
    let Viewer::User { user, session, .. } = viewer else {
        return Err(Refused(Box::default(), StatusCode::UNAUTHORIZED));
    };
    // A form post counts against the account's limit like an API call (the game page, shown
    // again, says how long to wait).
    if let Err(e) = crate::auth::within_limit(state, *user) {
        return Err(Refused::limited(&e));
    }
    let query = query.map_err(|e| unread(&e))?.into_inner();
    // No body at all (a one-click form, its choice in the address) is no fields; a body that
    // cannot be read as a form (too large, another media type) is refused, never taken for none.
    let body = match body {
        Ok(form) => form.into_inner(),
        Err(_) if bodiless(req) => Fields::default(),
        Err(e) => return Err(unread(&e)),
    };
    let fields = Posted { body, query };
    if !session::csrf_ok(state, session, fields.get("csrf")) {
        return Err(Refused::notice(Notice::Key("csrf"), StatusCode::FORBIDDEN));
    }
    Ok((*user, fields))
}

/// A form that could not be read, said above the game in the page's language: a field given
/// twice, naming it, or why the body is not a form (by its status, as every page says it:
/// actix's own words are English and may quote the body).
fn unread(e: &actix_web::Error) -> Refused {
    let status = Some(e.as_response_error().status_code())
        .filter(StatusCode::is_client_error)
        .unwrap_or(StatusCode::BAD_REQUEST);
    let notice = match e.as_error::<Repeated>() {
        Some(repeated) => Notice::Repeated(repeated.clone()),
        None => Notice::Key(match status {
            StatusCode::UNSUPPORTED_MEDIA_TYPE => "form_media_type",
            StatusCode::PAYLOAD_TOO_LARGE => "form_too_large",
            StatusCode::REQUEST_TIMEOUT => "form_timed_out",
            _ => "form_unreadable",
        }),
    };
    Refused::notice(notice, status)
}

/// Reads the form as the game's action and submits it through the API's path.
async fn store(
    state: &AppState,
    user: UserId,
    game: GameId,
    form: &str,
    fields: &Posted,
) -> Result<(), Refused> {
    let Ok(version) = fields.get("v").parse::<i64>() else {
        let status = StatusCode::UNPROCESSABLE_ENTITY;
        return Err(Refused::notice(Notice::Key("csrf"), status));
    };
    let (form_name, read) = (form.to_owned(), fields.clone());
    // The same histogram as the API's submissions: a move is a move, from either door.
    let _timer = state.metrics.action_submit.start_timer();
    let kept = state.seen.clone();
    crate::db::run(&state.pool, move |conn| {
        // The form reads by the game's kind, on the connection that then submits it; a form it
        // cannot read is refused next to it, in the page's words.
        let kind = games::kind_name(conn, game)?;
        let action = match super::games::action(&kind, &form_name, &read) {
            Ok(action) => action,
            Err(unread) => return Ok(Err(unread)),
        };
        let submission = Submission {
            expected_version: version,
            actions: vec![action],
            // A form read before others acted is still about this seat's decision.
            same_decision: true,
        };
        games::submit(
            conn,
            Some(&kept),
            user,
            game,
            &submission,
            None,
            Mode::Store,
        )
        .map(|_| Ok(()))
    })
    .await
    .map_err(|e| refusal(ApiError::from(e), form, fields))?
    .map_err(|unread| Refused::at_form(form, fields, None, unread))
}

/// How the page answers a refused submission.
fn refusal(e: ApiError, form: &str, fields: &Posted) -> Refused {
    match e {
        // The engine's sentences, in rulebook language (English, with the rule's ID).
        ApiError::IllegalAction { rule, detail, .. } => {
            Refused::at_form(form, fields, Some(rule), Notice::Text(detail))
        }
        // The form offers only listed choices, so a move the game cannot read was not one of
        // them; the engine's sentence would repeat what was posted ("“ZZZ” is not a card code").
        ApiError::InvalidAction { .. } | ApiError::Validation(_) => {
            Refused::at_form(form, fields, None, Notice::Key("choose_listed"))
        }
        ApiError::StaleVersion { .. } => {
            Refused::notice(Notice::Key("stale"), StatusCode::CONFLICT)
        }
        ApiError::NotYourTurn { .. } => {
            Refused::notice(Notice::Key("not_your_turn"), StatusCode::CONFLICT)
        }
        ApiError::GameOver { .. } => {
            Refused::notice(Notice::Key("game_over"), StatusCode::CONFLICT)
        }
        // Another refusal of the games service (a seat the reader does not have, a game not
        // started; its sentences are English), or a failure.
        e => Refused::notice(unmapped(&e), e.status_code()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::body::MessageBody;

    fn said(l: Locale, e: &ApiError) -> (StatusCode, String) {
        let res = error_page(&Chrome::anonymous(l), e);
        let status = res.status();
        let body = res.into_body().try_into_bytes().unwrap_or_default();
        (status, String::from_utf8_lossy(&body).into_owned())
    }

    #[test]
    fn a_refusal_without_words_of_its_own_is_said_by_its_status_never_in_english() {
        let english = "account 7 is already withdrawn from this competition";
        let cases = [
            (
                ApiError::Conflict(english.to_owned()),
                "Esto no se puede hacer en el estado actual de la partida o de la competición.",
            ),
            (
                ApiError::Validation(english.to_owned()),
                "No se aceptó el formulario tal como está.",
            ),
            (
                ApiError::Forbidden(english.to_owned()),
                "No puedes hacer esto aquí.",
            ),
            (
                ApiError::Unauthenticated(english.to_owned()),
                "Entra para hacer esto.",
            ),
            (
                ApiError::MalformedRequest(english.to_owned()),
                "No se aceptó esta petición tal como está.",
            ),
        ];
        for (e, sentence) in cases {
            let (status, page) = said(Locale::Es, &e);
            assert_eq!(status, e.status_code());
            assert!(page.contains(sentence), "{sentence}: {page}");
            assert!(!page.contains("withdrawn"), "{page}");
        }
        // Kept as they were: a not-found and a rate limit.
        let (status, page) = said(
            Locale::Es,
            &ApiError::NotFound("there is no game".to_owned()),
        );
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert!(page.contains(t(Locale::Es, "address_not_found")), "{page}");
        let limited_page = said(Locale::Es, &ApiError::RateLimited { retry_after_s: 7 }).1;
        assert!(
            limited_page.contains(&limited(Locale::Es, 7)),
            "{limited_page}"
        );
    }

    #[test]
    fn a_failure_reaching_a_form_is_said_as_a_failure_never_as_a_refused_request() {
        // The chat's form, when the database does not answer: the reader sent nothing wrong.
        let down = ApiError::Unavailable("the database is not answering".to_owned());
        let said = unmapped(&down).say(Locale::Es);
        assert_eq!(said, t(Locale::Es, "error"));
        assert!(!said.contains("tal como está"), "{said}");
    }
}
