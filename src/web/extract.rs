//! What every page handler needs before it does its one thing, as extractors: the reader
//! ([`Reader`]: a signed-in account with a live session, or a visitor) and the signed-in account
//! ([`SignedIn`]: otherwise the sign-in page, returning here). A handler answers
//! `Result<HttpResponse, PageError>`, so its refusals (a bad CSRF token, a service's error) are
//! one `?` each and the handler stays about its page.
//!
//! It is also the one reader of the pages' forms and queries ([`Form`], [`Query`], read into
//! [`Fields`], and [`Params`], read into a handler's own type): a field given more than once,
//! where its form has it once, is refused with a page naming it ([`Repeated`]) before the handler
//! runs, so nothing guesses which value was meant; so is a parameter whose value the handler's
//! type cannot read ([`Unreadable`]). A value that reads but that the page does not take (page
//! 0) only the handler can judge: it answers [`Unaccepted`], the same refusal in its own shell.

use super::account::sign_in_page;
use super::i18n::{request_locale, t};
use super::layout::{Chrome, message};
use super::play::error_page;
use super::session;
use crate::domain::{Locale, UserId};
use crate::error::ApiError;
use crate::state::AppState;
use actix_web::body::MessageBody;
use actix_web::dev::Payload;
use actix_web::http::StatusCode;
use actix_web::{FromRequest, HttpMessage, HttpRequest, HttpResponse, ResponseError, web};
use futures_util::FutureExt;
use futures_util::future::{LocalBoxFuture, Shared, ready};
use serde::de::DeserializeOwned;
use std::fmt;
use std::marker::PhantomData;
use std::ops::Deref;

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
        token: Option<&str>,
        title: &str,
    ) -> Result<(), PageError> {
        if session::csrf_ok(state, &self.cookie, token.unwrap_or("")) {
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

/// The reader's account session (its id, cookie and shell) when it is live.
type Session = Option<(UserId, String, Chrome)>;

/// One request's session lookup, shared by its extractors.
type Lookup = Shared<LocalBoxFuture<'static, Session>>;

/// The request's session, looked up at most once however many extractors ask (the page's
/// [`SignedIn`] or [`Reader`], and a refusal of its address or form, which answers in a signed-in
/// reader's language): one database round trip per request, not one per asker. The first asker
/// makes the shared future and the first to await it runs it; the others get its answer.
fn session_lookup(req: &HttpRequest) -> Lookup {
    if let Some(lookup) = req.extensions().get::<Lookup>() {
        return lookup.clone();
    }
    // What the lookup needs is taken now: a future holding the request, kept in the request's
    // own extensions, would keep the request alive for good.
    let found = req
        .app_data::<web::Data<AppState>>()
        .cloned()
        .and_then(|state| {
            let (user, cookie) = session::account(&state, req)?;
            Some((state, user, cookie))
        });
    let lookup = async move {
        let (state, user, cookie) = found?;
        super::account::live_session(&state, user, cookie).await
    }
    .boxed_local()
    .shared();
    req.extensions_mut().insert(lookup.clone());
    lookup
}

/// The language a refusal of `req`'s address or form is said in: a signed-in reader's account's,
/// as the page's own refusals are; the browser's for a visitor.
fn refusal_locale(req: &HttpRequest) -> LocalBoxFuture<'static, Locale> {
    let (lookup, browser) = (session_lookup(req), request_locale(req));
    async move { lookup.await.map_or(browser, |(_, _, chrome)| chrome.locale) }.boxed_local()
}

impl FromRequest for SignedIn {
    type Error = PageError;
    type Future = LocalBoxFuture<'static, Result<SignedIn, PageError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let lookup = session_lookup(req);
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
            match lookup.await {
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

/// A page form's fields, or an address's query parameters, in the order they were sent: each
/// name once, but for those its form lets repeat (a list), which keep every value in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Fields(Vec<(String, String)>);

impl Fields {
    /// The pairs as sent; `Err` names the first field given more than once that is not among
    /// `repeatable`.
    ///
    /// # Errors
    /// The name of the repeated field.
    pub fn read<I, K, V>(pairs: I, repeatable: &[&str]) -> Result<Fields, String>
    where
        I: IntoIterator<Item = (K, V)>,
        K: Into<String>,
        V: Into<String>,
    {
        let mut fields: Vec<(String, String)> = Vec::new();
        for (name, value) in pairs {
            let name = name.into();
            let again = fields.iter().any(|(n, _)| *n == name);
            if again && !repeatable.contains(&name.as_str()) {
                return Err(name);
            }
            fields.push((name, value.into()));
        }
        Ok(Fields(fields))
    }

    /// The value of `name` (the first, for a field that may repeat).
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Every value of `name`, in the order sent.
    pub fn all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.0
            .iter()
            .filter(move |(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Whether the form sent `name` at all (a ticked checkbox).
    pub fn has(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// These fields with `over`'s in place of any of the same name (an address's fields under
    /// the body's), without `left_out`.
    pub fn under(&self, over: &Fields, left_out: &str) -> Fields {
        let kept = self.0.iter().filter(|(n, _)| over.get(n).is_none());
        let fields = kept
            .chain(over.0.iter())
            .filter(|(n, _)| n != left_out)
            .cloned()
            .collect();
        Fields(fields)
    }
}

/// The fields a form lets repeat (a list: several values of one name); every other field is
/// refused when given twice.
pub trait Repeats {
    const FIELDS: &'static [&'static str];
}

/// A form whose every field comes once.
pub struct Once;

impl Repeats for Once {
    const FIELDS: &'static [&'static str] = &[];
}

/// A field given more than once where its form has it once: 400, as a page in the reader's
/// language naming the field (at most [`NAMED`] characters of it: the name is the sender's).
#[derive(Debug, Clone)]
pub struct Repeated {
    pub field: String,
    /// In the query of a page's address (rather than a posted form's body or action).
    pub in_address: bool,
    locale: Locale,
}

/// The most of a repeated field's name a refusal repeats.
const NAMED: usize = 40;

/// `field` as a refusal names it: clipped to [`NAMED`] characters.
fn named(field: &str) -> String {
    match field.char_indices().nth(NAMED) {
        Some((cut, _)) => format!("{}…", &field[..cut]),
        None => field.to_owned(),
    }
}

/// A 400 page in `chrome` saying `text`.
fn bad_request(chrome: &Chrome, text: &str) -> HttpResponse {
    message(
        chrome,
        StatusCode::BAD_REQUEST,
        t(chrome.locale, "error"),
        text,
    )
}

impl Repeated {
    /// The refusal's sentence in `l`.
    pub fn sentence(&self, l: Locale) -> String {
        let key = if self.in_address {
            "address_field_repeated"
        } else {
            "form_field_repeated"
        };
        t(l, key).replace("{field}", &named(&self.field))
    }
}

impl fmt::Display for Repeated {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the field `{}` is given more than once", self.field)
    }
}

impl ResponseError for Repeated {
    fn status_code(&self) -> StatusCode {
        StatusCode::BAD_REQUEST
    }

    fn error_response(&self) -> HttpResponse {
        bad_request(&Chrome::anonymous(self.locale), &self.sentence(self.locale))
    }
}

/// A query parameter of a page's address whose value the page cannot read (a word where it takes
/// a number): 400, as a page in the reader's language naming the parameter (clipped as
/// [`Repeated`] clips it), never its value (a link's may hold a token).
#[derive(Debug, Clone)]
pub struct Unreadable {
    /// `None` when no one parameter is at fault (the page's type wants what is not there).
    pub field: Option<String>,
    locale: Locale,
}

impl Unreadable {
    /// The refusal's sentence in `l`.
    pub fn sentence(&self, l: Locale) -> String {
        match &self.field {
            Some(field) => t(l, "address_field_unreadable").replace("{field}", &named(field)),
            None => t(l, "address_unreadable").to_owned(),
        }
    }
}

impl fmt::Display for Unreadable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.field {
            Some(field) => write!(f, "the query parameter `{field}` cannot be read"),
            None => write!(f, "the query parameters cannot be read"),
        }
    }
}

impl ResponseError for Unreadable {
    fn status_code(&self) -> StatusCode {
        StatusCode::BAD_REQUEST
    }

    fn error_response(&self) -> HttpResponse {
        bad_request(&Chrome::anonymous(self.locale), &self.sentence(self.locale))
    }
}

/// What a page's query parameter takes, as a refusal says it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Accepts {
    /// A whole number from the first to the second, both included.
    Range(i64, i64),
    /// One of these words (codes, the same in every language).
    OneOf(Vec<&'static str>),
    /// What the catalogue's key says (a player's id).
    Described(&'static str),
    /// What the catalogue's key says with its `{n}` (reminders: at most five).
    Counted(&'static str, usize),
    /// What the first catalogue key says with its `{from}` and `{to}` (table sizes: 3 to 5); the
    /// second's, with its `{n}`, when both ends are one number.
    Between(&'static str, &'static str, i64, i64),
    /// A list separated by commas of these words, each once (tie-breaks).
    List(Vec<&'static str>),
}

impl Accepts {
    /// The numbers of `range`, as a refusal names them (the same range the check reads).
    pub fn range<T: Copy + TryInto<i64>>(range: &std::ops::RangeInclusive<T>) -> Accepts {
        let (from, to) = ends(range);
        Accepts::Range(from, to)
    }

    /// `key`'s words with the numbers of `range` (the same range the check reads), or
    /// `exactly`'s with its one number.
    pub fn between<T: Copy + TryInto<i64>>(
        key: &'static str,
        exactly: &'static str,
        range: &std::ops::RangeInclusive<T>,
    ) -> Accepts {
        let (from, to) = ends(range);
        Accepts::Between(key, exactly, from, to)
    }

    /// What is taken, in `l`. A range of one number says that number ("exactly 2", not "from 2
    /// to 2").
    fn said(&self, l: Locale) -> String {
        match self {
            Accepts::Range(from, to) if from == to => {
                t(l, "accepts_exactly").replace("{n}", &from.to_string())
            }
            Accepts::Range(from, to) => t(l, "accepts_range")
                .replace("{from}", &from.to_string())
                .replace("{to}", &to.to_string()),
            Accepts::OneOf(words) => t(l, "accepts_one_of").replace("{values}", &words.join(", ")),
            Accepts::Described(key) => t(l, key).to_owned(),
            Accepts::Counted(key, n) => t(l, key).replace("{n}", &n.to_string()),
            Accepts::Between(_, exactly, from, to) if from == to => {
                t(l, exactly).replace("{n}", &from.to_string())
            }
            Accepts::Between(key, _, from, to) => t(l, key)
                .replace("{from}", &from.to_string())
                .replace("{to}", &to.to_string()),
            Accepts::List(words) => t(l, "accepts_list_of").replace("{values}", &words.join(", ")),
        }
    }
}

/// A range's ends as a refusal says them (an end beyond an `i64`, which no form takes, as its
/// largest).
fn ends<T: Copy + TryInto<i64>>(range: &std::ops::RangeInclusive<T>) -> (i64, i64) {
    let end = |n: T| n.try_into().unwrap_or(i64::MAX);
    (end(*range.start()), end(*range.end()))
}

/// A query parameter of a page's address that the page reads but whose value it does not take
/// (page 0, a status there is none of): 400, as a page in the reader's language naming the
/// parameter and what it takes, never the value (a link's may hold anything, and a page that
/// repeats it lends the site's voice to whatever it says). Unlike [`Repeated`] and
/// [`Unreadable`], only the handler can tell (the value reads), so it answers in the handler's
/// shell: a signed-in reader's language is their account's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unaccepted {
    pub field: &'static str,
    pub accepts: Accepts,
}

impl Unaccepted {
    /// The refusal's sentence in `l`.
    pub fn sentence(&self, l: Locale) -> String {
        t(l, "address_field_unaccepted")
            .replace("{field}", self.field)
            .replace("{accepted}", &self.accepts.said(l))
    }

    /// The refusal as the page answers it, in `chrome`.
    pub fn page(&self, chrome: &Chrome) -> PageError {
        PageError::from_response(bad_request(chrome, &self.sentence(chrome.locale)))
    }
}

/// A form field whose value the form does not take (a word where it takes a number, a choice it
/// does not offer): said next to the form, in the reader's language, naming the field by its
/// label and what it takes, never the value (what a visitor typed is theirs to say, not the
/// site's). Built before the page knows its reader, so it keeps catalogue keys, not sentences.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unfit {
    /// The field as its form labels it.
    pub label: Label,
    pub accepts: Accepts,
}

/// How a refused form field is named: its label's catalogue key, or the name the form shows
/// (a game's switch, named the same in every language).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Label {
    Key(&'static str),
    Shown(String),
}

/// `label`'s field refused for want of `accepts` (written out at each use, so that the
/// catalogue's completeness test reads the label's key there). A helper that hands a label on
/// takes it as `label: &'static str`, so that the test reads the keys given to it too.
pub fn unfit(label: &'static str, accepts: Accepts) -> Unfit {
    Unfit {
        label: Label::Key(label),
        accepts,
    }
}

/// `label`'s field refused for a value that is not one of the choices its select offers.
pub fn offered(label: &'static str) -> Unfit {
    unfit(label, Accepts::Described("accepts_offered_choice"))
}

impl Unfit {
    /// The refusal's sentence in `l`.
    pub fn sentence(&self, l: Locale) -> String {
        let field = match &self.label {
            Label::Key(key) => t(l, key),
            Label::Shown(name) => name.as_str(),
        };
        t(l, "form_field_unaccepted")
            .replace("{field}", field)
            .replace("{accepted}", &self.accepts.said(l))
    }
}

/// A page form's body (`application/x-www-form-urlencoded`), each field once but for those `R`
/// lets repeat. A body that cannot be read as a form (another media type, too large, too slow)
/// is answered as every page answers it (`web::form_error`); a repeated field is [`Repeated`].
pub struct Form<R: Repeats = Once> {
    fields: Fields,
    repeats: PhantomData<fn() -> R>,
}

/// The query parameters of a page's address, each once but for those `R` lets repeat.
pub struct Query<R: Repeats = Once> {
    fields: Fields,
    repeats: PhantomData<fn() -> R>,
}

/// The query parameters of a page's address read as `T`: the pages' `web::Query`. Each of `T`'s
/// comes once ([`Repeated`] otherwise), and a value `T` cannot read is [`Unreadable`], naming its
/// parameter; both are 400 pages in the reader's language, before the handler runs, where
/// `web::Query` cannot tell which parameter is at fault (serde's error does not say). `T`'s fields
/// are each optional (a link may leave any out), an empty value `T` cannot read is an absent one,
/// and `T` must ignore names it does not know (a link may carry others, even twice).
pub struct Params<T>(pub T);

/// Why an address or a form could not be read, before the language it is said in is known.
#[derive(Debug)]
enum Refusal {
    Repeated(Repeated),
    Unreadable(Unreadable),
}

impl Refusal {
    /// The refusal, said in `l`.
    fn said_in(self, l: Locale) -> actix_web::Error {
        match self {
            Refusal::Repeated(r) => Repeated { locale: l, ..r }.into(),
            Refusal::Unreadable(u) => Unreadable { locale: l, ..u }.into(),
        }
    }
}

/// `read`, or its refusal said in the reader's language (looked up only for a refusal, and then
/// shared with the page's own lookup).
fn or_refused<T: 'static>(
    req: &HttpRequest,
    read: Result<T, Refusal>,
) -> LocalBoxFuture<'static, Result<T, actix_web::Error>> {
    match read {
        Ok(read) => ready(Ok(read)).boxed_local(),
        Err(refusal) => {
            let locale = refusal_locale(req);
            async move { Err(refusal.said_in(locale.await)) }.boxed_local()
        }
    }
}

