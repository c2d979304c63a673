//! The account pages: sign in by email link, my games ("your move" first), create a game, accept
//! an invitation, notification preferences.

use super::extract::{Accepts, Fields, Form, PageError, Params, SignedIn, Unfit, db, unfit};
use super::i18n::{request_locale, t};
use super::layout::{Chrome, message, page, respond, see_other, with_retry_after};
use super::play::{chrome_of, error_page, link_error};
use super::session;
use crate::domain::{DisplayName, EmailAddress, GameId, Locale, UserId};
use crate::error::ApiError;
use crate::services::clocks::local_time;
use crate::services::games::invitations::InvitationState;
use crate::services::games::refusal::{Asked, Refusal};
use crate::services::games::{self, GameStatus, GameSummary, ListFilter};
use crate::services::notifications::{self, Mode};
use crate::services::paging::Page;
use crate::services::vacation;
use crate::state::AppState;
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use maud::{Markup, html};
use serde::Deserialize;
use uuid::Uuid;

/// The sign-in form, optionally returning to `next`.
pub fn sign_in_box(l: Locale, next: &str, button: &str) -> Markup {
    html! {
        form.action method="post" action="/sign-in" data-action="sign-in" {
            input type="hidden" name="next" value=(next);
            label for="sign-in-email" { (t(l, "email")) }
            br;
            input id="sign-in-email" type="email" name="email" autocomplete="email" required;
            " "
            button type="submit" { (button) }
        }
    }
}

/// A page's account: the signed-in user, their cookie, and the page shell.
pub(super) async fn signed_in(
    state: &AppState,
    req: &HttpRequest,
) -> Option<(UserId, String, Chrome)> {
    let (user, cookie) = session::account(state, req)?;
    live_session(state, user, cookie).await
}

/// `user`'s account session `cookie`, when it has not ended, with its page shell.
pub(super) async fn live_session(
    state: &AppState,
    user: UserId,
    cookie: String,
) -> Option<(UserId, String, Chrome)> {
    let st = state.clone();
    let token = cookie.clone();
    let mut chrome = crate::db::run(&state.pool, move |conn| {
        // A signed cookie is not enough: its session must not have ended (signed out).
        if !session::is_live(conn, &st, &token)? {
            return Ok::<_, ApiError>(None);
        }
        Ok(Some(chrome_of(conn, Some(user), true, Locale::En)))
    })
    .await
    .ok()??;
    chrome.account.as_ref()?;
    chrome.sign_out_csrf = Some(session::csrf_token(state, &cookie));
    Some((user, cookie, chrome))
}

pub(super) fn sign_in_page(req: &HttpRequest, status: StatusCode, next: &str) -> HttpResponse {
    let l = request_locale(req);
    let chrome = Chrome::anonymous(l);
    respond(
        status,
        page(
            &chrome,
            t(l, "sign_in"),
            html! {
                h1 { (t(l, "sign_in")) }
                (sign_in_box(l, next, t(l, "send_link")))
                p { a href="/sign-up" data-action="sign-up" { (t(l, "new_here")) } }
            },
        ),
    )
}

/// `GET /`: my games when signed in, the sign-in form otherwise.
pub async fn home(state: web::Data<AppState>, req: HttpRequest) -> HttpResponse {
    match session::account(&state, &req) {
        Some(_) => see_other("/games"),
        None => see_other("/sign-in"),
    }
}

/// `GET /sign-in`.
pub async fn sign_in_form(req: HttpRequest, query: Params<NextQuery>) -> HttpResponse {
    // A page that asks for signing in links here with where to come back (`?next=/play/...`);
    // only an address on this site is kept.
    sign_in_page(&req, StatusCode::OK, &safe_next(query.next.as_deref()))
}

/// `POST /sign-in`: asks for a sign-in link by email. The answer never says whether the address
/// has an account.
pub async fn request_sign_in(
    state: web::Data<AppState>,
    req: HttpRequest,
    form: Form,
) -> HttpResponse {
    let l = request_locale(&req);
    let chrome = Chrome::anonymous(l);
    let Ok(email) = EmailAddress::parse(form.get("email").unwrap_or("")) else {
        return not_an_address(&chrome, form.get("next").unwrap_or(""));
    };
    if let Some(limited) = link_limit(&state, &req, &chrome, email.as_str()) {
        return limited;
    }
    // The same service as POST /api/v1/auth/email-link: the link row and its mail job in one
    // transaction, and the same answer whether or not the address has an account.
    let address = email.as_str().to_owned();
    let asked = crate::db::run(&state.pool, move |conn| {
        crate::services::notifications::request_sign_in_link(conn, &address)
    })
    .await;
    match asked {
        Ok(()) => message(&chrome, StatusCode::OK, t(l, "sign_in"), t(l, "link_sent")),
        Err(e) => error_page(&chrome, &ApiError::from(e)),
    }
}

/// 422: the sign-in form again, saying the address is not one.
fn not_an_address(chrome: &Chrome, next: &str) -> HttpResponse {
    let l = chrome.locale;
    let body = html! {
        h1 { (t(l, "sign_in")) }
        p.problem role="alert" { (t(l, "invalid_form")) ": " (t(l, "email")) }
        (sign_in_box(l, next, t(l, "send_link")))
    };
    respond(
        StatusCode::UNPROCESSABLE_ENTITY,
        page(chrome, t(l, "sign_in"), body),
    )
}

#[derive(Debug, Deserialize)]
pub struct NextQuery {
    next: Option<String>,
}

