//! Time on the pages (design.md section 14): a game's clock and each seat's deadline with the
//! time left, in the reader's time zone; the same words for every game.

use super::i18n::t;
use super::layout::Chrome;
use crate::services::clocks::{Clock, Control, local_time, time_left};
use crate::services::games::{GameResource, GameStatus};
use chrono::{DateTime, Utc};
use maud::{Markup, html};

/// "until 2026-11-28 05:26 CET (2 days 23 hours left)", as a `<time>` element.
pub fn deadline(chrome: &Chrome, at: DateTime<Utc>) -> Markup {
    let l = chrome.locale;
    let text = t(l, "deadline_left")
        .replace("{when}", &local_time(&chrome.time_zone, at))
        .replace("{left}", &time_left(l, (at - Utc::now()).num_seconds()));
    html! { time datetime=(at.to_rfc3339()) { (text) } }
}

pub(super) fn describe(chrome: &Chrome, clock: &Clock) -> String {
    let l = chrome.locale;
    match clock.control {
        Control::None => t(l, "no_clock").to_owned(),
        Control::PerMove { seconds } => t(l, "per_move").replace("{t}", &time_left(l, seconds)),
        Control::Fischer {
            initial_seconds,
            increment_seconds,
            max_seconds,
        } => t(l, "fischer")
            .replace("{t}", &time_left(l, initial_seconds))
            .replace("{i}", &time_left(l, increment_seconds))
            .replace("{m}", &time_left(l, max_seconds)),
    }
}

/// The clock of a started game: its time control, then each seat with its deadline (when it is
/// pending), bank, timeouts in a row, whether it was dropped, and whether its player is away.
pub fn panel(chrome: &Chrome, game: &GameResource) -> Markup {
    let l = chrome.locale;
    if game.status != GameStatus::Active {
        return html! {};
    }
    html! {
        section.clock aria-labelledby="clock-heading" {
            h2 id="clock-heading" { (t(l, "clock")) }
            p { (describe(chrome, &game.clock)) }
            ul.plain {
                @for seat in &game.seats {
                    li {
                        (seat.player.as_ref().map_or("…", |p| p.display_name.as_str()))
                        (super::history::rating_note(seat))
                        @if let Some(at) = seat.deadline { ": " (deadline(chrome, at)) }
                        @if let Some(bank) = seat.bank_seconds {
                            " · " (t(l, "bank").replace("{t}", &time_left(l, bank)))
                        }
                        @if seat.timeouts > 0 {
                            " · " (t(l, "timeouts").replace("{n}", &seat.timeouts.to_string()))
                        }
                        @if seat.dropped { " · " (t(l, "dropped")) }
                        @if seat.on_vacation {
                            " · "
                            (t(l, if game.clock.vacation_allowed && !seat.dropped { "away_held" } else { "away_running" }))
                        }
                    }
                }
            }
        }
    }
}
