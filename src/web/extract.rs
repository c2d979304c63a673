//! What every page handler needs before it does its one thing, as extractors: the reader
//! ([`Reader`]: a signed-in account with a live session, or a visitor) and the signed-in account
//! ([`SignedIn`]: otherwise the sign-in page, returning here). A handler answers
//! `Result<HttpResponse, PageError>`, so its refusals (a bad CSRF token, a service's error) are
//! one `?` each and the handler stays about its page.

use super::account::sign_in_page;
use super::i18n::{request_locale, t};
use super::layout::{Chrome, message};
use super::play::error_page;
use super::session;
use crate::domain::UserId;
use crate::error::ApiError;
use crate::state::AppState;
use actix_web::body::MessageBody;
use actix_web::dev::Payload;
use actix_web::http::StatusCode;
use actix_web::{FromRequest, HttpRequest, HttpResponse, ResponseError, web};
use futures_util::future::LocalBoxFuture;
use std::fmt;

/// A page that answers instead of the one asked for: the sign-in page, a refusal, an error.
/// Kept as its status and HTML so it can be built once and sent as the answer.
#[derive(Debug)]
pub struct PageError {
    status: StatusCode,
    html: String,
    /// A redirect's target.
    location: Option<String>,
    /// A rate limit's wait, in seconds.
    retry_after: Option<String>,
}

impl PageError {
    /// An answer already rendered.
    pub fn from_response(res: HttpResponse) -> PageError {
        let status = res.status();
        let header = |name| {
            res.headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
        };
        let location = header(actix_web::http::header::LOCATION);
        let retry_after = header(actix_web::http::header::RETRY_AFTER);
        let body = res.into_body().try_into_bytes().unwrap_or_default();
        PageError {
            status,
            html: String::from_utf8_lossy(&body).into_owned(),
            location,
            retry_after,
        }
    }

    /// A service's error, as the page shows it (a rate limit with its `Retry-After`).
    pub fn api(chrome: &Chrome, e: &ApiError) -> PageError {
        PageError::from_response(error_page(chrome, e))
    }
}

impl fmt::Display for PageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "page answered {}", self.status)
    }
}

impl ResponseError for PageError {
    fn status_code(&self) -> StatusCode {
        self.status
    }

    fn error_response(&self) -> HttpResponse {
        let mut res = HttpResponse::build(self.status);
        res.content_type("text/html; charset=utf-8")
            .insert_header(("Cache-Control", "no-store"));
        if let Some(location) = &self.location {
            res.insert_header((actix_web::http::header::LOCATION, location.as_str()));
        }
        if let Some(wait) = &self.retry_after {
            res.insert_header((actix_web::http::header::RETRY_AFTER, wait.as_str()));
        }
        res.body(self.html.clone())
    }
}

/// Runs `work` on a database connection; its error becomes the error page in `chrome`.
///
/// # Errors
/// The error page of what `work` or the pool answered.
pub async fn db<T, F>(state: &AppState, chrome: &Chrome, work: F) -> Result<T, PageError>
where
    F: FnOnce(&mut diesel::PgConnection) -> Result<T, ApiError> + Send + 'static,
    T: Send + 'static,
{
    crate::db::run(&state.pool, work)
        .await
        .map_err(|e| PageError::api(chrome, &ApiError::from(e)))
}

/// A signed-in account with a live session: its id, its session cookie, the CSRF token of its
/// forms, and the page shell in its language.
pub struct SignedIn {
    pub user: UserId,
    pub cookie: String,
    pub csrf: String,
    pub chrome: Chrome,
}

impl SignedIn {
    /// The form's `csrf` field is this session's token, or the 403 page titled `title`.
    ///
    /// # Errors
    /// 403 when the token is missing or wrong.
    pub fn check_csrf(
        &self,
        state: &AppState,
        token: Option<&String>,
        title: &str,
    ) -> Result<(), PageError> {
        if session::csrf_ok(state, &self.cookie, token.map_or("", String::as_str)) {
            return Ok(());
        }
        let l = self.chrome.locale;
        Err(PageError::from_response(message(
            &self.chrome,
            StatusCode::FORBIDDEN,
            title,
            t(l, "csrf"),
        )))
    }
}

/// The page a sign-in should come back to: this one when it was a page (a GET); after a form
/// post, the player's games (a form is posted again from its page, not replayed).
fn here(req: &HttpRequest) -> String {
    if req.method() != actix_web::http::Method::GET {
        return "/games".to_owned();
    }
    req.uri()
        .path_and_query()
        .map_or_else(|| "/games".to_owned(), |p| p.as_str().to_owned())
}

impl FromRequest for SignedIn {
    type Error = PageError;
    type Future = LocalBoxFuture<'static, Result<SignedIn, PageError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move {
            let state = req
                .app_data::<web::Data<AppState>>()
                .cloned()
                .ok_or_else(|| {
                    PageError::api(
                        &Chrome::anonymous(request_locale(&req)),
                        &ApiError::internal(anyhow::anyhow!("no application state")),
                    )
                })?;
            match super::account::signed_in(&state, &req).await {
                Some((user, cookie, chrome)) => {
                    // A form post counts against the account's limit like an API call; reading a
                    // page does not (the browser fetches pages on its own).
                    if req.method() == actix_web::http::Method::POST {
                        crate::auth::within_limit(&state, user)
                            .map_err(|e| PageError::api(&chrome, &e))?;
                    }
                    Ok(SignedIn {
                        user,
                        csrf: session::csrf_token(&state, &cookie),
                        cookie,
                        chrome,
                    })
                }
                None => Err(PageError::from_response(sign_in_page(
                    &req,
                    StatusCode::UNAUTHORIZED,
                    &here(&req),
                ))),
            }
        })
    }
}

/// Whoever reads a public page: a signed-in account (with its shell) or a visitor (the shell in
/// the browser's language).
pub struct Reader {
    pub user: Option<UserId>,
    /// The CSRF token of a signed-in reader's forms.
    pub csrf: Option<String>,
    pub chrome: Chrome,
}

impl FromRequest for Reader {
    type Error = PageError;
    type Future = LocalBoxFuture<'static, Result<Reader, PageError>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let signed = SignedIn::from_request(req, payload);
        let locale = request_locale(req);
        Box::pin(async move {
            Ok(match signed.await {
                Ok(s) => Reader {
                    user: Some(s.user),
                    csrf: Some(s.csrf),
                    chrome: s.chrome,
                },
                Err(_) => Reader {
                    user: None,
                    csrf: None,
                    chrome: Chrome::anonymous(locale),
                },
            })
        })
    }
}
