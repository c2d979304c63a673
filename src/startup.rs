//! [`Application::build`]: the bound, configured HTTP server, used by `herald serve` and by the
//! tests (which bind port 0 and read [`Application::port`]).

use crate::config::Settings;
use crate::metrics::Metrics;
use crate::routes::{self, Spec};
use crate::state::AppState;
use actix_web::body::{BodySize, EitherBody, MessageBody};
use actix_web::dev::{Server, ServerHandle, Service};
use actix_web::http::Method;
use actix_web::{App, HttpResponse, HttpServer, web};
use anyhow::Context;
use std::net::TcpListener;
use std::sync::Arc;
use utoipa_actix_web::AppExt;
use utoipa_swagger_ui::{Config, SwaggerUi};

/// A server bound to its port, not yet running (with its inbound mail listener, when
/// `INBOUND_SMTP_ADDR` is set).
pub struct Application {
    port: u16,
    server: Server,
    inbound: Option<crate::email::listener::Listener>,
}

/// How the server is run: the defaults suit `herald serve`; tests take fewer workers and leave
/// signals to the test harness.
#[derive(Debug, Clone, Copy)]
pub struct ServerOptions {
    pub workers: usize,
    pub handle_signals: bool,
}

impl Default for ServerOptions {
    fn default() -> Self {
        ServerOptions {
            workers: std::thread::available_parallelism().map_or(2, |n| n.get()),
            handle_signals: true,
        }
    }
}

impl Application {
    /// Binds `settings.http.bind_addr` and prepares the server on the database of
    /// `settings.database.url` (which must be set: `herald serve` fills it in with the embedded
    /// cluster's). Does not migrate.
    ///
    /// # Errors
    /// When the address cannot be bound or no database URL is set.
    pub fn build(settings: Settings, options: ServerOptions) -> anyhow::Result<Application> {
        Application::build_with_metrics(settings, options, Arc::new(Metrics::new()?))
    }

    /// [`Application::build`] counting into `metrics`, which `herald serve` shares with its job
    /// worker so that `/metrics` reports the mails it sends.
    ///
    /// # Errors
    /// As [`Application::build`].
    pub fn build_with_metrics(
        settings: Settings,
        options: ServerOptions,
        metrics: Arc<Metrics>,
    ) -> anyhow::Result<Application> {
        let url = settings
            .database
            .url
            .clone()
            .context("no database URL: set DATABASE_URL")?;
        let pool = crate::db::pool(&url, settings.database.pool_size)?;
        let listener = TcpListener::bind(settings.http.bind_addr)
            .with_context(|| format!("cannot listen on {}", settings.http.bind_addr))?;
        let port = listener.local_addr()?.port();
        let state = web::Data::new(AppState::new(settings, pool.clone(), metrics));
        let inbound = match state.settings.inbound.smtp_addr {
            None => None,
            Some(addr) => Some(
                crate::email::listener::Listener::bind(addr, state.inbox.clone(), pool)
                    .with_context(|| format!("cannot listen for inbound mail on {addr}"))?,
            ),
        };
        let spec = web::Data::new(Arc::new(Spec::new()));
        let mut server = HttpServer::new(move || app(state.clone(), spec.clone()))
            .workers(options.workers)
            .shutdown_timeout(5)
            .listen(listener)?;
        if !options.handle_signals {
            server = server.disable_signals();
        }
        Ok(Application {
            port,
            server: server.run(),
            inbound,
        })
    }

    /// The port of the inbound mail listener, when there is one.
    pub fn inbound_port(&self) -> Option<u16> {
        let listener = self.inbound.as_ref()?;
        listener.local_addr().ok().map(|a| a.port())
    }

    /// The port the server listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// A handle to stop the server.
    pub fn handle(&self) -> ServerHandle {
        self.server.handle()
    }

    /// Serves until stopped (by a signal or the handle).
    ///
    /// # Errors
    /// When the server fails.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        // The inbound listener lives as long as the HTTP server.
        let inbound = self.inbound.map(|listener| {
            tokio::task::spawn_local(async move {
                if let Err(e) = listener.serve().await {
                    tracing::error!(error = %e, "the inbound mail listener stopped");
                }
            })
        });
        let served = self.server.await;
        if let Some(task) = inbound {
            task.abort();
        }
        served
    }
}