/// Reads the query of `req` as `T`.
fn params<T: DeserializeOwned>(req: &HttpRequest) -> Result<Params<T>, Refusal> {
    let read = |pairs: &[(String, String)]| {
        let query = url::form_urlencoded::Serializer::new(String::new())
            .extend_pairs(pairs)
            .finish();
        web::Query::<T>::from_query(&query).map(web::Query::into_inner)
    };
    // Every page load reads its address as given; the pairs are taken apart only when it fails.
    if let Ok(read) = web::Query::<T>::from_query(req.query_string()) {
        return Ok(Params(read.into_inner()));
    }
    let given: Vec<(String, String)> = url::form_urlencoded::parse(req.query_string().as_bytes())
        .into_owned()
        .collect();
    // A page's own GET form sends a field left empty as `name=`: where `T` cannot read an empty
    // value (a number), it is no value. (Where it can, the handler judges it: an empty `t` is a
    // link's token that is wrong, not absent.)
    let pairs: Vec<(String, String)> = given
        .into_iter()
        .filter(|pair| !pair.1.is_empty() || read(std::slice::from_ref(pair)).is_ok())
        .collect();
    if let Ok(read) = read(&pairs) {
        return Ok(Params(read));
    }
    // What is at fault, named. First a parameter the page reads, given twice (`T` refuses its
    // own fields twice and ignores other names, which a link may repeat: `utm_source`); then the
    // first parameter that does not read alone (the others are optional). Said in English until
    // the reader is known.
    let locale = Locale::En;
    let mut seen = std::collections::BTreeSet::new();
    for (name, _) in &pairs {
        if !seen.insert(name.as_str()) {
            let given: Vec<(String, String)> =
                pairs.iter().filter(|(n, _)| n == name).cloned().collect();
            if read(&given).is_err() {
                let (field, in_address) = (name.clone(), in_address(req));
                return Err(Refusal::Repeated(Repeated {
                    field,
                    in_address,
                    locale,
                }));
            }
        }
    }
    let field = pairs
        .iter()
        .find(|pair| read(std::slice::from_ref(pair)).is_err())
        .map(|(name, _)| name.clone());
    Err(Refusal::Unreadable(Unreadable { field, locale }))
}

