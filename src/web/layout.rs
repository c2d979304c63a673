//! The page shell (landmarks, language, viewport, navigation) and HTML answers.

use super::i18n::t;
use crate::domain::Locale;
use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use maud::{DOCTYPE, Markup, html};

/// What the shell needs to know about the reader.
#[derive(Debug, Clone)]
pub struct Chrome {
    pub locale: Locale,
    /// The signed-in account's display name, for the navigation.
    pub account: Option<String>,
    /// The reader's IANA time zone: deadlines are shown in it.
    pub time_zone: String,
    /// The CSRF token of the sign-out form (signed-in pages only).
    pub sign_out_csrf: Option<String>,
}

impl Chrome {
    pub fn anonymous(locale: Locale) -> Chrome {
        Chrome {
            locale,
            account: None,
            time_zone: "UTC".to_owned(),
            sign_out_csrf: None,
        }
    }
}

/// A whole page.
pub fn page(chrome: &Chrome, title: &str, body: Markup) -> Markup {
    let l = chrome.locale;
    html! {
        (DOCTYPE)
        html lang=(l.as_str()) {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) " · Herald" }
                link rel="stylesheet" href="/static/herald.css";
            }
            body {
                a.skip href="#main" { (t(l, "skip")) }
                header.top {
                    a.brand href="/games" { (t(l, "app")) }
                    nav aria-label="Herald" {
                        ul {
                            @if let Some(name) = &chrome.account {
                                li { a href="/games" { (t(l, "my_games")) } }
                                li { a href="/games/new" { (t(l, "new_game")) } }
                                li { a href="/settings" { (t(l, "settings")) } }
                                li { (t(l, "signed_in_as")) " " (name) }
                            } @else {
                                li { a href="/sign-in" { (t(l, "sign_in")) } }
                            }
                        }
                    }
                }
                main id="main" tabindex="-1" {
                    (body)
                }
                footer {
                    "Herald"
                    " · " a href="/archive" { (t(l, "archive")) }
                    " · " a href="/competitions" { (t(l, "competitions")) }
                    " · " a href="/rules" { (t(l, "rules")) }
                    @if let (Some(_), Some(csrf)) = (&chrome.account, &chrome.sign_out_csrf) {
                        " · "
                        form.quick method="post" action="/sign-out" {
                            input type="hidden" name="csrf" value=(csrf);
                            button.secondary type="submit" { (t(l, "sign_out")) }
                            " "
                            button.secondary type="submit" name="everywhere" value="on" {
                                (t(l, "sign_out_everywhere"))
                            }
                        }
                    }
                }
                script src="/static/herald.js" defer {}
            }
        }
    }
}

/// An HTML answer with `status`.
pub fn respond(status: StatusCode, markup: Markup) -> HttpResponse {
    HttpResponse::build(status)
        .content_type("text/html; charset=utf-8")
        .insert_header(("Cache-Control", "no-store"))
        .insert_header(("Referrer-Policy", "same-origin"))
        .body(markup.into_string())
}

/// `page` answering a request refused by a rate limit (`retry_after_s`, from
/// [`crate::error::ApiError::retry_after_s`]): with `Retry-After`, as the API's 429 has, so a
/// browser or script knows when to try again. Every page answer that may be a rate limit goes
/// through here; without a wait, `page` as it is.
pub fn with_retry_after(mut page: HttpResponse, retry_after_s: Option<u64>) -> HttpResponse {
    if let Some(wait) = retry_after_s {
        page.headers_mut().insert(
            actix_web::http::header::RETRY_AFTER,
            actix_web::http::header::HeaderValue::from(wait),
        );
    }
    page
}

/// A 303 to `location` (Post/Redirect/Get).
pub fn see_other(location: &str) -> HttpResponse {
    HttpResponse::SeeOther()
        .insert_header(("Location", location))
        .insert_header(("Cache-Control", "no-store"))
        .finish()
}

/// A short page with a heading and a sentence.
pub fn message(chrome: &Chrome, status: StatusCode, title: &str, text: &str) -> HttpResponse {
    respond(
        status,
        page(
            chrome,
            title,
            html! {
                h1 { (title) }
                p { (text) }
            },
        ),
    )
}