/// Where a sign-in may send the browser: a path on this site only — one `/`, then neither `/`
/// nor `\`, and no whitespace or control character anywhere (the query is already
/// percent-decoded); anything else goes to `/`. Without `next`, `/games`.
fn safe_next(next: Option<&str>) -> String {
    let Some(n) = next else {
        return "/games".to_owned();
    };
    let same_origin = n.starts_with('/')
        && !n[1..].starts_with(['/', '\\'])
        && !n.contains('\\')
        && !n.chars().any(|c| c.is_control() || c.is_whitespace());
    if same_origin {
        n.to_owned()
    } else {
        "/".to_owned()
    }
}

/// What a sign-in link may do, read without spending it.
enum LinkState {
    /// Forged or mangled: 403.
    Invalid,
    /// Spent or expired: 410, with a button for a fresh one.
    Spent,
    Usable,
}

/// Reads a sign-in link: its signature, then whether its row is still unused (without using it).
async fn link_state(state: &AppState, token: &str) -> Result<LinkState, ApiError> {
    let (user, link) = match state.links.verify_sign_in(token) {
        Ok(x) => x,
        Err(crate::auth::links::LinkError::Expired) => return Ok(LinkState::Spent),
        Err(_) => return Ok(LinkState::Invalid),
    };
    let usable = crate::db::run(&state.pool, move |conn| {
        session::sign_in_link_usable(conn, user, link).map_err(ApiError::from)
    })
    .await?;
    Ok(if usable {
        LinkState::Usable
    } else {
        LinkState::Spent
    })
}

/// The answer to a link that cannot sign in: 403 for a forged one (with the sign-in form), 410
/// for a spent or expired one, whose one button mails a fresh link to the link's own account.
fn link_refused(l: Locale, token: &str, spent: bool) -> HttpResponse {
    let chrome = Chrome::anonymous(l);
    if !spent {
        let body = html! {
            h1 { (t(l, "link_refused")) }
            p.problem { (t(l, "link_invalid")) }
            (sign_in_box(l, "/games", t(l, "fresh_link")))
        };
        return respond(
            StatusCode::FORBIDDEN,
            page(&chrome, t(l, "link_refused"), body),
        );
    }
    let body = html! {
        h1 { (t(l, "link_refused")) }
        p.problem { (t(l, "link_spent")) }
        form.action method="post" action={ "/sign-in/" (token) "/fresh" } data-action="fresh-link" {
            button type="submit" { (t(l, "fresh_link")) }
        }
    };
    respond(StatusCode::GONE, page(&chrome, t(l, "link_refused"), body))
}

/// A `next` with control characters is a forged link: refused before anything else.
fn forged_next(l: Locale, query: &NextQuery) -> Option<HttpResponse> {
    let next = query.next.as_deref()?;
    next.chars().any(char::is_control).then(|| {
        let body = html! {
            h1 { (t(l, "link_refused")) }
            p.problem { (t(l, "link_invalid")) }
        };
        respond(
            StatusCode::BAD_REQUEST,
            page(&Chrome::anonymous(l), t(l, "link_refused"), body),
        )
    })
}

/// `GET /sign-in/{token}`: a page whose one button signs in. The GET spends nothing, so a mail
/// scanner that opens links ahead of the player leaves the link working.
pub async fn sign_in_landing(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<String>,
    query: Params<NextQuery>,
) -> HttpResponse {
    let l = request_locale(&req);
    if let Some(refused) = forged_next(l, &query) {
        return refused;
    }
    match link_state(&state, &path).await {
        Ok(LinkState::Usable) => {}
        Ok(LinkState::Invalid) => return link_refused(l, &path, false),
        Ok(LinkState::Spent) => return link_refused(l, &path, true),
        Err(e) => return error_page(&Chrome::anonymous(l), &e),
    }
    // The form posts to this very address (its `next` included).
    let here = req.uri().to_string();
    let body = html! {
        h1 { (t(l, "sign_in")) }
        form.action method="post" action=(here) data-action="sign-in" {
            button type="submit" { (t(l, "sign_in_now")) }
        }
    };
    let mut res = respond(
        StatusCode::OK,
        page(&Chrome::anonymous(l), t(l, "sign_in"), body),
    );
    let _ = res.add_cookie(&session::link_cookie(&state, &path));
    res
}

/// 403 for a link's button pressed from a browser that did not open the link: the page says to
/// open the link again (its GET sets what the button needs).
fn not_opened_here(l: Locale, here: &str) -> HttpResponse {
    let body = html! {
        h1 { (t(l, "sign_in")) }
        p.problem { (t(l, "link_open_first")) }
        p { a href=(here) { (t(l, "link_open_again")) } }
    };
    respond(
        StatusCode::FORBIDDEN,
        page(&Chrome::anonymous(l), t(l, "sign_in"), body),
    )
}

/// `POST /sign-in/{token}`: spends the single-use link and signs in (the account cookie).
pub async fn sign_in_by_link(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<String>,
    query: Params<NextQuery>,
) -> HttpResponse {
    let l = request_locale(&req);
    if let Some(refused) = forged_next(l, &query) {
        return refused;
    }
    let (user, link) = match state.links.verify_sign_in(&path) {
        Ok(x) => x,
        Err(e) => return link_refused(l, &path, e == crate::auth::links::LinkError::Expired),
    };
    if !session::link_opened_here(&state, &req, &path) {
        return not_opened_here(l, &req.uri().to_string());
    }
    let used = crate::db::run(&state.pool, move |conn| {
        session::sign_in_by_link(conn, user, link).map_err(ApiError::from)
    });
    match used.await {
        Ok(Some(sid)) => {
            tracing::info!(user.id = %user, "signed in by email link");
            let mut res = see_other(&safe_next(query.next.as_deref()));
            let _ = res.add_cookie(&session::user_cookie(&state, user, sid));
            res
        }
        Ok(None) => link_refused(l, &path, true),
        Err(e) => error_page(&Chrome::anonymous(l), &ApiError::from(e)),
    }
}

