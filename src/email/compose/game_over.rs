//! The result, the final score and the revealed seed: to every seat but the one whose action
//! ended the game.

use super::{Mail, SeatMail};
use crate::email::i18n;
use crate::present::join_names;
use serde_json::Value;

#[derive(Debug, Clone)]
pub struct GameOver {
    pub seat: SeatMail,
    pub winners: Vec<i16>,
    /// The seat's view of the finished game.
    pub view: Value,
    /// The stored outcome (`reason`, `timed_out`, scores...).
    pub outcome: Value,
    /// The seed in hex, public now that the game is over (design.md section 4), and the
    /// commitment published at the start.
    pub seed: String,
    pub commitment: String,
    pub fairness_url: String,
}

pub fn game_over(v: &GameOver) -> Mail {
    let seat = &v.seat;
    let locale = seat.to.locale;
    let mut doc = seat.doc();
    doc.paragraphs.push(who_won(v));
    if v.outcome["reason"] == "timeout" {
        let late = v.outcome["timed_out"]
            .as_i64()
            .or(v.outcome["resigned"].as_i64());
        if let Some(s) = late {
            doc.paragraphs.push(if s == i64::from(seat.seat) {
                i18n::pick(locale, &i18n::YOU_LOST_ON_TIME).to_owned()
            } else {
                let name = seat.table.name_of(s);
                i18n::fill(locale, &i18n::LOST_ON_TIME, &[("p", &name)])
            });
        }
    }
    let result = seat.result(&v.view, &v.outcome);
    if !result.is_empty() {
        doc.list_heading = Some(i18n::pick(locale, &i18n::FINAL_SCORE).to_owned());
        doc.list = result;
    }
    doc.after.push(i18n::fill(
        locale,
        &i18n::SEED,
        &[("seed", &v.seed), ("commitment", &v.commitment)],
    ));
    let id = seat.table.game.to_string();
    doc.after.push(i18n::fill(
        locale,
        &i18n::VERIFY,
        &[("url", &v.fairness_url), ("id", &id)],
    ));
    let subject = seat.fill(&i18n::OVER_SUBJECT, &[]);
    seat.write(&i18n::SEE_GAME, subject, doc)
}

/// "You won", "X won" or "X and Y share the win".
fn who_won(v: &GameOver) -> String {
    let locale = v.seat.to.locale;
    let names: Vec<String> = v
        .winners
        .iter()
        .map(|s| v.seat.table.name_of(i64::from(*s)))
        .collect();
    if v.winners.len() > 1 {
        i18n::fill(
            locale,
            &i18n::SHARED_WIN,
            &[("names", &join_names(&names, locale))],
        )
    } else if v.winners.contains(&v.seat.seat) {
        i18n::pick(locale, &i18n::YOU_WON).to_owned()
    } else {
        i18n::fill(
            locale,
            &i18n::OTHERS_WON,
            &[("names", &join_names(&names, locale))],
        )
    }
}
