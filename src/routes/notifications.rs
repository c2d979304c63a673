//! Mail preferences (`/api/v1/me/notifications`) and the one-click unsubscribe page
//! (`/unsubscribe/{token}`, RFC 8058: a `POST` unsubscribes at once, a `GET` shows a small
//! confirmation form and changes nothing, so link scanners cannot unsubscribe anyone).

use super::docs::{AuthErrors, BodyErrors, ServerErrors};
use super::json::Json;
use crate::auth::{AuthUser, Scope};
use crate::domain::Locale;
use crate::error::ApiError;
use crate::services::notifications::{self, Mode};
use crate::state::AppState;
use actix_web::{HttpResponse, get, put, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Which mails the account gets about its games.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"mode": "instant", "reminders_seconds": [86400, 7200]}))]
pub struct NotificationSettings {
    /// `instant`: a mail whenever a game waits for you (the default); `daily_digest`: one mail a
    /// day listing the games waiting for you, most urgent first; `off`: no turn mails
    /// (invitations and sign-in links still come).
    pub mode: Mode,
    /// Seconds before a deadline at which a reminder is mailed, largest first (default 24 h and
    /// 2 h). Kept as set with mode `off`, but not sent while it is off.
    #[schema(value_type = std::collections::BTreeSet<super::schemas::ReminderOffset>, max_items = 5)]
    pub reminders_seconds: Vec<i32>,
}

/// What to change; fields left out stay as they are.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"mode": "daily_digest", "reminders_seconds": [86400]}))]
pub struct NotificationSettingsUpdate {
    pub mode: Option<Mode>,
    /// At most 5 offsets, each 1 s to 30 days (a repeated one counts once); `[]` for no
    /// reminders.
    #[schema(value_type = Option<Vec<super::schemas::ReminderOffset>>, max_items = 5)]
    pub reminders_seconds: Option<Vec<i64>>,
}

/// Get my mail preferences
///
/// Needs the `read` scope.
#[utoipa::path(
    operation_id = "get_notification_settings",
    tag = "accounts",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The caller's mail preferences.", body = NotificationSettings),
        AuthErrors,
        ServerErrors,
    )
)]
#[get("/me/notifications")]
pub async fn get_notification_settings(
    state: web::Data<AppState>,
    auth: AuthUser,
) -> Result<HttpResponse, ApiError> {
    auth.require(Scope::Read)?;
    let settings = crate::db::run(&state.pool, move |conn| {
        Ok(NotificationSettings {
            mode: notifications::mode(conn, auth.user_id)?,
            reminders_seconds: notifications::reminders(conn, auth.user_id)?,
        })
    })
    .await?;
    Ok(HttpResponse::Ok().json(settings))
}

/// Set my mail preferences
///
/// Needs the `play` scope. Applies to mails not yet sent too.
#[utoipa::path(
    operation_id = "update_notification_settings",
    tag = "accounts",
    security(("bearer" = [])),
    request_body = NotificationSettingsUpdate,
    responses(
        (status = 200, description = "The preferences now in force.", body = NotificationSettings),
        AuthErrors,
        BodyErrors,
        ServerErrors,
    )
)]
#[put("/me/notifications")]
pub async fn update_notification_settings(
    state: web::Data<AppState>,
    auth: AuthUser,
    body: Json<NotificationSettingsUpdate>,
) -> Result<HttpResponse, ApiError> {
    auth.require(Scope::Play)?;
    let NotificationSettingsUpdate {
        mode,
        reminders_seconds,
    } = body.0;
    let settings = crate::db::run(&state.pool, move |conn| {
        use diesel::Connection;
        conn.transaction(|conn| {
            let user = auth.user_id;
            let reminders_seconds = match reminders_seconds {
                Some(r) => notifications::set_reminders(conn, user, &r)?,
                None => notifications::reminders(conn, user)?,
            };
            let mode = match mode {
                Some(m) => notifications::set_mode(conn, user, m)?,
                None => notifications::mode(conn, user)?,
            };
            Ok(NotificationSettings {
                mode,
                reminders_seconds,
            })
        })
    })
    .await?;
    Ok(HttpResponse::Ok().json(settings))
}

/// Mounts the unsubscribe page (outside the API and its document).
pub fn configure_pages(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::resource("/unsubscribe/{token}")
            // HEAD as GET, as every page answers it.
            .route(
                web::route()
                    .guard(
                        actix_web::guard::Any(actix_web::guard::Get()).or(actix_web::guard::Head()),
                    )
                    .to(unsubscribe_form),
            )
            .route(web::post().to(unsubscribe_now)),
    );
}