/// `POST /sign-in/{token}/fresh`: a spent or expired link asks for a fresh one, mailed to the
/// link's own account (limited like every request for a link).
pub async fn fresh_sign_in_link(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<String>,
) -> HttpResponse {
    let l = request_locale(&req);
    let chrome = Chrome::anonymous(l);
    let Some((user, _)) = state.links.sign_in_owner(&path) else {
        return link_refused(l, &path, false);
    };
    let found = crate::db::run(&state.pool, move |conn| {
        crate::services::accounts::get(conn, user).map(|a| a.email)
    })
    .await;
    let email = match found {
        Ok(email) => email,
        Err(e) => return error_page(&chrome, &ApiError::from(e)),
    };
    if let Some(limited) = link_limit(&state, &req, &chrome, &email) {
        return limited;
    }
    let asked = crate::db::run(&state.pool, move |conn| {
        crate::services::notifications::request_sign_in_link(conn, &email)
    })
    .await;
    match asked {
        Ok(()) => message(&chrome, StatusCode::OK, t(l, "sign_in"), t(l, "link_sent")),
        Err(e) => error_page(&chrome, &ApiError::from(e)),
    }
}

/// The per-address and per-client limit on mailed links; `Some` answer when it is reached.
pub(super) fn link_limit(
    state: &AppState,
    req: &HttpRequest,
    chrome: &Chrome,
    email: &str,
) -> Option<HttpResponse> {
    let client = crate::auth::rate_limit::client_ip(req, &state.settings.http.trusted_proxies);
    let keys = [
        format!("email-link:email:{email}"),
        format!("email-link:client:{client}"),
    ];
    let retry = state.limiter.check(&[&keys[0], &keys[1]]).err()?;
    let e = ApiError::RateLimited {
        retry_after_s: retry,
    };
    let page = message(
        chrome,
        actix_web::ResponseError::status_code(&e),
        t(chrome.locale, "sign_in"),
        &super::play::limited(chrome.locale, retry),
    );
    Some(with_retry_after(page, e.retry_after_s()))
}

/// A 403 page: a refused CSRF token or a link that is not the reader's.
fn forbidden(chrome: &Chrome, title: &str, text: &str) -> HttpResponse {
    message(chrome, StatusCode::FORBIDDEN, title, text)
}

/// `POST /sign-out` with the page's CSRF token: ends this session on the server (or, with
/// `everywhere`, every session of the account), so a copy of the cookie no longer works.
/// Without the token: 403, and the session goes on.
pub async fn sign_out(state: web::Data<AppState>, req: HttpRequest, form: Form) -> HttpResponse {
    let l = request_locale(&req);
    let Some((_, cookie)) = session::account(&state, &req) else {
        return see_other("/sign-in");
    };
    if !session::csrf_ok(&state, &cookie, form.get("csrf").unwrap_or("")) {
        return forbidden(&Chrome::anonymous(l), t(l, "sign_out"), t(l, "csrf"));
    }
    let everywhere = form.get("everywhere") == Some("on");
    let st = state.clone();
    let ended = crate::db::run(&state.pool, move |conn| {
        session::end(conn, &st, &cookie, everywhere).map_err(ApiError::from)
    })
    .await;
    if let Err(e) = ended {
        return error_page(&Chrome::anonymous(l), &ApiError::from(e));
    }
    let mut res = see_other("/sign-in");
    let _ = res.add_cookie(&session::user_cookie_removal(&state));
    res
}

fn status_text(l: Locale, s: GameStatus) -> &'static str {
    t(
        l,
        match s {
            GameStatus::Waiting => "status_waiting",
            GameStatus::Active => "status_active",
            GameStatus::Finished => "status_finished",
            GameStatus::Aborted => "status_aborted",
        },
    )
}

/// The caller's deadline in a summary, if the game waits for them under a clock.
fn my_deadline(g: &GameSummary) -> Option<chrono::DateTime<chrono::Utc>> {
    let you = g.you.as_ref()?;
    g.seats.get(usize::from(you.seat))?.deadline
}

fn game_row(chrome: &Chrome, g: &GameSummary, csrf: &str) -> Markup {
    let l = chrome.locale;
    let names: Vec<String> = g
        .seats
        .iter()
        .map(|s| {
            s.player
                .as_ref()
                .map_or("…".to_owned(), |p| p.display_name.clone())
        })
        .collect();
    html! {
        li.card {
            @if g.my_turn { strong { (t(l, "your_move")) } " · " }
            a href={ "/play/" (g.id) } { (g.kind) ": " (names.join(" – ")) }
            " · " (status_text(l, g.status))
            @if let Some(at) = my_deadline(g).filter(|_| g.my_turn) {
                " · " (super::clock::deadline(chrome, at))
            }
            @if g.invited {
                " "
                form.quick method="post" action={ "/invitations/" (g.id) } data-action="accept" {
                    input type="hidden" name="csrf" value=(csrf);
                    button type="submit" { (t(l, "accept")) }
                }
            }
        }
    }
}

/// `GET /games`: the signed-in account's games, those waiting for them first.
pub async fn my_games(state: web::Data<AppState>, me: SignedIn) -> Result<HttpResponse, PageError> {
    let (user, l) = (me.user, me.chrome.locale);
    let mut list = db(&state, &me.chrome, move |conn| {
        let whole = Page {
            limit: games::WHOLE_LIST,
            offset: 0,
        };
        games::list(conn, user, ListFilter::default(), whole).map(|p| p.rows)
    })
    .await?;
    // Those waiting for the caller first, the nearest deadline first; then invitations; the
    // newest change first within each group (the sort is stable).
    list.sort_by_key(|g| {
        let due = my_deadline(g).filter(|_| g.my_turn);
        (!g.my_turn, due.is_none(), due, !g.invited)
    });
    let body = html! {
        h1 { (t(l, "my_games")) }
        p { a href="/games/new" { (t(l, "new_game")) } " · " a href="/lobby" { (t(l, "lobby")) } }
        @if list.is_empty() {
            p { (t(l, "no_games")) }
        } @else {
            ul.plain {
                @for g in &list { (game_row(&me.chrome, g, &me.csrf)) }
            }
        }
    };
    Ok(respond(
        StatusCode::OK,
        page(&me.chrome, t(l, "my_games"), body),
    ))
}

