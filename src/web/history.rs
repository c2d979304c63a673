//! The game page's history and title for every game: the sentences come from the game's words
//! ([`crate::present`]), the same the mails use; a game's page module only says how its own
//! things (a card, a suit) look.

use super::i18n::t;
use super::play::GamePage;
use crate::engine::registry::GameKind;
use crate::present::{Names, Part, Sentence};
use maud::{Markup, html};

/// How a game's page draws the parts only it knows (cards, suits, tokens); `None` writes the
/// part as text.
pub type DrawPart<'a> = &'a dyn Fn(&Part) -> Option<Markup>;

/// Display names by seat (an empty seat as "seat N").
pub fn seat_names(p: &GamePage) -> Vec<String> {
    p.game
        .seats
        .iter()
        .enumerate()
        .map(|(i, s)| {
            s.player.as_ref().map_or_else(
                || format!("{} {i}", t(p.locale, "seat")),
                |pl| pl.display_name.clone(),
            )
        })
        .collect()
}

/// A seat's rating to show beside its name, e.g. ` (1662?)` (`?` while provisional); empty
/// for a player without a rating in the game's kind.
pub fn rating_note(seat: &crate::services::games::SeatResource) -> String {
    seat.rating.as_ref().map_or_else(String::new, |r| {
        format!(
            " ({})",
            super::players::rating_text(r.rating, r.provisional)
        )
    })
}

/// The page title: the game's name and its players.
pub fn title(p: &GamePage) -> String {
    let game = GameKind::parse(&p.game.kind).map_or("?", |k| k.info().name);
    let names: Vec<String> = p
        .game
        .seats
        .iter()
        .map(|s| {
            s.player
                .as_ref()
                .map_or("…".to_owned(), |pl| pl.display_name.clone())
        })
        .collect();
    format!("{game}: {}", names.join(" – "))
}

/// One sentence as markup.
pub fn sentence(p: &GamePage, s: &Sentence, draw: DrawPart<'_>) -> Markup {
    let names = seat_names(p);
    let names = Names {
        locale: p.locale,
        names: &names,
    };
    html! {
        @for part in &s.0 {
            @if let Some(m) = draw(part) {
                (m)
            } @else {
                @match part {
                    Part::List(items) => {
                        @for (i, item) in items.iter().enumerate() {
                            @if i > 0 { "; " }
                            (sentence(p, item, draw))
                        }
                    }
                    Part::Cards(cards) => {
                        @for (i, c) in cards.iter().enumerate() {
                            @if i > 0 { ", " }
                            (sentence(p, &Sentence(vec![c.clone()]), draw))
                        }
                    }
                    other => (Sentence(vec![other.clone()]).plain(&names)),
                }
            }
        }
    }
}

/// The last 40 actions with what they did, newest first.
pub fn history(p: &GamePage, draw: DrawPart<'_>) -> Markup {
    let l = p.locale;
    let kind = GameKind::parse(&p.game.kind);
    let names = seat_names(p);
    html! {
        section aria-labelledby="history-h" {
            h2 id="history-h" { (t(l, "history")) }
            ol.plain.history reversed {
                @for h in p.history.iter().rev().take(40) {
                    li {
                        @if h.seq == 0 {
                            strong { (t(l, "setup")) }
                        } @else {
                            strong { (h.seq) ". " }
                            @if let Some(name) = h.seat.and_then(|s| names.get(usize::from(s))) { (name) " " }
                            @if let Some(n) = h.action.as_ref().and_then(|a| a["notation"].as_str()) { code { (n) } }
                        }
                        ul {
                            @for e in &h.events {
                                @if let Some(s) = kind.and_then(|k| k.event_line(l, e)) {
                                    li { (sentence(p, &s, draw)) }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