impl<T: DeserializeOwned + 'static> FromRequest for Params<T> {
    type Error = actix_web::Error;
    type Future = LocalBoxFuture<'static, Result<Params<T>, actix_web::Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        or_refused(req, params(req))
    }
}

impl<T> Params<T> {
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> Deref for Params<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

/// Whether a query's fields are its address's (a page's) rather than a posted form's: a posted
/// form's address is part of the form (a one-click form carries its choice there).
fn in_address(req: &HttpRequest) -> bool {
    req.method() == actix_web::http::Method::GET
}

/// Reads `pairs` for a form that lets `R`'s fields repeat.
fn read<R: Repeats>(pairs: Vec<(String, String)>, in_address: bool) -> Result<Fields, Refusal> {
    Fields::read(pairs, R::FIELDS).map_err(|field| {
        Refusal::Repeated(Repeated {
            field,
            in_address,
            locale: Locale::En,
        })
    })
}

impl<R: Repeats + 'static> FromRequest for Form<R> {
    type Error = actix_web::Error;
    type Future = LocalBoxFuture<'static, Result<Form<R>, actix_web::Error>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        // actix's own reader, so that the media type, the size limit, the deadline and their
        // answers stay those of every form; pairs, so that nothing sent is lost before it is
        // checked.
        let body = web::Form::<Vec<(String, String)>>::from_request(req, payload);
        let req = req.clone();
        Box::pin(async move {
            let fields = or_refused(&req, read::<R>(body.await?.into_inner(), false)).await?;
            Ok(Form {
                fields,
                repeats: PhantomData,
            })
        })
    }
}