#[derive(Debug, Deserialize)]
pub struct InviteQuery {
    t: Option<String>,
}

/// `GET /invitations/{game_id}?t=...`: the accept page of an invitation whose seat still invites
/// the link's address (a withdrawn or declined one answers 403).
pub async fn invitation(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<Uuid>,
    query: Params<InviteQuery>,
) -> Result<HttpResponse, PageError> {
    let game = GameId(path.into_inner());
    let l = request_locale(&req);
    if let Some(token) = &query.t {
        link_stands(&state, l, game, token).await?;
    }
    let Some((user, cookie, chrome)) = signed_in(&state, &req).await else {
        return Ok(match &query.t {
            Some(token) => new_player_page(l, StatusCode::OK, game, token, None, "", ""),
            None => sign_in_page(
                &req,
                StatusCode::UNAUTHORIZED,
                &format!("/invitations/{game}"),
            ),
        });
    };
    if let Some(token) = &query.t {
        invite_is_for(&state, &chrome, user, game, token).await?;
    }
    // No game, no invitation to accept: 404, not a form that can only fail.
    db(&state, &chrome, move |conn| games::kind_name(conn, game)).await?;
    let csrf = session::csrf_token(&state, &cookie);
    Ok(respond(StatusCode::OK, invited_page(&chrome, game, &csrf)))
}

/// An invitation link whose invitation still stands passes; an accepted one goes to the game
/// (a 303 as the "error"); a withdrawn, declined or forged one answers 403, saying why in `l`.
async fn link_stands(
    state: &AppState,
    l: Locale,
    game: GameId,
    token: &str,
) -> Result<(), PageError> {
    let chrome = Chrome::anonymous(l);
    let refused =
        |reason: &str| PageError::from_response(forbidden(&chrome, t(l, "link_refused"), reason));
    let (seat, digest) = state
        .links
        .invite_seat(token, game)
        .map_err(|e| refused(link_error(l, e)))?;
    let standing = db(state, &chrome, move |conn| {
        games::invitations::invitation_state(conn, game, seat, &digest).map_err(ApiError::from)
    })
    .await?;
    match standing {
        InvitationState::Stands => Ok(()),
        InvitationState::Taken => Err(PageError::from_response(see_other(&format!(
            "/play/{game}"
        )))),
        // Said as the accept button would say it: declined, withdrawn, cancelled, started.
        InvitationState::Gone(why) => Err(refused(
            seat_refused(&why, l).map_or(t(l, "link_withdrawn"), |(_, said)| said),
        )),
    }
}

/// Whether the signed-in `user` is the address an invitation link was sent to; else 403 saying
/// why in `chrome`.
async fn invite_is_for(
    state: &AppState,
    chrome: &Chrome,
    user: UserId,
    game: GameId,
    token: &str,
) -> Result<(), PageError> {
    let (token, links) = (token.to_owned(), state.links.clone());
    let checked = db(state, chrome, move |conn| {
        let account = crate::services::accounts::get(conn, user)?;
        Ok(links.verify_invite(&token, game, &account.email))
    })
    .await?;
    checked.map(|_seat| ()).map_err(|e| {
        let l = chrome.locale;
        PageError::from_response(forbidden(chrome, t(l, "link_refused"), link_error(l, e)))
    })
}

/// The accept and decline forms of a signed-in invitee.
fn invited_page(chrome: &Chrome, game: GameId, csrf: &str) -> Markup {
    let l = chrome.locale;
    page(
        chrome,
        t(l, "invited"),
        html! {
            h1 { (t(l, "invited")) }
            form.action method="post" action={ "/invitations/" (game) } data-action="accept" {
                input type="hidden" name="csrf" value=(csrf);
                button type="submit" { (t(l, "accept")) }
            }
            form.action method="post" action={ "/invitations/" (game) "/decline" } data-action="decline" {
                input type="hidden" name="csrf" value=(csrf);
                button type="submit" { (t(l, "decline")) }
            }
        },
    )
}

/// The invitation page for a visitor without a session: sign in, or join as a new player with
/// the invited address (the link's token proves it).
fn new_player_page(
    l: Locale,
    status: StatusCode,
    game: GameId,
    token: &str,
    problem: Option<&str>,
    name: &str,
    email: &str,
) -> HttpResponse {
    let chrome = Chrome::anonymous(l);
    respond(
        status,
        page(
            &chrome,
            t(l, "invited"),
            html! {
                h1 { (t(l, "invited")) }
                @if let Some(p) = problem { p.problem role="alert" id="problem-join" { (p) } }
                h2 { (t(l, "new_player")) }
                form.action method="post" action={ "/invitations/" (game) "/new" } data-action="join" {
                    input type="hidden" name="t" value=(token);
                    p {
                        label for="join-name" { (t(l, "your_name")) }
                        br;
                        input id="join-name" type="text" name="name" required maxlength="64"
                            autocomplete="nickname" value=(name);
                    }
                    p {
                        label for="join-email" { (t(l, "invited_address")) }
                        br;
                        input id="join-email" type="email" name="email" required autocomplete="email"
                            value=(email) aria-describedby=[problem.map(|_| "problem-join")];
                    }
                    button type="submit" { (t(l, "accept")) }
                }
                h2 { (t(l, "have_account")) }
                (sign_in_box(l, &format!("/invitations/{game}?t={token}"), t(l, "send_link")))
            },
        ),
    )
}

