//! Clocks (design.md section 14): what a game's `clock` is, how a client's clock is checked, and
//! the arithmetic of deadlines and Fischer banks. The deadlines themselves are written by the
//! game write path (`services::games::write`) and enforced by the worker
//! (`services::games::time_out_due`).

use crate::error::ApiError;
use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

/// Per move, 3 days: the clock of a game created without one.
pub const DEFAULT_PER_MOVE_SECONDS: i64 = 3 * 24 * 3600;
/// Consecutive timeouts before a seat of a 3+ seat game is dropped, unless the clock says.
pub const DEFAULT_DROP_AFTER: u32 = 3;
/// The longest allowance a clock may give (a year): beyond it a deadline means nothing.
pub const MAX_SECONDS: i64 = 365 * 24 * 3600;
/// The most consecutive timeouts a clock may tolerate before dropping a seat.
pub const MAX_DROP_AFTER: u32 = 100;

/// A game's time control, as stored and shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Clock {
    #[serde(flatten)]
    pub control: Control,
    /// Consecutive timeouts before a seat of a 3+ seat game is dropped (its decisions are then
    /// made by default at once and it ranks last). From 1 to 100; 3 when absent.
    #[serde(default = "default_drop_after")]
    #[schema(minimum = 1, maximum = 100)]
    pub drop_after: u32,
    /// Whether a player's vacation holds off their deadlines in this game.
    #[serde(default = "yes")]
    pub vacation_allowed: bool,
}

fn yes() -> bool {
    true
}

/// How time is allowed for each decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Control {
    /// No deadline: the game waits as long as it takes.
    #[schema(title = "NoClock")]
    None,
    /// The same allowance for every decision (Lichess correspondence).
    #[schema(title = "PerMove")]
    PerMove {
        /// At least the server's `CLOCK_MIN_SECONDS` (3600 unless configured, never under 1),
        /// at most a year.
        #[schema(minimum = 1, maximum = 31536000)]
        seconds: i64,
    },
    /// A bank per seat, charged while the seat is pending; each decision adds the increment,
    /// up to the maximum.
    #[schema(title = "Fischer")]
    Fischer {
        /// At least the server's `CLOCK_MIN_SECONDS` (3600 unless configured, never under 1),
        /// at most a year.
        #[schema(minimum = 1, maximum = 31536000)]
        initial_seconds: i64,
        /// At most a year.
        #[schema(minimum = 0, maximum = 31536000)]
        increment_seconds: i64,
        /// At least `initial_seconds`, at most a year.
        #[schema(minimum = 1, maximum = 31536000)]
        max_seconds: i64,
    },
}

fn default_drop_after() -> u32 {
    DEFAULT_DROP_AFTER
}

impl Default for Clock {
    fn default() -> Clock {
        Clock {
            control: Control::PerMove {
                seconds: DEFAULT_PER_MOVE_SECONDS,
            },
            drop_after: DEFAULT_DROP_AFTER,
            vacation_allowed: true,
        }
    }
}

/// A clock as a client may send it: every field checked by hand so that each refusal names its
/// field (`clock.seconds`), never serde's wording.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ClockRequest {
    #[serde(rename = "type")]
    kind: String,
    seconds: Option<Value>,
    initial_seconds: Option<Value>,
    increment_seconds: Option<Value>,
    max_seconds: Option<Value>,
    drop_after: Option<Value>,
    vacation_allowed: Option<Value>,
}

/// What sets the shortest allowance, as a refusal names it.
const MIN_SET_BY: &str = "this server's CLOCK_MIN_SECONDS";

