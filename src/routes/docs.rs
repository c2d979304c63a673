//! The OpenAPI document's frame (info, security scheme, shared schemas) and the error responses
//! many operations share. The operations themselves come from the mounted handlers.

use crate::error::{Problem, ProblemCode};
use std::collections::BTreeMap;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{ContentBuilder, RefOr, Response, ResponseBuilder};
use utoipa::{IntoResponses, Modify, OpenApi};

#[derive(OpenApi)]
#[openapi(
    info(
        title = "herald",
        description = "A play-by-email board game server. All errors are `application/problem+json` (RFC 9457) with a stable `code`; see the README's API conventions.",
        license(name = "AGPL-3.0-or-later", identifier = "AGPL-3.0-or-later"),
    ),
    components(schemas(Problem, ProblemCode)),
    modifiers(&BearerScheme),
    tags(
        (name = "health", description = "Probes for orchestrators."),
        (name = "accounts", description = "Accounts and personal access tokens."),
        (name = "auth", description = "Signing in."),
        (name = "games", description = "Games: create, join, play, audit."),
        (name = "ratings", description = "Ratings, leaderboards and public player profiles."),
        (name = "mail", description = "Moves by email: replies to turn mails, forwarded by HTTP."),
    )
)]
pub struct ApiDoc;

struct BearerScheme;

impl Modify for BearerScheme {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some(
                        "An access token from `POST /api/v1/auth/token` or a personal access token (`hpat_…`).",
                    ))
                    .build(),
            ),
        );
        components.add_security_scheme(
            "inbound_secret",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some(
                        "The server's `INBOUND_SECRET`, for the mail service that forwards replies.",
                    ))
                    .build(),
            ),
        );
        components.add_security_scheme(
            "inbound_basic",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Basic)
                    .description(Some(
                        "Any user name, and the server's `INBOUND_SECRET` as the password.",
                    ))
                    .build(),
            ),
        );
    }
}

fn problem(description: &str) -> RefOr<Response> {
    ResponseBuilder::new()
        .description(description)
        .content(
            crate::error::PROBLEM_JSON,
            ContentBuilder::new()
                .schema(Some(utoipa::openapi::Ref::from_schema_name("Problem")))
                .build(),
        )
        .build()
        .into()
}

fn set(entries: &[(&str, &str)]) -> BTreeMap<String, RefOr<Response>> {
    entries
        .iter()
        .map(|(status, description)| ((*status).to_owned(), problem(description)))
        .collect()
}

/// The refusals of a JSON body.
pub struct BodyErrors;

impl IntoResponses for BodyErrors {
    fn responses() -> BTreeMap<String, RefOr<Response>> {
        set(&[
            (
                "400",
                "The body is not parseable JSON (`malformed_request`).",
            ),
            (
                "408",
                "The body did not arrive whole within 30 seconds (`request_timeout`); nothing was done, and the connection is closed.",
            ),
            (
                "413",
                "The body is larger than 64 KiB (`payload_too_large`).",
            ),
            (
                "415",
                "The body is not `application/json`, or not said to be (`unsupported_media_type`).",
            ),
            (
                "422",
                "The JSON has wrong types, unknown fields, NUL characters or values out of range (`validation_failed`).",
            ),
        ])
    }
}

/// The refusals of an operation that needs a bearer token (or counts a caller's one). An
/// operation's own answer with the same status must come after it in `responses(...)`: the later
/// one is kept.
pub struct AuthErrors;

impl IntoResponses for AuthErrors {
    fn responses() -> BTreeMap<String, RefOr<Response>> {
        set(&[
            (
                "401",
                "No bearer token, or an invalid, expired or revoked one (`unauthenticated`).",
            ),
            (
                "403",
                "The token lacks the scope this operation needs (`forbidden`).",
            ),
            (
                "429",
                "The account made more authenticated calls this minute than `ACCOUNT_REQUESTS_PER_MINUTE` allows (3,000 by default; `rate_limited`, the limit named in `detail`); nothing was done: retry after `Retry-After` seconds.",
            ),
        ])
    }
}

/// The failures of an operation that reads the database.
pub struct ServerErrors;

impl IntoResponses for ServerErrors {
    fn responses() -> BTreeMap<String, RefOr<Response>> {
        set(&[(
            "503",
            "The database is not answering (`unavailable`); retry later.",
        )])
    }
}
