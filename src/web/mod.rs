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

use actix_web::dev::ResourceDef;
use actix_web::http::{Method, StatusCode, header};
use actix_web::{FromRequest, Handler, HttpRequest, HttpResponse, Responder, web};

/// Mounts the pages (outside the OpenAPI document: these answer HTML), and the list of them with
/// their methods, by which a page asked with another method answers 405 rather than 404.
pub fn configure(cfg: &mut web::ServiceConfig) {
    let mut pages = Pages {
        cfg,
        known: Vec::new(),
    };
    pages
        .get("/static/herald.css", assets::stylesheet)
        .get("/static/herald.js", assets::script)
        .get("/", account::home)
        .get("/games", account::my_games)
        .get("/lobby", lobby::lobby_page)
        .get("/archive", archive::archive_page)
        .get("/competitions", competitions::list_page)
        .get("/competitions/new", competitions::new_form)
        .post("/competitions/new", competitions::create)
        .get("/competitions/{id}", competitions::competition_page)
        .get(
            "/competitions/{id}/standings.csv",
            competitions::standings_csv,
        )
        .post("/competitions/{id}/{action}", competitions::act)
        .get("/games/new", new_game::new_game_form)
        .post("/games/new", new_game::create_game)
        .get("/sign-up", sign_up::sign_up_form)
        .post("/sign-up", sign_up::request_sign_up)
        .get("/sign-up/{token}", sign_up::sign_up_landing)
        .post("/sign-up/{token}", sign_up::complete_sign_up)
        .get("/sign-in", account::sign_in_form)
        .post("/sign-in", account::request_sign_in)
        .get("/sign-in/{token}", account::sign_in_landing)
        .post("/sign-in/{token}", account::sign_in_by_link)
        .post("/sign-in/{token}/fresh", account::fresh_sign_in_link)
        .post("/sign-out", account::sign_out)
        .get("/invitations/{game_id}", account::invitation)
        .post("/invitations/{game_id}", account::accept_invitation)
        .post(
            "/invitations/{game_id}/decline",
            account::decline_invitation,
        )
        .post("/games/{game_id}/cancel", account::cancel_game)
        .post("/invitations/{game_id}/new", account::join_as_new_player)
        .get("/settings", account::settings)
        .post("/settings", account::save_settings)
        .post("/settings/vacation", account::save_vacation)
        .get("/play/{game_id}", play::game_page)
        // Accepting or declining from the game page: under `/play/{id}`, where a play link's
        // session cookie is sent (before the catch-all of the game's own forms).
        .post("/play/{game_id}/accept", account::accept_invitation)
        .post("/play/{game_id}/decline", account::decline_invitation)
        .post("/play/{game_id}/chat", play::chat)
        .post("/play/{game_id}/{action}", play::act)
        .get("/players/{id}", players::profile_page)
        .get("/ratings/{kind}", players::leaderboard_page)
        .get("/rules", rules::rules_index)
        .get("/rules/{game}", rules::rules_page);
    let known = PageRoutes::new(pages.known);
    cfg.app_data(web::Data::new(known));
}

/// What [`configure`] mounts, recorded as it goes.
struct Pages<'c> {
    cfg: &'c mut web::ServiceConfig,
    known: Vec<(&'static str, Method)>,
}