impl Clock {
    /// Reads a client's `clock` (`None` for the default), refusing anything shorter than
    /// `min_seconds` (`CLOCK_MIN_SECONDS`).
    ///
    /// # Errors
    /// 422 `validation_failed` naming the field.
    pub fn from_request(clock: Option<&Value>, min_seconds: i64) -> Result<Clock, ApiError> {
        let Some(value) = clock.filter(|v| !v.is_null()) else {
            return Ok(Clock::default());
        };
        let bad = |what: String| ApiError::Validation(format!("clock{what}"));
        let request: ClockRequest = serde_json::from_value(value.clone()).map_err(|e| {
            bad(format!(
                ": {e}; a clock is {{\"type\": \"none\"}}, {{\"type\": \"per_move\", \"seconds\": N}} or {{\"type\": \"fischer\", \"initial_seconds\": N, \"increment_seconds\": N, \"max_seconds\": N}}"
            ))
        })?;
        // `floor` is the least value with what sets it, for the refusal.
        let seconds =
            |name: &str, v: &Option<Value>, floor: (i64, &str)| -> Result<i64, ApiError> {
                let (least, set_by) = floor;
                let v = v
                    .as_ref()
                    .ok_or_else(|| bad(format!(".{name}: required for this clock")))?;
                let n = v
                    .as_i64()
                    .ok_or_else(|| bad(format!(".{name}: a whole number of seconds, not {v}")))?;
                if n < least {
                    return Err(bad(format!(
                        ".{name}: at least {least} seconds ({set_by}), not {n}"
                    )));
                }
                if n > MAX_SECONDS {
                    return Err(bad(format!(
                        ".{name}: at most {MAX_SECONDS} seconds (a year), not {n}"
                    )));
                }
                Ok(n)
            };
        let unused = |name: &str, v: &Option<Value>| match v {
            Some(_) => Err(bad(format!(
                ".{name}: not used by a {:?} clock",
                request.kind
            ))),
            None => Ok(()),
        };
        let control = match request.kind.as_str() {
            "none" => {
                unused("seconds", &request.seconds)?;
                unused("initial_seconds", &request.initial_seconds)?;
                unused("increment_seconds", &request.increment_seconds)?;
                unused("max_seconds", &request.max_seconds)?;
                Control::None
            }
            "per_move" => {
                unused("initial_seconds", &request.initial_seconds)?;
                unused("increment_seconds", &request.increment_seconds)?;
                unused("max_seconds", &request.max_seconds)?;
                Control::PerMove {
                    seconds: seconds("seconds", &request.seconds, (min_seconds, MIN_SET_BY))?,
                }
            }
            "fischer" => {
                unused("seconds", &request.seconds)?;
                let initial = seconds(
                    "initial_seconds",
                    &request.initial_seconds,
                    (min_seconds, MIN_SET_BY),
                )?;
                let increment = seconds(
                    "increment_seconds",
                    &request.increment_seconds,
                    (0, "none can be taken away"),
                )?;
                // The bank may never be capped below what it starts with.
                let max = seconds(
                    "max_seconds",
                    &request.max_seconds,
                    (initial, "the initial_seconds the bank starts with"),
                )?;
                Control::Fischer {
                    initial_seconds: initial,
                    increment_seconds: increment,
                    max_seconds: max,
                }
            }
            other => {
                return Err(bad(format!(
                    ".type: \"none\", \"per_move\" or \"fischer\", not {other:?}"
                )));
            }
        };
        let drop_after = match &request.drop_after {
            None => DEFAULT_DROP_AFTER,
            Some(v) => v
                .as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .filter(|n| (1..=MAX_DROP_AFTER).contains(n))
                .ok_or_else(|| {
                    bad(format!(
                        ".drop_after: a whole number from 1 to {MAX_DROP_AFTER}, not {v}"
                    ))
                })?,
        };
        let vacation_allowed = match &request.vacation_allowed {
            None => true,
            Some(Value::Bool(b)) => *b,
            Some(v) => return Err(bad(format!(".vacation_allowed: true or false, not {v}"))),
        };
        Ok(Clock {
            control,
            drop_after,
            vacation_allowed,
        })
    }

    /// A stored clock; a game stored before clocks existed, or an unreadable one, has none.
    pub fn stored(value: &Value) -> Clock {
        serde_json::from_value(value.clone()).unwrap_or(Clock {
            control: Control::None,
            drop_after: DEFAULT_DROP_AFTER,
            vacation_allowed: true,
        })
    }