/// What every answer carries (design.md section 20): `nosniff` everywhere; on our pages a
/// Content-Security-Policy that allows no inline script or style and no framing, and no referrer;
/// `no-store` on API answers (they are personal); HSTS when the server is reached over https.
/// The interactive docs (`/docs`, a third-party page with inline scripts) keep their own.
fn security_headers<B>(res: &mut actix_web::dev::ServiceResponse<B>, https: bool) {
    use actix_web::http::header::{self, HeaderValue};
    let path = res.request().path().to_owned();
    let headers = res.headers_mut();
    let html = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/html"));
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    if html && !path.starts_with("/docs") {
        headers.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(
                "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
                 form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'",
            ),
        );
        headers.insert(
            header::REFERRER_POLICY,
            HeaderValue::from_static("no-referrer"),
        );
        headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    }
    if path.starts_with("/api/v1/") && !headers.contains_key(header::CACHE_CONTROL) {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    if https {
        headers.insert(
            header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static("max-age=31536000; includeSubDomains"),
        );
    }
}

/// CORS for browser clients of the listed origins (api.md "The first hour"): their preflights are
/// answered, `ETag` and `Link` (the next page of a list) are exposed; any other origin gets no
/// CORS header and is not blocked either (the pages' own forms send their origin too).
fn cors(origins: &[String]) -> actix_cors::Cors {
    use actix_web::http::header::{self, HeaderName};
    let mut cors = actix_cors::Cors::default()
        .block_on_origin_mismatch(false)
        .allowed_methods(["GET", "HEAD", "POST", "PUT", "DELETE"])
        .allowed_headers([
            header::AUTHORIZATION,
            header::CONTENT_TYPE,
            header::IF_NONE_MATCH,
            HeaderName::from_static("idempotency-key"),
        ])
        .expose_headers([header::ETAG, header::LINK])
        .max_age(3600);
    for origin in origins {
        cors = cors.allowed_origin(origin);
    }
    cors
}

fn app(
    state: web::Data<AppState>,
    spec: web::Data<Arc<Spec>>,
) -> App<
    impl actix_web::dev::ServiceFactory<
        actix_web::dev::ServiceRequest,
        Config = (),
        Response = actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    let https = state.settings.http.public_url.starts_with("https://");
    let cors = cors(&state.settings.http.cors_allowed_origins);
    let metrics = state.metrics.clone();
    let api = App::new()
        .app_data(state)
        .app_data(spec)
        .app_data(web::PathConfig::default().error_handler(routes::path_error))
        .app_data(web::QueryConfig::default().error_handler(routes::query_error))
        // Only the pages read forms.
        .app_data(web::FormConfig::default().error_handler(crate::web::form_error))
        .into_utoipa_app();
    routes::register(api)
        .into_app()
        .route("/api/openapi.json", web::get().to(routes::serve_spec))
        .route(
            "/docs",
            web::get().to(|| async {
                HttpResponse::PermanentRedirect()
                    .insert_header(("Location", "/docs/"))
                    .finish()
            }),
        )
        .service(SwaggerUi::new("/docs/{_:.*}").config(Config::new(["/api/openapi.json"])))
        .configure(routes::notifications::configure_pages)
        .configure(crate::web::configure)
        .default_service(web::to(routes::fallback))
        .route("/metrics", web::get().to(routes::metrics::serve_metrics))
        .wrap_fn(|mut req, srv| {
            // HEAD is answered wherever GET is (RFC 9110 section 9.3.2), here rather than on each
            // route: the request is routed as a GET and its answer goes out without its body,
            // with the GET's status and headers. The access line and the metrics, taken outside
            // this, still say HEAD.
            let head = req.method() == Method::HEAD;
            if head {
                req.head_mut().method = Method::GET;
            }
            let fut = srv.call(req);
            async move {
                let res = fut.await?;
                Ok(res.map_body(|_, body| {
                    if head {
                        EitherBody::right(Headless(body.size()))
                    } else {
                        EitherBody::left(body)
                    }
                }))
            }
        })
        .wrap(cors)
        .wrap_fn(|mut req, srv| {
            let payload = actix_web::HttpMessage::take_payload(&mut req);
            req.set_payload(Deadline::payload(payload, BODY_DEADLINE));
            srv.call(req)
        })
        .wrap_fn(move |req, srv| {
            // The access line and the request metrics (`access`), then the headers every answer
            // carries.
            let started = crate::access::Started::new(&req);
            let fut = srv.call(req);
            let metrics = metrics.clone();
            async move {
                let mut res = match fut.await {
                    Ok(res) => res,
                    Err(e) => {
                        let status = e.as_response_error().status_code().as_u16();
                        started.finish(None, status, &metrics);
                        return Err(e);
                    }
                };
                // `Content-Type` rather than `content-type` on HTTP/1.1: names are
                // case-insensitive, but some clients look them up by their usual spelling.
                res.response_mut().head_mut().set_camel_case_headers(true);
                security_headers(&mut res, https);
                if let Some(id) = started.id_header() {
                    res.headers_mut().insert(crate::access::REQUEST_ID, id);
                }
                let pattern = res.request().match_pattern();
                started.finish(pattern.as_deref(), res.status().as_u16(), &metrics);
                Ok(res)
            }
        })
}

