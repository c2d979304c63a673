//! Web sign-up (design.md section 19): `/sign-up` asks an address and mails a single-use link;
//! the link's page asks the display name; posting it makes the account and signs it in. Opening
//! the link (a GET, as mail scanners do) spends nothing.

use super::account::{link_limit, sign_in_box};
use super::extract::Form;
use super::i18n::{request_locale, t};
use super::layout::{Chrome, message, page, respond, see_other};
use super::play::error_page;
use super::session;
use crate::auth::links::LinkError;
use crate::domain::{DisplayName, EmailAddress, Locale};
use crate::error::ApiError;
use crate::services::sign_up;
use crate::state::AppState;
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use maud::html;

/// The address form, with a problem next to it when there is one.
fn address_page(l: Locale, status: StatusCode, problem: Option<&str>, email: &str) -> HttpResponse {
    let body = html! {
        h1 { (t(l, "sign_up")) }
        p { (t(l, "sign_up_intro")) }
        @if let Some(p) = problem { p.problem role="alert" id="problem-sign-up" { (p) } }
        form.action method="post" action="/sign-up" data-action="sign-up" {
            label for="sign-up-email" { (t(l, "email")) }
            br;
            input id="sign-up-email" type="email" name="email" autocomplete="email" required
                value=(email) aria-describedby=[problem.map(|_| "problem-sign-up")];
            " "
            button type="submit" { (t(l, "send_link")) }
        }
        p { a href="/sign-in" { (t(l, "have_account")) } }
    };
    respond(status, page(&Chrome::anonymous(l), t(l, "sign_up"), body))
}

/// `GET /sign-up`.
pub async fn sign_up_form(req: HttpRequest) -> HttpResponse {
    address_page(request_locale(&req), StatusCode::OK, None, "")
}

/// `POST /sign-up`: mails the link (or, for an address with an account, a sign-in link); the
/// answer is the same either way.
pub async fn request_sign_up(
    state: web::Data<AppState>,
    req: HttpRequest,
    form: Form,
) -> HttpResponse {
    let l = request_locale(&req);
    let chrome = Chrome::anonymous(l);
    let Ok(email) = EmailAddress::parse(form.get("email").unwrap_or("")) else {
        let problem = format!("{}: {}", t(l, "invalid_form"), t(l, "email"));
        return address_page(l, StatusCode::UNPROCESSABLE_ENTITY, Some(&problem), "");
    };
    if let Some(limited) = link_limit(&state, &req, &chrome, email.as_str()) {
        return limited;
    }
    let asked = crate::db::run(&state.pool, move |conn| sign_up::request(conn, &email, l)).await;
    match asked {
        Ok(()) => message(
            &chrome,
            StatusCode::OK,
            t(l, "sign_up"),
            t(l, "sign_up_sent"),
        ),
        Err(e) => error_page(&chrome, &ApiError::from(e)),
    }
}

/// The display-name form of a usable link (posting to the link's own address).
fn name_page(
    l: Locale,
    status: StatusCode,
    token: &str,
    email: &str,
    problem: Option<&str>,
) -> HttpResponse {
    let body = html! {
        h1 { (t(l, "sign_up")) }
        p { (t(l, "sign_up_for")) " " strong { (email) } }
        @if let Some(p) = problem { p.problem role="alert" id="problem-name" { (p) } }
        form.action method="post" action={ "/sign-up/" (token) } data-action="sign-up-name" {
            label for="sign-up-name" { (t(l, "your_name")) }
            br;
            input id="sign-up-name" type="text" name="name" required maxlength="64"
                autocomplete="nickname" aria-describedby=[problem.map(|_| "problem-name")];
            " "
            button type="submit" { (t(l, "create_account")) }
        }
    };
    respond(status, page(&Chrome::anonymous(l), t(l, "sign_up"), body))
}