/// `POST /invitations/{game_id}/new`: a new account for the invited address, seated in the game
/// and signed in. The invitation token stands in for a CSRF token: only the invitee has it.
pub async fn join_as_new_player(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<Uuid>,
    form: Form,
) -> HttpResponse {
    let game = GameId(path.into_inner());
    let field = |k: &str| form.get(k).map_or("", str::trim).to_owned();
    let (token, name, email) = (field("t"), field("name"), field("email"));
    let l = request_locale(&req);
    let refuse = |status: StatusCode, text: &str| {
        new_player_page(l, status, game, &token, Some(text), &name, &email)
    };
    let (Ok(address), Ok(display)) = (EmailAddress::parse(&email), DisplayName::parse(&name))
    else {
        return refuse(StatusCode::UNPROCESSABLE_ENTITY, t(l, "invalid_form"));
    };
    if let Err(e) = state.links.verify_invite(&token, game, address.as_str()) {
        return refuse(StatusCode::FORBIDDEN, link_error(l, e));
    }
    match register_and_join(&state, address, display, l, game).await {
        Ok(Ok((user, sid))) => {
            let mut res = see_other(&format!("/play/{game}"));
            let _ = res.add_cookie(&session::user_cookie(&state, user, sid));
            res
        }
        Ok(Err(NotJoined::AddressTaken)) => refuse(StatusCode::CONFLICT, t(l, "address_taken")),
        Ok(Err(NotJoined::Seat(refusal))) => match seat_refused(&refusal, l) {
            Some((status, said)) => refuse(status, said),
            None => error_page(&Chrome::anonymous(l), &refusal.into()),
        },
        Err(e) => error_page(&Chrome::anonymous(l), &e),
    }
}

/// Why a new player did not join: their address has an account already, or the game refused the
/// seat.
enum NotJoined {
    AddressTaken,
    Seat(Refusal),
}

/// A new account for `address`, seated in `game` and with a session, in one transaction. No
/// password: the account signs in by mailed links (a password can be set later by API).
async fn register_and_join(
    state: &AppState,
    address: EmailAddress,
    display: DisplayName,
    l: Locale,
    game: GameId,
) -> Result<Result<(UserId, Uuid), NotJoined>, ApiError> {
    crate::db::run(&state.pool, move |conn| {
        use diesel::Connection;
        // Which step refused: the address's registration, or the seat (the account rolls back).
        let (mut registered, mut refused) = (false, None);
        let done = conn.transaction(|conn| {
            let account = crate::services::accounts::register(conn, &address, &display, l, None)?;
            registered = true;
            if let Err(refusal) = games::try_join(conn, account.id, game, None)? {
                refused = Some(refusal.clone());
                return Err(refusal.into());
            }
            let sid = session::start(conn, account.id)?;
            Ok::<_, ApiError>((account.id, sid))
        });
        match (done, refused) {
            (Ok(done), _) => Ok(Ok(done)),
            (Err(_), Some(refusal)) => Ok(Err(NotJoined::Seat(refusal))),
            (Err(ApiError::Conflict(_)), None) if !registered => Ok(Err(NotJoined::AddressTaken)),
            (Err(e), None) => Err(e),
        }
    })
    .await
    .map_err(ApiError::from)
}

/// A form about a seat of a waiting game: what it asks of the games service.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SeatForm {
    Accept,
    Decline,
    Cancel,
}

impl SeatForm {
    /// Asks it of the games service: `Ok(Err(_))` is its refusal (nothing written).
    fn run(
        self,
        conn: &mut diesel::PgConnection,
        user: UserId,
        game: GameId,
    ) -> Result<Result<(), Refusal>, ApiError> {
        let done = match self {
            SeatForm::Accept => games::try_join(conn, user, game, None)?,
            SeatForm::Decline => games::invitations::try_decline(conn, user, game)?,
            SeatForm::Cancel => games::invitations::try_cancel(conn, user, game)?,
        };
        Ok(done.map(|_| ()))
    }

    /// The page's title: the form's button.
    fn title(self, l: Locale) -> &'static str {
        match self {
            SeatForm::Accept => t(l, "accept"),
            SeatForm::Decline => t(l, "decline"),
            SeatForm::Cancel => t(l, "cancel_game"),
        }
    }
}

/// Why the games service refused a seat's form, in `l` with the API's status (403 is who may
/// press the button, 409 what the game's state allows); `None` for the creator's refusals that
/// only the API meets (inviting, withdrawing an invitation), said by their kind.
fn seat_refused(r: &Refusal, l: Locale) -> Option<(StatusCode, &'static str)> {
    let said = match r {
        Refusal::Cancelled(_) => t(l, "game_refused_cancelled"),
        Refusal::Started(_) => t(l, "game_refused_started"),
        Refusal::Over { .. } => t(l, "game_refused_over"),
        Refusal::Seated(_) => t(l, "game_refused_seated"),
        Refusal::Declined(Asked::Join) => t(l, "game_refused_declined"),
        Refusal::Declined(_) => t(l, "game_refused_already_declined"),
        Refusal::Withdrawn(_) => t(l, "game_refused_withdrawn"),
        Refusal::NoOpenSeat => t(l, "game_refused_no_seat"),
        Refusal::NoInvitation => t(l, "game_refused_no_invitation"),
        Refusal::NotCreator(Asked::Cancel) => t(l, "game_refused_not_creator"),
        Refusal::NotCreator(_)
        | Refusal::NoPlayer(_)
        | Refusal::InvitesSelf
        | Refusal::AlreadyInvited
        | Refusal::NoEmptySeat
        | Refusal::NoSuchSeat(_)
        | Refusal::SeatTaken(_)
        | Refusal::SeatEmpty(_) => return None,
    };
    let status = actix_web::ResponseError::status_code(&ApiError::from(r.clone()));
    Some((status, said))
}