impl<R: Repeats + 'static> FromRequest for Query<R> {
    type Error = actix_web::Error;
    type Future = LocalBoxFuture<'static, Result<Query<R>, actix_web::Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let pairs = url::form_urlencoded::parse(req.query_string().as_bytes())
            .into_owned()
            .collect();
        let read = read::<R>(pairs, in_address(req)).map(|fields| Query {
            fields,
            repeats: PhantomData,
        });
        or_refused(req, read)
    }
}

impl<R: Repeats> Form<R> {
    pub fn into_inner(self) -> Fields {
        self.fields
    }
}

impl<R: Repeats> Query<R> {
    pub fn into_inner(self) -> Fields {
        self.fields
    }
}

impl<R: Repeats> Deref for Form<R> {
    type Target = Fields;

    fn deref(&self) -> &Fields {
        &self.fields
    }
}

impl<R: Repeats> Deref for Query<R> {
    type Target = Fields;

    fn deref(&self) -> &Fields {
        &self.fields
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_given_twice_is_refused_by_name_unless_it_may_repeat() {
        let pairs = [("csrf", "x"), ("card", "A1"), ("card", "B2")];
        assert_eq!(Fields::read(pairs, &[]), Err("card".to_owned()));
        let read = Fields::read(pairs, &["card"]).expect("card may repeat");
        assert_eq!(read.all("card").collect::<Vec<_>>(), ["A1", "B2"]);
        assert_eq!(read.get("card"), Some("A1"));
        assert_eq!(read.get("csrf"), Some("x"));
        assert!(!read.has("nothing"));
    }

    #[test]
    fn fields_keep_the_order_sent_and_the_body_overrides_the_address() {
        let query =
            Fields::read([("v", "3"), ("csrf", "t"), ("card", "A1")], &[]).expect("each once");
        let body = Fields::read([("card", "B2"), ("suit", "M")], &[]).expect("each once");
        let entered = query.under(&body, "csrf");
        let pairs: Vec<(&str, &str)> = entered
            .0
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_str()))
            .collect();
        assert_eq!(pairs, [("v", "3"), ("card", "B2"), ("suit", "M")]);
    }

    #[derive(Debug, serde::Deserialize)]
    struct Link {
        t: Option<String>,
        n: Option<u8>,
    }

    #[test]
    fn a_parameter_that_does_not_read_is_named_and_one_given_twice_is_repeated() {
        use actix_web::test::TestRequest;
        let read = |uri: &str| {
            params::<Link>(&TestRequest::get().uri(uri).to_http_request())
                .map_err(|refusal| refusal.said_in(Locale::En))
        };
        let ok = read("/p?t=a&n=7&other=1").expect("each reads; others ignored");
        assert_eq!((ok.t.as_deref(), ok.n), (Some("a"), Some(7)));
        let e = read("/p?t=a&n=seven").err().expect("a word for a number");
        let unread = e.as_error::<Unreadable>().expect("unreadable");
        assert_eq!(unread.field.as_deref(), Some("n"));
        assert_eq!(e.as_response_error().status_code(), StatusCode::BAD_REQUEST);
        let e = read("/p?n=1&n=2").err().expect("given twice");
        let twice = e.as_error::<Repeated>().expect("repeated");
        assert_eq!((twice.field.as_str(), twice.in_address), ("n", true));
        // A number left empty in a GET form is absent (an empty text is the handler's to judge);
        // a name the page does not read may repeat.
        let empty = read("/p?t=&n=").expect("an empty number is no number");
        assert_eq!((empty.t.as_deref(), empty.n), (Some(""), None));
        let other = read("/p?n=2&utm=a&utm=b").expect("others may repeat");
        assert_eq!(other.n, Some(2));
        let e = read("/p?utm=a&utm=b&n=x")
            .err()
            .expect("a word for a number");
        let unread = e
            .as_error::<Unreadable>()
            .expect("the word, not the repeat");
        assert_eq!(unread.field.as_deref(), Some("n"));
    }

    #[test]
    fn a_range_of_one_number_says_that_number() {
        let said = |accepts: Accepts, l| unfit("seat_count", accepts).sentence(l);
        let one = said(Accepts::range(&(2u8..=2)), Locale::Fr);
        assert!(one.contains("il accepte exactement 2."), "{one}");
        assert!(!one.contains("2 à 2"), "{one}");
        let two = said(Accepts::range(&(2u8..=4)), Locale::Fr);
        assert!(two.contains("un nombre entier de 2 à 4"), "{two}");
        let tables = |range| {
            let accepts = Accepts::between(
                "accepts_table_sizes_between",
                "accepts_table_size_exactly",
                &range,
            );
            said(accepts, Locale::Es)
        };
        let one = tables(4usize..=4);
        assert!(one.contains("mesas de exactamente 4 jugadores"), "{one}");
        assert!(!one.contains("4 a 4"), "{one}");
        assert!(tables(3usize..=5).contains("de 3 a 5 jugadores"));
    }

    #[test]
    fn the_refusal_names_the_field_clipped() {
        let long = "n".repeat(100);
        let refusal = Repeated {
            field: long,
            in_address: false,
            locale: Locale::En,
        };
        let said = refusal.sentence(Locale::En);
        assert!(said.contains(&format!("{}…", "n".repeat(NAMED))), "{said}");
        assert!(!said.contains(&"n".repeat(NAMED + 1)), "{said}");
    }
}