/// The body of an answer to HEAD: the size of the GET's body (for `Content-Length`), none of its
/// bytes. The GET's body is dropped unread, so an endless one (an event stream) ends at once.
struct Headless(BodySize);

impl MessageBody for Headless {
    type Error = std::convert::Infallible;

    fn size(&self) -> BodySize {
        self.0
    }

    fn poll_next(
        self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<web::Bytes, Self::Error>>> {
        std::task::Poll::Ready(None)
    }
}

/// How long any request body may take to arrive whole, on every route (the API's JSON bodies
/// are held to `routes::json::BODY_WAIT` first and answered 408). A client that stalls or
/// trickles a body would otherwise hold its connection for as long as it likes, and enough of
/// them every file the server may open; this bounds them whatever reads the body (a page's form,
/// an inbound mail of up to 10 MB).
pub const BODY_DEADLINE: std::time::Duration = std::time::Duration::from_secs(60);

/// A request body as actix streams it.
type Body = futures_util::stream::LocalBoxStream<
    'static,
    Result<web::Bytes, actix_web::error::PayloadError>,
>;

/// A request body that ends in an error once its deadline has passed.
struct Deadline {
    inner: actix_web::dev::Payload,
    due: std::pin::Pin<Box<actix_web::rt::time::Sleep>>,
}

impl Deadline {
    fn payload(
        inner: actix_web::dev::Payload,
        limit: std::time::Duration,
    ) -> actix_web::dev::Payload {
        let stream: Body = Box::pin(Deadline {
            inner,
            due: Box::pin(actix_web::rt::time::sleep(limit)),
        });
        actix_web::dev::Payload::from(stream)
    }
}

impl futures_util::Stream for Deadline {
    type Item = Result<web::Bytes, actix_web::error::PayloadError>;

    fn poll_next(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Self::Item>> {
        use std::task::Poll;
        if let Poll::Ready(item) = std::pin::Pin::new(&mut self.inner).poll_next(cx) {
            return Poll::Ready(item);
        }
        match self.due.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Some(Err(actix_web::error::PayloadError::Io(
                std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    "the body did not arrive in time",
                ),
            )))),
            Poll::Pending => Poll::Pending,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::StreamExt;

    #[actix_web::test]
    async fn a_body_that_stops_arriving_ends_in_an_error_at_its_deadline() {
        let stalled: Body = Box::pin(
            futures_util::stream::once(async { Ok(web::Bytes::from_static(b"{\"a\"")) })
                .chain(futures_util::stream::pending()),
        );
        let began = std::time::Instant::now();
        let mut body = Deadline::payload(
            actix_web::dev::Payload::from(stalled),
            std::time::Duration::from_millis(200),
        );
        assert!(
            matches!(body.next().await, Some(Ok(_))),
            "what came is read"
        );
        match body.next().await {
            Some(Err(actix_web::error::PayloadError::Io(e))) => {
                assert_eq!(e.kind(), std::io::ErrorKind::TimedOut);
            }
            other => panic!("{other:?}"),
        }
        assert!(began.elapsed() >= std::time::Duration::from_millis(200));
        assert!(began.elapsed() < std::time::Duration::from_secs(5));
    }
}