/// A signed-in form post with the page's CSRF token about a seat of a waiting game: asks it of
/// the games service, then sees `done`; without a session the sign-in page (back to `back`), with
/// a bad token 403, and a refusal said in the reader's language (their account's).
async fn game_post(
    state: &AppState,
    req: &HttpRequest,
    game: GameId,
    form: &Fields,
    (back, done): (String, String),
    asked: SeatForm,
) -> HttpResponse {
    // The game's own session (a play link from a mail) or the account's.
    let viewer = session::live(state, session::viewer(state, req, game)).await;
    let session::Viewer::User {
        user,
        session,
        seat,
    } = viewer
    else {
        return sign_in_page(req, StatusCode::UNAUTHORIZED, &back);
    };
    let fallback = request_locale(req);
    let post = SeatPost {
        user,
        game,
        asked,
        token_ok: session::csrf_ok(state, &session, form.get("csrf").unwrap_or("")),
        signed_in: seat.is_none(),
        fallback,
    };
    match crate::db::run(&state.pool, move |conn| post.refused(conn)).await {
        Ok(None) => see_other(&done),
        Ok(Some((chrome, refused))) => {
            let l = chrome.locale;
            match refused {
                SeatRefused::Token => forbidden(&chrome, asked.title(l), t(l, "csrf")),
                SeatRefused::Refused(refusal) => match seat_refused(&refusal, l) {
                    Some((status, said)) => message(&chrome, status, asked.title(l), said),
                    None => error_page(&chrome, &refusal.into()),
                },
                SeatRefused::Failed(e) => error_page(&chrome, &e),
            }
        }
        Err(e) => error_page(&Chrome::anonymous(fallback), &ApiError::from(e)),
    }
}

/// A seat's form as posted.
struct SeatPost {
    user: UserId,
    game: GameId,
    asked: SeatForm,
    /// The page's CSRF token is the session's.
    token_ok: bool,
    /// By an account's session (not a play link's).
    signed_in: bool,
    /// The browser's language, for an account that is not there.
    fallback: Locale,
}

/// Why a seat's form was not done.
enum SeatRefused {
    /// The page's token is not the session's.
    Token,
    /// The games service's refusal.
    Refused(Refusal),
    /// Not a refusal of the form (no such game, a rate limit, a failure).
    Failed(ApiError),
}

impl SeatPost {
    /// Does the form; `Some` is the reader's shell and why it was not done.
    fn refused(
        self,
        conn: &mut diesel::PgConnection,
    ) -> Result<Option<(Chrome, SeatRefused)>, ApiError> {
        // The form is done only with the session's token.
        let done = self
            .token_ok
            .then(|| self.asked.run(conn, self.user, self.game));
        let refused = match done {
            Some(Ok(Ok(()))) => return Ok(None),
            None => SeatRefused::Token,
            Some(Ok(Err(refusal))) => SeatRefused::Refused(refusal),
            Some(Err(e)) => SeatRefused::Failed(e),
        };
        let chrome = chrome_of(conn, Some(self.user), self.signed_in, self.fallback);
        Ok(Some((chrome, refused)))
    }
}

/// `POST /invitations/{game_id}`: the signed-in invitee accepts (takes the seat).
pub async fn accept_invitation(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<Uuid>,
    form: Form,
) -> HttpResponse {
    let game = GameId(path.into_inner());
    let pages = (format!("/invitations/{game}"), format!("/play/{game}"));
    game_post(&state, &req, game, &form, pages, SeatForm::Accept).await
}

/// `POST /invitations/{game_id}/decline`: the signed-in invitee declines.
pub async fn decline_invitation(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<Uuid>,
    form: Form,
) -> HttpResponse {
    let game = GameId(path.into_inner());
    let pages = (format!("/invitations/{game}"), "/games".to_owned());
    game_post(&state, &req, game, &form, pages, SeatForm::Decline).await
}

/// `POST /games/{game_id}/cancel`: the creator cancels a game that has not started.
pub async fn cancel_game(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<Uuid>,
    form: Form,
) -> HttpResponse {
    let game = GameId(path.into_inner());
    let page = format!("/play/{game}");
    game_post(
        &state,
        &req,
        game,
        &form,
        (page.clone(), page),
        SeatForm::Cancel,
    )
    .await
}

const MODES: [(Mode, &str); 3] = [
    (Mode::Instant, "mode_instant"),
    (Mode::DailyDigest, "mode_daily_digest"),
    (Mode::Off, "mode_off"),
];

/// What the settings page shows.
struct Settings {
    mode: Mode,
    reminders: Vec<i32>,
    time_zone: String,
    vacation: vacation::Vacation,
}

fn load_settings(conn: &mut diesel::PgConnection, user: UserId) -> Result<Settings, ApiError> {
    Ok(Settings {
        mode: notifications::mode(conn, user)?,
        reminders: notifications::reminders(conn, user)?,
        time_zone: crate::services::accounts::get(conn, user)?.time_zone,
        vacation: vacation::status(conn, user)?,
    })
}

/// Offsets as hours for the form ("24, 2").
fn hours(seconds: &[i32]) -> String {
    let h: Vec<String> = seconds
        .iter()
        .map(|s| {
            let hours = f64::from(*s) / 3600.0;
            format!("{hours}")
        })
        .collect();
    h.join(", ")
}