/// The page's words: (en, es, it, fr).
type T = [&'static str; 4];

fn pick(locale: Locale, t: &T) -> &'static str {
    match locale {
        Locale::En => t[0],
        Locale::Es => t[1],
        Locale::It => t[2],
        Locale::Fr => t[3],
    }
}

const ASK_TITLE: T = [
    "Stop turn mails?",
    "¿Dejar de recibir avisos de turno?",
    "Smettere di ricevere avvisi di turno?",
    "Ne plus recevoir d'avis de tour ?",
];
const ASK_BODY: T = [
    "You will get no more mails about your turns. Invitations and sign-in links still come. You can turn mails back on in your account settings.",
    "No recibirás más correos sobre tus turnos. Las invitaciones y los enlaces para entrar seguirán llegando. Puedes volver a activarlos en los ajustes de tu cuenta.",
    "Non riceverai più mail sui tuoi turni. Inviti e link di accesso continueranno ad arrivare. Puoi riattivarle nelle impostazioni del tuo account.",
    "Vous ne recevrez plus de messages sur vos tours. Les invitations et les liens de connexion continueront d'arriver. Vous pouvez les réactiver dans les réglages de votre compte.",
];
const ASK_BUTTON: T = [
    "Unsubscribe",
    "Darse de baja",
    "Annulla l'iscrizione",
    "Se désabonner",
];
const DONE_TITLE: T = [
    "Unsubscribed",
    "Baja confirmada",
    "Iscrizione annullata",
    "Désabonnement confirmé",
];
const DONE_BODY: T = [
    "You will get no more mails about your turns.",
    "No recibirás más correos sobre tus turnos.",
    "Non riceverai più mail sui tuoi turni.",
    "Vous ne recevrez plus de messages sur vos tours.",
];

fn page(
    status: actix_web::http::StatusCode,
    locale: Locale,
    title: &str,
    body: maud::Markup,
) -> HttpResponse {
    let html = maud::html! {
        (maud::DOCTYPE)
        html lang=(locale.as_str()) {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) " · herald" }
            }
            body style="font-family: sans-serif; max-width: 32rem; margin: 2rem auto; padding: 0 1rem" {
                h1 { (title) }
                (body)
            }
        }
    };
    HttpResponse::build(status)
        .content_type("text/html; charset=utf-8")
        .insert_header(("Cache-Control", "no-store"))
        .insert_header(("Referrer-Policy", "no-referrer"))
        .body(html.into_string())
}

fn not_found() -> HttpResponse {
    page(
        actix_web::http::StatusCode::NOT_FOUND,
        Locale::En,
        "Unknown link",
        maud::html! { p { "This unsubscribe link is not valid." } },
    )
}

/// `GET /unsubscribe/{token}`: a confirmation form, in the account's language; changes nothing.
async fn unsubscribe_form(
    state: web::Data<AppState>,
    token: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let token = token.into_inner();
    let check = token.clone();
    let found = crate::db::run(&state.pool, move |conn| {
        notifications::unsubscribe_locale(conn, &check)
    })
    .await?;
    let Some(l) = found else {
        return Ok(not_found());
    };
    Ok(page(
        actix_web::http::StatusCode::OK,
        l,
        pick(l, &ASK_TITLE),
        maud::html! {
            p { (pick(l, &ASK_BODY)) }
            form method="post" action={ "/unsubscribe/" (token) } {
                input type="hidden" name="List-Unsubscribe" value="One-Click";
                button type="submit" { (pick(l, &ASK_BUTTON)) }
            }
        },
    ))
}

/// `POST /unsubscribe/{token}`: the one-click unsubscribe (RFC 8058), whatever the body.
async fn unsubscribe_now(
    state: web::Data<AppState>,
    token: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let token = token.into_inner();
    let done = crate::db::run(&state.pool, move |conn| {
        let locale = notifications::unsubscribe_locale(conn, &token)?;
        notifications::unsubscribe(conn, &token)?;
        Ok::<_, ApiError>(locale.unwrap_or_default())
    })
    .await
    .map_err(ApiError::from);
    match done {
        Ok(l) => Ok(page(
            actix_web::http::StatusCode::OK,
            l,
            pick(l, &DONE_TITLE),
            maud::html! { p { (pick(l, &DONE_BODY)) } },
        )),
        Err(ApiError::NotFound(_)) => Ok(not_found()),
        Err(e) => Err(e),
    }
}