impl Pages<'_> {
    /// A page read with `GET`, and so with `HEAD` (a link checker's or a monitor's request: the
    /// same answer without its body; `startup` answers HEAD as GET on every route).
    fn get<F, Args>(&mut self, path: &'static str, handler: F) -> &mut Self
    where
        F: Handler<Args>,
        Args: FromRequest + 'static,
        F::Output: Responder + 'static,
    {
        self.cfg.route(path, web::get().to(handler));
        self.known.push((path, Method::GET));
        self.known.push((path, Method::HEAD));
        self
    }

    /// A form's target.
    fn post<F, Args>(&mut self, path: &'static str, handler: F) -> &mut Self
    where
        F: Handler<Args>,
        Args: FromRequest + 'static,
        F::Output: Responder + 'static,
    {
        self.cfg.route(path, web::post().to(handler));
        self.known.push((path, Method::POST));
        self
    }
}

/// The pages' paths with the methods each answers.
pub struct PageRoutes(Vec<(ResourceDef, Vec<Method>)>);

impl PageRoutes {
    fn new(known: Vec<(&'static str, Method)>) -> PageRoutes {
        let mut routes: Vec<(ResourceDef, Vec<Method>)> = Vec::new();
        for (path, method) in known {
            match routes
                .iter_mut()
                .find(|(def, _)| def.pattern() == Some(path))
            {
                Some((_, methods)) => methods.push(method),
                None => routes.push((ResourceDef::new(path), vec![method])),
            }
        }
        PageRoutes(routes)
    }

    /// The methods that `path` answers, when it is a page.
    pub fn allowed(&self, path: &str) -> Option<Vec<Method>> {
        let mut allow: Vec<Method> = Vec::new();
        for (_, methods) in self.0.iter().filter(|(def, _)| def.is_match(path)) {
            for m in methods {
                if !allow.contains(m) {
                    allow.push(m.clone());
                }
            }
        }
        (!allow.is_empty()).then_some(allow)
    }
}

/// A page asked with a method it does not answer (a form's target opened as a link, a `PUT`):
/// 405 with `Allow`, as a page in the reader's language.
pub fn method_not_allowed(req: &HttpRequest, allow: &[Method]) -> HttpResponse {
    let chrome = layout::Chrome::anonymous(i18n::request_locale(req));
    let l = chrome.locale;
    let names: Vec<&str> = allow.iter().map(Method::as_str).collect();
    let text = i18n::t(l, "method_not_allowed")
        .replace("{method}", req.method().as_str())
        .replace("{allow}", &names.join(", "));
    let mut res = layout::message(
        &chrome,
        StatusCode::METHOD_NOT_ALLOWED,
        i18n::t(l, "error"),
        &text,
    );
    if let Ok(value) = header::HeaderValue::from_str(&names.join(", ")) {
        res.headers_mut().insert(header::ALLOW, value);
    }
    res
}

/// Whether `path` is a page's (answered as HTML) rather than the API's or the operators'.
pub fn is_page(path: &str) -> bool {
    !(path.starts_with("/api/") || ["/metrics", "/healthz", "/readyz"].contains(&path))
}

/// A page's address that cannot be read, as a page in the reader's language: a path segment that
/// is not what its route takes (404: there is nothing there), or query parameters that are not
/// (400). Nothing of the address is repeated.
pub fn unreadable_address(req: &HttpRequest, status: StatusCode) -> actix_web::Error {
    let chrome = layout::Chrome::anonymous(i18n::request_locale(req));
    let l = chrome.locale;
    let (title, text) = if status == StatusCode::NOT_FOUND {
        (i18n::t(l, "not_found"), i18n::t(l, "address_not_found"))
    } else {
        (i18n::t(l, "error"), i18n::t(l, "address_unreadable"))
    };
    let res = layout::message(&chrome, status, title, text);
    actix_web::error::InternalError::from_response("unreadable address", res).into()
}

/// How a form that cannot be read is answered, on every page: with the status actix gives the
/// reason (415 for another media type, 413 for too large, 400 otherwise) and a page saying why
/// in the reader's language, where actix alone answers a line of plain English.
pub fn form_error(err: actix_web::error::UrlencodedError, req: &HttpRequest) -> actix_web::Error {
    use actix_web::ResponseError;
    use actix_web::error::UrlencodedError;
    let chrome = layout::Chrome::anonymous(i18n::request_locale(req));
    let l = chrome.locale;
    let timed_out = matches!(
        &err,
        UrlencodedError::Payload(actix_web::error::PayloadError::Io(e))
            if e.kind() == std::io::ErrorKind::TimedOut
    );
    let (status, key) = match err {
        // The body's deadline (see `startup`) passed before the form arrived.
        _ if timed_out => (StatusCode::REQUEST_TIMEOUT, "form_timed_out"),
        UrlencodedError::ContentType => (err.status_code(), "form_media_type"),
        UrlencodedError::Overflow { .. } => (err.status_code(), "form_too_large"),
        _ => (err.status_code(), "form_unreadable"),
    };
    let res = layout::message(&chrome, status, i18n::t(l, "error"), i18n::t(l, key));
    actix_web::error::InternalError::from_response(err, res).into()
}