/// "24, 2, 0.5" as seconds; a refusal names the field and what it takes.
fn parse_hours(text: &str) -> Result<Vec<i64>, Unfit> {
    let refused = || {
        let accepts = Accepts::Counted("accepts_reminders", notifications::MAX_REMINDERS);
        unfit("reminders", accepts)
    };
    let hours = text
        .split(',')
        .map(str::trim)
        .filter(|x| !x.is_empty())
        .map(|x| {
            x.parse::<f64>()
                .ok()
                .filter(|h| h.is_finite() && *h > 0.0 && *h <= 720.0)
                // At least a second: a number of hours above 0 that rounds to none (0.0001) is
                // taken as the field says, not refused by the service in its words.
                .map(|h| ((h * 3600.0).round() as i64).max(1))
                .ok_or_else(refused)
        })
        .collect::<Result<Vec<_>, _>>()?;
    // Said here in the form's words (the service's refusal names the API's field).
    if hours.len() > notifications::MAX_REMINDERS {
        return Err(refused());
    }
    Ok(hours)
}

fn settings_page(
    chrome: &Chrome,
    csrf: &str,
    s: &Settings,
    saved: bool,
    problem: Option<&str>,
    entered: Option<&Fields>,
) -> Markup {
    let l = chrome.locale;
    let v = &s.vacation;
    // A refused form shows what the player typed, to mend rather than type again.
    let typed = |field: &str| entered.and_then(|f| f.get(field)).map(str::to_owned);
    let mode = typed("mode")
        .and_then(|m| MODES.iter().find(|(x, _)| x.as_str() == m).map(|(x, _)| *x))
        .unwrap_or(s.mode);
    let reminders = typed("reminders").unwrap_or_else(|| hours(&s.reminders));
    let time_zone = typed("time_zone").unwrap_or_else(|| s.time_zone.clone());
    page(
        chrome,
        t(l, "settings"),
        html! {
            h1 { (t(l, "settings")) }
            @if saved { p.notice role="status" { (t(l, "saved")) } }
            @if let Some(p) = problem { p.problem role="alert" id="problem-settings" { (p) } }
            form.action method="post" action="/settings" data-action="notifications" {
                input type="hidden" name="csrf" value=(csrf);
                fieldset {
                    legend { (t(l, "mail_about_turns")) }
                    @for (m, key) in MODES {
                        label {
                            input type="radio" name="mode" value=(m.as_str()) checked[m == mode];
                            " " (t(l, key))
                        }
                        br;
                    }
                }
                label for="reminders" { (t(l, "reminders")) }
                input id="reminders" name="reminders" value=(reminders);
                label for="time-zone" { (t(l, "time_zone")) }
                input id="time-zone" name="time_zone" value=(time_zone);
                button type="submit" { (t(l, "save")) }
            }
            h2 { (t(l, "vacation")) }
            p { (t(l, "vacation_days").replace("{n}", &v.days_available.to_string())) }
            @if let (Some(since), Some(until)) = (v.on_vacation_since, v.on_vacation_until) {
                p {
                    (t(l, "vacation_since")
                        .replace("{when}", &local_time(&s.time_zone, since))
                        .replace("{until}", &local_time(&s.time_zone, until)))
                }
            }
            form.action method="post" action="/settings/vacation" data-action="vacation" {
                input type="hidden" name="csrf" value=(csrf);
                label {
                    input type="checkbox" name="auto" value="on" checked[v.auto];
                    " " (t(l, "vacation_auto"))
                }
                br;
                @if v.on_vacation_since.is_some() {
                    button type="submit" name="do" value=(VacationChoice::End.as_str()) { (t(l, "come_back")) }
                } @else {
                    button type="submit" name="do" value=(VacationChoice::Start.as_str()) { (t(l, "go_on_vacation")) }
                }
                " "
                button type="submit" name="do" value=(VacationChoice::Auto.as_str()) { (t(l, "save")) }
            }
        },
    )
}

/// `GET /settings`: mail, reminders, time zone and vacation.
pub async fn settings(state: web::Data<AppState>, me: SignedIn) -> Result<HttpResponse, PageError> {
    let user = me.user;
    let s = db(&state, &me.chrome, move |conn| load_settings(conn, user)).await?;
    Ok(respond(
        StatusCode::OK,
        settings_page(&me.chrome, &me.csrf, &s, false, None, None),
    ))
}

/// Applies the settings form; `Err` is a refusal to show next to it, naming every field that is
/// wrong (a player who mistyped two should not find the second only after mending the first).
fn apply_settings(
    conn: &mut diesel::PgConnection,
    user: UserId,
    form: &Fields,
    l: Locale,
) -> Result<Result<(), String>, ApiError> {
    let mut problems = Vec::new();
    let chosen = form.get("mode").unwrap_or("");
    let mode = MODES
        .iter()
        .find(|(m, _)| m.as_str() == chosen)
        .map(|(m, _)| *m);
    if mode.is_none() {
        problems.push(unfit(
            "mail_about_turns",
            Accepts::Described("accepts_offered_choice"),
        ));
    }
    // A field the form did not send stays as it is.
    let reminders = match form.get("reminders").map(parse_hours).transpose() {
        Ok(r) => r,
        Err(e) => {
            problems.push(e);
            None
        }
    };
    let zone = form.get("time_zone").map(str::trim);
    if let Some(Err(_)) = zone.map(crate::services::clocks::time_zone) {
        problems.push(unfit("time_zone", Accepts::Described("accepts_time_zone")));
    }
    // Checked before anything is written: a refused form changes nothing.
    let Some(mode) = mode.filter(|_| problems.is_empty()) else {
        let said: Vec<String> = problems.iter().map(|p| p.sentence(l)).collect();
        return Ok(Err(said.join(" ")));
    };
    use diesel::Connection;
    conn.transaction(|conn| {
        let changed = reminders
            .map_or(Ok(Vec::new()), |r| {
                notifications::set_reminders(conn, user, &r)
            })
            .and_then(|_| crate::services::accounts::update(conn, user, None, zone));
        match changed {
            // The form's own checks are the service's: what still gets through is said by its
            // status, not in the service's English (which repeats the value).
            Err(e @ ApiError::Validation(_)) => return Ok(Err(super::play::unmapped(&e).say(l))),
            other => other?,
        };
        notifications::set_mode(conn, user, mode)?;
        Ok(Ok(()))
    })
}

