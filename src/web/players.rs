//! The public rating pages: a player's profile (`/players/{id}`) and a kind's leaderboard
//! (`/ratings/{kind}`). They read the same services as the API (`services::ratings`) and show
//! display names and numbers only. Readable on a phone: narrow tables that scroll sideways.

use super::account::signed_in;
use super::extract::{Accepts, Query, Unaccepted};
use super::i18n::{request_locale, t};
use super::layout::{Chrome, page, respond};
use super::play::error_page;
use crate::domain::{Locale, UserId};
use crate::engine::registry::GameKind;
use crate::error::ApiError;
use crate::routes::paging::PageQuery;
use crate::services::paging::{MAX_OFFSET, Page};
use crate::services::ratings::{self, LeaderboardEntry, Profile, RatingView, RecentResult};
use crate::state::AppState;
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use maud::{Markup, html};
use uuid::Uuid;

/// Rows per leaderboard page.
const PAGE_ROWS: u32 = 50;

/// The reader's page shell: their account's when signed in, a visitor's otherwise.
async fn chrome(state: &AppState, req: &HttpRequest) -> Chrome {
    match signed_in(state, req).await {
        Some((_, _, chrome)) => chrome,
        None => Chrome::anonymous(request_locale(req)),
    }
}

fn kind_name(kind: &str) -> &'static str {
    GameKind::parse(kind).map_or("?", |k| k.info().name)
}

/// A rating as a page shows it: whole points, and a question mark while provisional.
pub fn rating_text(rating: f64, provisional: bool) -> String {
    format!("{rating:.0}{}", if provisional { "?" } else { "" })
}

/// `GET /players/{id}`.
pub async fn profile_page(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<Uuid>,
) -> HttpResponse {
    let chrome = chrome(&state, &req).await;
    let user = UserId(path.into_inner());
    let found = crate::db::run(&state.pool, move |conn| ratings::profile(conn, user)).await;
    match found {
        Ok(profile) => respond(
            StatusCode::OK,
            page(
                &chrome,
                &profile.display_name,
                profile_body(chrome.locale, &profile),
            ),
        ),
        Err(e) => error_page(&chrome, &ApiError::from(e)),
    }
}

fn profile_body(l: Locale, p: &Profile) -> Markup {
    html! {
        h1 { (p.display_name) }
        section aria-labelledby="ratings-h" {
            h2 id="ratings-h" { (t(l, "ratings")) }
            @if p.ratings.is_empty() {
                p.muted { (t(l, "no_ratings")) }
            } @else {
                div.scroll {
                    table {
                        thead { tr {
                            th scope="col" { (t(l, "game")) }
                            th scope="col" { (t(l, "rating")) }
                            th scope="col" { (t(l, "deviation")) }
                            th scope="col" { (t(l, "games_rated")) }
                        } }
                        tbody {
                            @for (kind, r) in &p.ratings { (rating_row(l, kind, r)) }
                        }
                    }
                }
            }
        }
        section aria-labelledby="results-h" {
            h2 id="results-h" { (t(l, "recent_results")) }
            @if p.recent_results.is_empty() {
                p.muted { "—" }
            } @else {
                ul.plain {
                    @for r in &p.recent_results { (result_item(l, r)) }
                }
            }
        }
    }
}

fn rating_row(l: Locale, kind: &str, r: &RatingView) -> Markup {
    html! {
        tr {
            th scope="row" { a href={ "/ratings/" (kind) } { (kind_name(kind)) } }
            td {
                (rating_text(r.rating, r.provisional))
                @if r.provisional { " " span.muted { "(" (t(l, "provisional")) ")" } }
            }
            td { (format!("{:.0}", r.deviation)) }
            td { (r.games) }
        }
    }
}

fn result_item(l: Locale, r: &RecentResult) -> Markup {
    let reason = match r.reason.as_str() {
        "resigned" => t(l, "by_resignation"),
        "timeout" => t(l, "on_time"),
        _ => t(l, "status_finished"),
    };
    html! {
        li {
            a href={ "/play/" (r.game_id) } { (kind_name(&r.kind)) }
            " · "
            (t(l, "place_of").replace("{p}", &r.place.to_string()).replace("{n}", &r.seats.to_string()))
            " · " (reason)
            " · " time datetime=(r.finished_at.to_rfc3339()) { (r.finished_at.format("%Y-%m-%d")) }
            @if let Some(change) = r.rating_change {
                " · " strong { (format!("{change:+.1}")) }
            }
        }
    }
}

/// `GET /ratings/{kind}[?offset=N]`.
pub async fn leaderboard_page(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<String>,
    query: Query,
) -> HttpResponse {
    let chrome = chrome(&state, &req).await;
    let kind = path.into_inner();
    let page_of = query
        .get("offset")
        .map_or(Ok(0), str::parse::<u32>)
        .ok()
        .and_then(|offset| {
            PageQuery {
                limit: Some(PAGE_ROWS),
                offset: Some(offset),
            }
            .page()
            .ok()
        });
    let Some(chosen) = page_of else {
        // Named with what it takes, never repeated: 400, as every page's refused parameter.
        let refused = Unaccepted {
            field: "offset",
            accepts: Accepts::range(&(0..=MAX_OFFSET)),
        };
        return actix_web::ResponseError::error_response(&refused.page(&chrome));
    };
    let wanted = kind.clone();
    let found = crate::db::run(&state.pool, move |conn| {
        ratings::leaderboard(conn, &wanted, chosen)
    })
    .await;
    match found {
        Ok(rows) => {
            let title = format!("{} · {}", t(chrome.locale, "leaderboard"), kind_name(&kind));
            let body = leaderboard_body(chrome.locale, &title, &kind, chosen, &rows);
            respond(StatusCode::OK, page(&chrome, &title, body))
        }
        Err(e) => error_page(&chrome, &ApiError::from(e)),
    }
}

fn leaderboard_body(
    l: Locale,
    title: &str,
    kind: &str,
    at: Page,
    rows: &[LeaderboardEntry],
) -> Markup {
    let full = u32::try_from(rows.len()).is_ok_and(|n| n == at.limit);
    html! {
        h1 { (title) }
        @if rows.is_empty() {
            p.muted { (t(l, "no_leaders")) }
        } @else {
            div.scroll {
                table {
                    thead { tr {
                        th scope="col" { (t(l, "rank")) }
                        th scope="col" { (t(l, "player")) }
                        th scope="col" { (t(l, "rating")) }
                        th scope="col" { (t(l, "deviation")) }
                        th scope="col" { (t(l, "games_rated")) }
                    } }
                    tbody {
                        @for r in rows {
                            tr {
                                td { (r.rank) }
                                td { a href={ "/players/" (r.player.id) } { (r.player.display_name) } }
                                td { (format!("{:.0}", r.rating)) }
                                td { (format!("{:.0}", r.deviation)) }
                                td { (r.games) }
                            }
                        }
                    }
                }
            }
        }
        nav aria-label=(t(l, "leaderboard")) {
            @if at.offset > 0 {
                a href={ "/ratings/" (kind) "?offset=" (at.offset.saturating_sub(at.limit)) } { (t(l, "previous_page")) }
                " "
            }
            @if full {
                a href={ "/ratings/" (kind) "?offset=" (at.offset.saturating_add(at.limit)) } { (t(l, "next_page")) }
            }
        }
    }
}