    pub fn to_json(self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// The bank a seat starts with (Fischer only).
    pub fn initial_bank(self) -> Option<i64> {
        match self.control {
            Control::Fischer {
                initial_seconds, ..
            } => Some(initial_seconds),
            _ => None,
        }
    }

    /// The bank after a decision that took `spent` (charged, then the increment, capped).
    pub fn bank_after(self, bank: Option<i64>, spent: Duration) -> Option<i64> {
        match self.control {
            Control::Fischer {
                initial_seconds,
                increment_seconds,
                max_seconds,
            } => {
                let bank = bank.unwrap_or(initial_seconds);
                let left = (bank - spent.num_seconds()).max(0);
                Some((left + increment_seconds).min(max_seconds))
            }
            _ => bank,
        }
    }

    /// The deadline of a decision that starts `now` with `bank` left.
    pub fn deadline(self, now: DateTime<Utc>, bank: Option<i64>) -> Option<DateTime<Utc>> {
        let seconds = match self.control {
            Control::None => return None,
            Control::PerMove { seconds } => seconds,
            Control::Fischer {
                initial_seconds, ..
            } => bank.unwrap_or(initial_seconds),
        };
        Some(now + Duration::seconds(seconds))
    }
}

/// Units for a time left: (one, many) per language.
pub const DAYS: [(&str, &str); 4] = [
    ("day", "days"),
    ("día", "días"),
    ("giorno", "giorni"),
    ("jour", "jours"),
];
pub const HOURS: [(&str, &str); 4] = [
    ("hour", "hours"),
    ("hora", "horas"),
    ("ora", "ore"),
    ("heure", "heures"),
];
pub const MINUTES: [(&str, &str); 4] = [
    ("minute", "minutes"),
    ("minuto", "minutos"),
    ("minuto", "minuti"),
    ("minute", "minutes"),
];
pub const SECONDS: [(&str, &str); 4] = [
    ("second", "seconds"),
    ("segundo", "segundos"),
    ("secondo", "secondi"),
    ("seconde", "secondes"),
];

/// A time left in words: its two largest units ("2 days 3 hours", "45 minutes", "3 seconds").
pub fn time_left(locale: crate::domain::Locale, seconds: i64) -> String {
    let i = locale.index();
    let s = seconds.max(0);
    let parts = [
        (s / 86_400, DAYS[i]),
        (s % 86_400 / 3600, HOURS[i]),
        (s % 3600 / 60, MINUTES[i]),
        (s % 60, SECONDS[i]),
    ];
    let words: Vec<String> = parts
        .iter()
        .skip_while(|(n, _)| *n == 0)
        .take(2)
        .filter(|(n, _)| *n > 0)
        .map(|(n, (one, many))| format!("{n} {}", if *n == 1 { one } else { many }))
        .collect();
    if words.is_empty() {
        format!("0 {}", SECONDS[i].1)
    } else {
        words.join(" ")
    }
}

/// A moment in an account's time zone (an unreadable zone name reads as UTC), to the minute.
pub fn local_time(zone: &str, at: DateTime<Utc>) -> String {
    let tz = zone.parse::<chrono_tz::Tz>().unwrap_or(chrono_tz::UTC);
    at.with_timezone(&tz)
        .format("%Y-%m-%d %H:%M %Z")
        .to_string()
}

/// An IANA time zone by name (`Europe/Madrid`, `UTC`), as accounts store it.
///
/// # Errors
/// 422 naming the field.
pub fn time_zone(name: &str) -> Result<chrono_tz::Tz, ApiError> {
    name.parse::<chrono_tz::Tz>().map_err(|_| {
        ApiError::Validation(format!(
            "time_zone: {name:?} is not an IANA time zone name such as \"Europe/Madrid\" or \"UTC\""
        ))
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(v: Value) -> Result<Clock, String> {
        Clock::from_request(Some(&v), 3600).map_err(|e| e.to_string())
    }

    #[test]
    fn time_zones_are_iana_names() {
        assert_eq!(time_zone("Europe/Madrid").unwrap().name(), "Europe/Madrid");
        assert!(
            time_zone("Mars/Olympus")
                .unwrap_err()
                .to_string()
                .contains("time_zone")
        );
        assert!(time_zone("").is_err());
    }

    #[test]
    fn absent_means_three_days_per_move() {
        let c = Clock::from_request(None, 3600).unwrap();
        assert_eq!(
            c.to_json(),
            json!({"type": "per_move", "seconds": 259200, "drop_after": 3, "vacation_allowed": true})
        );
    }

    #[test]
    fn every_refusal_names_its_field() {
        let cases = [
            (json!({"type": "per_move", "seconds": 0}), "clock.seconds"),
            (json!({"type": "per_move"}), "clock.seconds"),
            (json!({"type": "per_move", "seconds": "x"}), "clock.seconds"),
            (json!({"type": "hourglass"}), "clock.type"),
            (
                json!({"type": "fischer", "initial_seconds": 7200, "increment_seconds": 60, "max_seconds": 3600}),
                "clock.max_seconds: at least 7200 seconds (the initial_seconds",
            ),
            (
                json!({"type": "per_move", "seconds": 60}),
                "clock.seconds: at least 3600 seconds (this server's CLOCK_MIN_SECONDS)",
            ),
            (
                json!({"type": "fischer", "initial_seconds": 7200, "increment_seconds": -1, "max_seconds": 7200}),
                "clock.increment_seconds: at least 0 seconds (none can be taken away)",
            ),
            (
                json!({"type": "none", "seconds": 5}),
                "clock.seconds: not used",
            ),
            (json!({"type": "none", "drop_after": 0}), "clock.drop_after"),
            (json!({"type": "none", "tick": 1}), "unknown field"),
            (json!("fast"), "clock"),
        ];
        for (clock, says) in cases {
            let e = read(clock.clone()).unwrap_err();
            assert!(e.contains(says), "{clock} -> {e}");
        }
    }

    #[test]
    fn a_stored_clock_reads_back_and_an_old_game_has_none() {
        let c = read(json!({"type": "fischer", "initial_seconds": 3600, "increment_seconds": 600, "max_seconds": 7200, "drop_after": 2})).unwrap();
        assert_eq!(Clock::stored(&c.to_json()), c);
        assert_eq!(
            Clock::stored(&json!({"type": "none"})).control,
            Control::None
        );
    }

    #[test]
    fn a_fischer_bank_is_charged_then_incremented_up_to_its_cap() {
        let c = read(json!({"type": "fischer", "initial_seconds": 3600, "increment_seconds": 600, "max_seconds": 4000})).unwrap();
        assert_eq!(c.bank_after(Some(3600), Duration::seconds(100)), Some(4000));
        assert_eq!(
            c.bank_after(Some(3600), Duration::seconds(3000)),
            Some(1200)
        );
        assert_eq!(c.bank_after(Some(100), Duration::seconds(500)), Some(600));
        let now = Utc::now();
        assert_eq!(
            c.deadline(now, Some(1200)),
            Some(now + Duration::seconds(1200))
        );
        assert_eq!(
            Clock::stored(&json!({"type": "none"})).deadline(now, None),
            None
        );
    }
}