/// `POST /settings`: mail preference, reminders and time zone; a refusal answers 422 with the
/// form and the reason, changing nothing.
pub async fn save_settings(
    state: web::Data<AppState>,
    me: SignedIn,
    form: Form,
) -> Result<HttpResponse, PageError> {
    me.check_csrf(&state, form.get("csrf"), t(me.chrome.locale, "settings"))?;
    let (user, form, l) = (me.user, form.into_inner(), me.chrome.locale);
    let entered = form.clone();
    let (outcome, s) = db(&state, &me.chrome, move |conn| {
        let outcome = apply_settings(conn, user, &form, l)?;
        Ok::<_, ApiError>((outcome, load_settings(conn, user)?))
    })
    .await?;
    Ok(match outcome {
        Ok(()) => respond(
            StatusCode::OK,
            settings_page(&me.chrome, &me.csrf, &s, true, None, None),
        ),
        Err(why) => respond(
            StatusCode::UNPROCESSABLE_ENTITY,
            settings_page(&me.chrome, &me.csrf, &s, false, Some(&why), Some(&entered)),
        ),
    })
}

/// `POST /settings/vacation`: go away (`do=start`), come back (`do=end`), or only save the
/// automatic choice (`do=auto`); the `auto` box is saved every time.
pub async fn save_vacation(
    state: web::Data<AppState>,
    me: SignedIn,
    form: Form,
) -> Result<HttpResponse, PageError> {
    me.check_csrf(&state, form.get("csrf"), t(me.chrome.locale, "settings"))?;
    let (user, l) = (me.user, me.chrome.locale);
    let auto = form.get("auto") == Some("on");
    let choice = VacationChoice::asked(form.get("do"), l);
    let (outcome, s) = db(&state, &me.chrome, move |conn| {
        let outcome = match choice {
            Ok(c) => apply_vacation(conn, user, auto, c)?.map_err(|r| vacation_refused(l, r)),
            Err(refused) => Err(refused),
        };
        Ok::<_, ApiError>((outcome, load_settings(conn, user)?))
    })
    .await?;
    // The service wakes the mail worker inside this request's transaction: again now that the
    // vacation (and the mail telling the other players) is committed.
    crate::jobs::wake();
    let (status, problem) = match &outcome {
        Ok(()) => (StatusCode::OK, None),
        Err((status, said)) => (*status, Some(said.as_str())),
    };
    let saved = outcome.is_ok();
    Ok(respond(
        status,
        settings_page(&me.chrome, &me.csrf, &s, saved, problem, None),
    ))
}

/// The vacation form's buttons (`do`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum VacationChoice {
    Start,
    End,
    /// Only the `auto` box.
    Auto,
}

impl VacationChoice {
    /// The button pressed; one the form does not offer is refused by name, in `l`, before
    /// anything is written (the `auto` box too stays as it was).
    fn asked(text: Option<&str>, l: Locale) -> Result<VacationChoice, (StatusCode, String)> {
        [Self::Start, Self::End, Self::Auto]
            .into_iter()
            .find(|c| Some(c.as_str()) == text)
            .ok_or_else(|| {
                let refused = unfit("vacation", Accepts::Described("accepts_offered_choice"));
                (StatusCode::UNPROCESSABLE_ENTITY, refused.sentence(l))
            })
    }

    /// The button's value.
    fn as_str(self) -> &'static str {
        match self {
            Self::Start => "start",
            Self::End => "end",
            Self::Auto => "auto",
        }
    }
}

/// A vacation that does not start, said in `l` with its status (the API's: 409 for what the
/// account's state forbids, 422 for what was asked).
fn vacation_refused(l: Locale, r: vacation::Refusal) -> (StatusCode, String) {
    match r {
        vacation::Refusal::AlreadyAway => {
            (StatusCode::CONFLICT, t(l, "vacation_already").to_owned())
        }
        vacation::Refusal::NoDayLeft => (
            StatusCode::CONFLICT,
            t(l, "vacation_no_day_left")
                .replace("{n}", &vacation::DAYS_PER_ACCRUED_DAY.to_string()),
        ),
        vacation::Refusal::TooManyDays { left, .. } => (
            StatusCode::UNPROCESSABLE_ENTITY,
            t(l, "vacation_too_many_days").replace("{n}", &left.to_string()),
        ),
    }
}

/// The vacation form's choice, all or nothing: a refused choice (no day left) leaves the `auto`
/// box as it was too. `Ok(Err(_))` is a refusal to show; `Err` a failure.
fn apply_vacation(
    conn: &mut diesel::PgConnection,
    user: UserId,
    auto: bool,
    choice: VacationChoice,
) -> Result<Result<(), vacation::Refusal>, ApiError> {
    use diesel::Connection;
    conn.transaction(|conn| {
        let refused = match choice {
            VacationChoice::Start => vacation::try_start(conn, user, None)?.err(),
            VacationChoice::End => vacation::end(conn, user).map(|_| None)?,
            VacationChoice::Auto => None,
        };
        // A refused start wrote nothing; the box is saved only with a choice that was taken.
        if let Some(r) = refused {
            return Ok(Err(r));
        }
        vacation::set_auto(conn, user, auto)?;
        Ok(Ok(()))
    })
}