/// A link that cannot sign up: 403 for a forged one, 410 for a spent or expired one (with the
/// way to ask for a new one).
fn refused(l: Locale, spent: bool) -> HttpResponse {
    let (status, reason) = if spent {
        (StatusCode::GONE, t(l, "sign_up_spent"))
    } else {
        (StatusCode::FORBIDDEN, t(l, "link_invalid"))
    };
    let body = html! {
        h1 { (t(l, "link_refused")) }
        p.problem { (reason) }
        p { a href="/sign-up" { (t(l, "sign_up_again")) } }
    };
    respond(
        status,
        page(&Chrome::anonymous(l), t(l, "link_refused"), body),
    )
}

/// The link's row and address, or the refusal to answer.
async fn usable(
    state: &AppState,
    l: Locale,
    token: &str,
) -> Result<(uuid::Uuid, String), HttpResponse> {
    let link = match state.links.verify_sign_up(token) {
        Ok(link) => link,
        Err(LinkError::Expired) => return Err(refused(l, true)),
        Err(_) => return Err(refused(l, false)),
    };
    let found = crate::db::run(&state.pool, move |conn| {
        sign_up::pending(conn, link).map_err(ApiError::from)
    })
    .await;
    match found {
        Ok(Some(email)) => Ok((link, email)),
        Ok(None) => Err(refused(l, true)),
        Err(e) => Err(error_page(&Chrome::anonymous(l), &ApiError::from(e))),
    }
}

/// `GET /sign-up/{token}`: the display-name form; spends nothing.
pub async fn sign_up_landing(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<String>,
) -> HttpResponse {
    let l = request_locale(&req);
    match usable(&state, l, &path).await {
        Ok((_, email)) => name_page(l, StatusCode::OK, &path, &email, None),
        Err(answer) => answer,
    }
}

/// The name form again, saying the name was not accepted.
fn name_refused(l: Locale, token: &str, email: &str) -> HttpResponse {
    let problem = format!("{}: {}", t(l, "invalid_form"), t(l, "your_name"));
    name_page(
        l,
        StatusCode::UNPROCESSABLE_ENTITY,
        token,
        email,
        Some(&problem),
    )
}

/// `POST /sign-up/{token}`: spends the link, makes the account with the chosen name, signs it in.
pub async fn complete_sign_up(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<String>,
    form: Form,
) -> HttpResponse {
    let l = request_locale(&req);
    let (link, email) = match usable(&state, l, &path).await {
        Ok(found) => found,
        Err(answer) => return answer,
    };
    let Ok(name) = DisplayName::parse(form.get("name").unwrap_or("")) else {
        return name_refused(l, &path, &email);
    };
    let made = crate::db::run(&state.pool, move |conn| make_account(conn, link, &name, l));
    match made.await.map_err(ApiError::from) {
        Ok(Some((user, sid))) => {
            tracing::info!(user.id = %user, "signed up by email link");
            let mut res = see_other("/games");
            let _ = res.add_cookie(&session::user_cookie(&state, user, sid));
            res
        }
        Ok(None) => refused(l, true),
        Err(ApiError::Conflict(_)) => address_taken(l),
        Err(e) => error_page(&Chrome::anonymous(l), &e),
    }
}

/// The account and its first session, in one transaction; `None` for a spent link.
fn make_account(
    conn: &mut diesel::PgConnection,
    link: uuid::Uuid,
    name: &DisplayName,
    l: Locale,
) -> Result<Option<(crate::domain::UserId, uuid::Uuid)>, ApiError> {
    use diesel::Connection;
    conn.transaction(|conn| {
        let Some(account) = sign_up::complete(conn, link, name, l)? else {
            return Ok(None);
        };
        Ok(Some((account.id, session::start(conn, account.id)?)))
    })
}

/// 409: the address got an account meanwhile (by the API): sign in instead.
fn address_taken(l: Locale) -> HttpResponse {
    let body = html! {
        h1 { (t(l, "sign_up")) }
        p.problem { (t(l, "address_taken")) }
        (sign_in_box(l, "/games", t(l, "send_link")))
    };
    respond(
        StatusCode::CONFLICT,
        page(&Chrome::anonymous(l), t(l, "sign_up"), body),
    )
}
