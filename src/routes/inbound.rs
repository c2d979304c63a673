//! Replies by mail over HTTP (moves by email, design.md section 18): a mail service that
//! forwards inbound mail by HTTP posts each raw message here, with the shared secret
//! `INBOUND_SECRET`.

use super::docs::ServerErrors;
use crate::error::{ApiError, Problem};
use crate::services::inbound::{self, MAX_MESSAGE_BYTES, Outcome};
use crate::state::AppState;
use actix_web::error::PayloadError;
use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, post, web};
use futures_util::StreamExt;
use serde::Serialize;
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

const PROBLEM: &str = "application/problem+json";

/// What became of a posted message.
#[derive(Debug, Serialize, ToSchema)]
pub struct InboundMailResponse {
    pub outcome: Outcome,
}

/// Receive a reply by mail
///
/// For mail services that forward inbound mail by HTTP: the body is one raw RFC 5322 message
/// (`message/rfc822`; `text/plain` and `application/octet-stream` are read the same), addressed
/// to a reply address `play+<token>@MAIL_DOMAIN` of a turn mail (in `To`, `Cc`, `Delivered-To`,
/// `X-Original-To` or `Envelope-To`). The first line of the reply is played as the seat's move
/// through the same checks as `submit_actions`, and the sender is answered by mail. A message
/// delivered twice (same sender and `Message-ID`) is read once. Authenticated with the server's
/// `INBOUND_SECRET` as a bearer token (or as the password of HTTP Basic auth, for services that
/// only put credentials in the URL).
#[utoipa::path(
    operation_id = "receive_inbound_mail",
    tag = "mail",
    security(("inbound_secret" = []), ("inbound_basic" = [])),
    request_body(content = String, content_type = "message/rfc822", description = "The raw message, headers and body, as received (at most 10 MiB)."),
    responses(
        (status = 200, description = "Read: the move was played, refused (the sender is told why), not allowed (another address than the seat's, an expired address, a forward), ignored (an automatic mail: never played nor answered) or a duplicate.", body = InboundMailResponse),
        (status = 401, description = "No `INBOUND_SECRET`, or not the right one (`unauthenticated`): nothing was read.", body = Problem, content_type = PROBLEM),
        (status = 408, description = "The message did not arrive whole within 60 seconds (`request_timeout`); nothing was read.", body = Problem, content_type = PROBLEM),
        (status = 413, description = "The message is larger than 10 MiB (`payload_too_large`).", body = Problem, content_type = PROBLEM),
        (status = 415, description = "The body is not `message/rfc822`, `text/plain` or `application/octet-stream` (`unsupported_media_type`).", body = Problem, content_type = PROBLEM),
        (status = 422, description = "The body is not a message, or it is not addressed to a reply address of this server (`validation_failed`).", body = Problem, content_type = PROBLEM),
        ServerErrors,
    )
)]
#[post("/inbound-mail")]
pub async fn receive_inbound_mail(
    state: web::Data<AppState>,
    req: HttpRequest,
    mut payload: web::Payload,
) -> Result<HttpResponse, ApiError> {
    check_secret(&req, state.settings.inbound.secret.as_deref())?;
    check_raw_message(&req)?;
    let raw = read_bounded(&mut payload).await?;
    let inbox = state.inbox.clone();
    let outcome = crate::db::run(&state.pool, move |conn| {
        inbound::receive(conn, &inbox, &raw, None)
    })
    .await?;
    Ok(HttpResponse::Ok().json(InboundMailResponse { outcome }))
}

/// The body must be a raw message: `message/rfc822`, or a plain or unnamed type a relay may
/// send it as (no type at all is taken as one too).
fn check_raw_message(req: &HttpRequest) -> Result<(), ApiError> {
    let content_type = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(|v| {
            v.split(';')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase()
        });
    if content_type.is_some_and(|t| {
        !["message/rfc822", "text/plain", "application/octet-stream"].contains(&t.as_str())
    }) {
        return Err(ApiError::UnsupportedMediaType(
            "the body must be a raw message (message/rfc822)".to_owned(),
        ));
    }
    Ok(())
}

/// The whole body, refused as soon as it grows past [`MAX_MESSAGE_BYTES`].
async fn read_bounded(payload: &mut web::Payload) -> Result<web::BytesMut, ApiError> {
    let mut raw = web::BytesMut::new();
    while let Some(chunk) = payload.next().await {
        let chunk = chunk.map_err(|e| match e {
            // The server's deadline for any body (`startup`), not a malformed message.
            PayloadError::Io(io) if io.kind() == std::io::ErrorKind::TimedOut => {
                ApiError::RequestTimeout(format!(
                    "the message did not arrive whole within {} s",
                    crate::startup::BODY_DEADLINE.as_secs()
                ))
            }
            e => ApiError::MalformedRequest(format!("the body: {e}")),
        })?;
        if raw.len() + chunk.len() > MAX_MESSAGE_BYTES {
            return Err(ApiError::PayloadTooLarge {
                limit: MAX_MESSAGE_BYTES,
            });
        }
        raw.extend_from_slice(&chunk);
    }
    Ok(raw)
}

/// The request presents `secret` as a bearer token or as a Basic password (compared as
/// digests, so the time taken says nothing about the secret).
fn check_secret(req: &HttpRequest, secret: Option<&str>) -> Result<(), ApiError> {
    let refused = || {
        ApiError::Unauthenticated(
            "this route needs the server's INBOUND_SECRET as a bearer token".to_owned(),
        )
    };
    let secret = secret.ok_or_else(refused)?;
    let presented = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| {
            let (scheme, value) = v.trim().split_once(' ')?;
            let value = value.trim();
            if scheme.eq_ignore_ascii_case("bearer") {
                Some(value.to_owned())
            } else if scheme.eq_ignore_ascii_case("basic") {
                use base64::Engine;
                let decoded = base64::engine::general_purpose::STANDARD
                    .decode(value)
                    .ok()?;
                let text = String::from_utf8(decoded).ok()?;
                text.split_once(':')
                    .map(|(_, password)| password.to_owned())
            } else {
                None
            }
        })
        .ok_or_else(refused)?;
    if Sha256::digest(presented.as_bytes()) == Sha256::digest(secret.as_bytes()) {
        Ok(())
    } else {
        Err(refused())
    }
}
