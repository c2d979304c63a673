//! `GET /archive`: finished games for anyone, newest first, by game and by player, each linking
//! to its page (readable without signing in once a game is over).

use super::extract::{Accepts, PageError, Params, Reader, Unaccepted, db};
use super::i18n::t;
use super::layout::{Chrome, page, respond};
use crate::domain::UserId;
use crate::engine::registry::GameKind;
use crate::services::games::archive::{ArchiveFilter, ArchivedGame, archive};
use crate::state::AppState;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use maud::html;
use serde::Deserialize;

/// Games per page.
const PAGE_ROWS: i64 = 50;

/// The page numbers a query may ask for (the archive's offset stays one an index can reach).
const PAGES: std::ops::RangeInclusive<u32> = 1..=10_000;

#[derive(Debug, Deserialize)]
pub struct ArchiveQuery {
    kind: Option<String>,
    player: Option<String>,
    /// A word here is refused before the handler runs (`extract::Params`), naming `page`.
    page: Option<u32>,
}

/// The filter a query asks for, or the parameter it gives a value not taken.
fn filter(q: &ArchiveQuery) -> Result<(ArchiveFilter, i64), Unaccepted> {
    let kind = match q.kind.as_deref().filter(|k| !k.is_empty()) {
        None => None,
        Some(k) => Some(
            GameKind::parse(k)
                .map(|k| k.as_str().to_owned())
                .ok_or_else(|| Unaccepted {
                    field: "kind",
                    accepts: Accepts::OneOf(GameKind::ALL.iter().map(|k| k.as_str()).collect()),
                })?,
        ),
    };
    let player = match q.player.as_deref().filter(|p| !p.is_empty()) {
        None => None,
        Some(p) => Some(UserId(p.parse().map_err(|_| Unaccepted {
            field: "player",
            accepts: Accepts::Described("accepts_player_id"),
        })?)),
    };
    let page = match q.page {
        None => 1,
        Some(p) if PAGES.contains(&p) => i64::from(p),
        Some(_) => {
            return Err(Unaccepted {
                field: "page",
                accepts: Accepts::range(&PAGES),
            });
        }
    };
    let filter = ArchiveFilter {
        kind,
        player,
        limit: PAGE_ROWS,
        offset: (page - 1) * PAGE_ROWS,
    };
    Ok((filter, page))
}

/// `GET /archive?kind=&player=&page=`.
pub async fn archive_page(
    state: web::Data<AppState>,
    reader: Reader,
    query: Params<ArchiveQuery>,
) -> Result<HttpResponse, PageError> {
    let chrome = reader.chrome;
    let l = chrome.locale;
    let (filter, page_no) = filter(&query).map_err(|refused| refused.page(&chrome))?;
    let (kind, player) = (filter.kind.clone(), filter.player);
    let games = db(&state, &chrome, move |conn| archive(conn, &filter)).await?;
    Ok(respond(
        StatusCode::OK,
        page(
            &chrome,
            t(l, "archive"),
            listing(&chrome, &games, kind.as_deref(), player, page_no),
        ),
    ))
}

/// The filter form, the games and the links to the next pages.
fn listing(
    chrome: &Chrome,
    games: &[ArchivedGame],
    kind: Option<&str>,
    player: Option<UserId>,
    page_no: i64,
) -> maud::Markup {
    let l = chrome.locale;
    let here = |page: i64| {
        let mut q = vec![format!("page={page}")];
        if let Some(k) = kind {
            q.push(format!("kind={k}"));
        }
        if let Some(p) = player {
            q.push(format!("player={}", p.0));
        }
        format!("/archive?{}", q.join("&"))
    };
    html! {
        h1 { (t(l, "archive")) }
        form.filters method="get" action="/archive" {
            label for="archive-kind" { (t(l, "game")) }
            " "
            select id="archive-kind" name="kind" {
                option value="" { (t(l, "all_games")) }
                @for k in GameKind::ALL {
                    option value=(k.as_str()) selected[kind == Some(k.as_str())] { (k.info().name) }
                }
            }
            @if let Some(p) = player { input type="hidden" name="player" value=(p.0); }
            " "
            button type="submit" { (t(l, "show")) }
            @if player.is_some() { " " a href="/archive" { (t(l, "all_players")) } }
        }
        @if games.is_empty() { p { (t(l, "archive_empty")) } }
        ul.plain {
            @for g in games {
                @let winners: Vec<usize> = g.outcome.as_ref().and_then(|o| o["winners"].as_array()).map(|w| w.iter().filter_map(|s| s.as_u64().map(|s| s as usize)).collect()).unwrap_or_default();
                li.card data-game=(g.id) {
                    a href={ "/play/" (g.id) } { strong { (GameKind::parse(&g.kind).map_or("?", |k| k.info().name)) } }
                    " · "
                    @for (i, s) in g.seats.iter().enumerate() {
                        @if i > 0 { ", " }
                        @if let Some(p) = &s.player {
                            a href={ "/archive?player=" (p.id) } { (p.display_name) }
                            @if winners.contains(&i) { " (" (t(l, "winner")) ")" }
                        }
                    }
                    @if let Some(at) = g.finished_at {
                        " · " span.muted { (crate::services::clocks::local_time(&chrome.time_zone, at)) }
                    }
                }
            }
        }
        p {
            @if page_no > 1 { a href=(here(page_no - 1)) { "← " (t(l, "newer")) } " " }
            @if games.len() as i64 == PAGE_ROWS { a href=(here(page_no + 1)) { (t(l, "older")) " →" } }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(kind: &str, player: &str, page: Option<u32>) -> ArchiveQuery {
        let some = |s: &str| (!s.is_empty()).then(|| s.to_owned());
        ArchiveQuery {
            kind: some(kind),
            player: some(player),
            page,
        }
    }

    #[test]
    fn a_bad_filter_names_its_parameter_and_what_it_takes() {
        let refused = |q: ArchiveQuery| filter(&q).expect_err("refused");
        let kind = refused(q("chess", "", None));
        assert_eq!(kind.field, "kind");
        assert!(matches!(&kind.accepts, Accepts::OneOf(k) if k.contains(&"lancaster")));
        assert_eq!(refused(q("", "nobody", None)).field, "player");
        for page in [0, 10_001] {
            let refused = refused(q("", "", Some(page)));
            assert_eq!(refused.field, "page");
            assert_eq!(refused.accepts, Accepts::Range(1, 10_000));
        }
        let (f, page) = filter(&q("lancaster", "", Some(3))).unwrap();
        assert_eq!(
            (f.kind.as_deref(), f.offset, page),
            (Some("lancaster"), 100, 3)
        );
    }
}
