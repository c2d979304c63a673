//! How a game reads to people, outside its pure engine: the sentence of each event, the final
//! result, the private reminder of a turn mail, in the four languages. Mails and pages both speak
//! through here: neither matches on a kind nor reads a game's event JSON by hand.
//!
//! A sentence is a list of [`Part`]s rather than a string, so that a mail writes a card as its
//! code and a page as the card with its suit icons, from the same words.

use crate::domain::Locale;
use serde_json::Value;

/// One text in the four languages (en, es, it, fr).
pub type T = [&'static str; 4];

pub fn pick(locale: Locale, t: &T) -> &'static str {
    match locale {
        Locale::En => t[0],
        Locale::Es => t[1],
        Locale::It => t[2],
        Locale::Fr => t[3],
    }
}

/// `t` in `locale` with each `{key}` replaced, and each `[one|other]` in the words resolved for
/// the number last put in before it (see [`Sentence::say`]).
pub fn fill(locale: Locale, t: &T, values: &[(&str, &str)]) -> String {
    let args = values
        .iter()
        .map(|(key, value)| (*key, Part::Text((*value).to_owned())))
        .collect();
    let mut out = String::new();
    for part in Sentence::say(locale, t, args).0 {
        if let Part::Text(text) = part {
            out.push_str(&text);
        }
    }
    out
}

/// A piece of a sentence.
#[derive(Debug, Clone, PartialEq)]
pub enum Part {
    Text(String),
    /// A player by seat.
    Seat(i64),
    /// Several players: `Ada, Bruno and Cleo`.
    Seats(Vec<i64>),
    /// A colour on the table: seat `f`, or past the seats the ally of seat `f - seats`
    /// (Lancaster's two-player allies).
    Faction(i64),
    /// A Decktet card by code.
    Card(String),
    /// Cards by code, `1M, 2V`.
    Cards(Vec<Part>),
    /// A suit by letter.
    Suit(String),
    /// A suit→count map (`{"V": 1}`).
    Tokens(Value),
    /// Sentences joined by `; `.
    List(Vec<Sentence>),
}

/// `words` with each `[one|other]` resolved for `count`: the first form for one (in French for
/// zero too, as French says "0 écuyer"), the second otherwise, and without a count.
fn forms(locale: Locale, words: &str, count: Option<u64>) -> String {
    let one = match (locale, count) {
        (Locale::Fr, Some(n)) => n <= 1,
        (_, Some(n)) => n == 1,
        (_, None) => false,
    };
    let mut out = String::with_capacity(words.len());
    let mut rest = words;
    while let Some(open) = rest.find('[') {
        let Some((choice, after)) = rest[open + 1..].split_once(']') else {
            break;
        };
        let Some((singular, plural)) = choice.split_once('|') else {
            out.push_str(&rest[..=open]);
            rest = &rest[open + 1..];
            continue;
        };
        out.push_str(&rest[..open]);
        out.push_str(if one { singular } else { plural });
        rest = after;
    }
    out.push_str(rest);
    out
}

/// Words and the things they name, ready to be written as plain text or as a page.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Sentence(pub Vec<Part>);

impl Sentence {
    /// The template `t` in `locale`, each `{key}` replaced by its part (a key without a part
    /// stays as written, so a missing argument shows instead of vanishing). A `[one|other]` in
    /// the words takes the form for the number last put in before it: `{n} [squire|squires]`.
    pub fn say(locale: Locale, t: &T, args: Vec<(&str, Part)>) -> Sentence {
        let mut parts = Vec::new();
        let mut rest = pick(locale, t);
        let mut count: Option<u64> = None;
        while let Some(open) = rest.find('{') {
            let Some(close) = rest[open..].find('}').map(|c| open + c) else {
                break;
            };
            let key = &rest[open + 1..close];
            // A key may stand more than once.
            match args.iter().find(|(k, _)| *k == key) {
                Some((_, part)) => {
                    if open > 0 {
                        parts.push(Part::Text(forms(locale, &rest[..open], count)));
                    }
                    if let Part::Text(text) = part {
                        count = text.trim().parse().ok().or(count);
                    }
                    parts.push(part.clone());
                }
                None => parts.push(Part::Text(rest[..=close].to_owned())),
            }
            rest = &rest[close + 1..];
        }
        if !rest.is_empty() {
            parts.push(Part::Text(forms(locale, rest, count)));
        }
        Sentence(parts)
    }

    pub fn text(text: impl Into<String>) -> Sentence {
        Sentence(vec![Part::Text(text.into())])
    }

    /// As plain text (mails), with the players' names.
    pub fn plain(&self, names: &Names<'_>) -> String {
        let mut out = String::new();
        for part in &self.0 {
            match part {
                Part::Text(s) | Part::Card(s) | Part::Suit(s) => out.push_str(s),
                Part::Seat(s) => out.push_str(&names.seat(*s)),
                Part::Seats(seats) => out.push_str(&names.several(seats)),
                Part::Faction(f) => out.push_str(&names.faction(*f)),
                Part::Tokens(t) => out.push_str(&tokens_text(names.locale, t)),
                Part::Cards(cards) => {
                    let texts: Vec<String> = cards
                        .iter()
                        .map(|c| Sentence(vec![c.clone()]).plain(names))
                        .collect();
                    out.push_str(&texts.join(", "));
                }
                Part::List(items) => {
                    let texts: Vec<String> = items.iter().map(|s| s.plain(names)).collect();
                    out.push_str(&texts.join("; "));
                }
            }
        }
        out
    }
}

/// The players of one game by seat, for one reader's language.
pub struct Names<'a> {
    pub locale: Locale,
    pub names: &'a [String],
}

impl Names<'_> {
    pub fn seat(&self, seat: i64) -> String {
        usize::try_from(seat)
            .ok()
            .and_then(|s| self.names.get(s))
            .cloned()
            .unwrap_or_else(|| format!("#{seat}"))
    }

    pub fn several(&self, seats: &[i64]) -> String {
        let names: Vec<String> = seats.iter().map(|s| self.seat(*s)).collect();
        join_names(&names, self.locale)
    }

    pub fn faction(&self, faction: i64) -> String {
        let seats = i64::try_from(self.names.len()).unwrap_or(i64::MAX);
        if faction < seats {
            self.seat(faction)
        } else {
            fill(self.locale, &ALLY_OF, &[("p", &self.seat(faction - seats))])
        }
    }
}

/// `Ada, Bruno and Cleo`.
pub fn join_names(names: &[String], locale: Locale) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} {} {last}", init.join(", "), pick(locale, &AND)),
    }
}

/// A token map (`{"V": 1, "L": 3}`) as `V×1, L×3`: never `1V`, which reads as a card code.
pub fn tokens_text(locale: Locale, value: &Value) -> String {
    let parts: Vec<String> = value
        .as_object()
        .map(|m| {
            m.iter()
                .filter(|(_, n)| n.as_u64().is_some_and(|n| n > 0))
                .map(|(suit, n)| format!("{suit}×{n}"))
                .collect()
        })
        .unwrap_or_default();
    if parts.is_empty() {
        pick(locale, &NOTHING).to_owned()
    } else {
        parts.join(", ")
    }
}

/// A game's words: implemented by each game beside its engine (never inside it).
pub trait Present {
    /// The line for one event a reader may see; `None` for events not worth a line. Events
    /// every game shares (resigned, timed out) are said here once and never reach the game.
    fn event(locale: Locale, event: &Value) -> Option<Sentence>;

    /// The final result below "Final score": one line per player, from the finished game's
    /// public view and its outcome.
    fn result(locale: Locale, view: &Value, outcome: &Value) -> Vec<Sentence>;

    /// What a turn mail reminds the reader of, from their own view (their hand, their
    /// supplies): only what `seat` may see.
    fn reminder(_locale: Locale, _view: &Value, _seat: usize) -> Vec<Sentence> {
        Vec::new()
    }

    /// Whether `seat` is asked to decide outside a turn of their own (a vote, a defence), so
    /// that the mail says "you must decide" rather than "your move".
    fn deciding(view: &Value, seat: usize, pending: usize) -> bool;

    /// The game's rules page; `None` for a game without one.
    fn rules() -> Option<&'static RulesPage> {
        None
    }

    /// What a `{{key}}` of the rules page's text says in `locale` (a card's, a county's or a
    /// law's name, a table); `None` leaves it as written.
    fn rules_name(_locale: Locale, _key: &str) -> Option<String> {
        None
    }
}

/// A game's rules page: its text in each language and the rule families it explains.
#[derive(Debug)]
pub struct RulesPage {
    /// Markdown in en, es, it, fr, with `{#FAMILY}` anchors and `{{key}}` names the game fills.
    pub texts: [&'static str; 4],
    /// The prefixes of its rule IDs (`MAG`; Lancaster's data tables are `DAT`).
    pub prefixes: &'static [&'static str],
    /// Every rule family of the game's spec: each has an anchor in every language.
    pub families: &'static [&'static str],
}

/// The line for `event` in any game: the shared events first, then `G`'s own.
pub fn event_line<G: Present>(locale: Locale, event: &Value) -> Option<Sentence> {
    let seat = || Part::Seat(event["seat"].as_i64().unwrap_or(-1));
    match event["type"].as_str().unwrap_or("") {
        "timed_out" => Some(Sentence::say(locale, &TIMED_OUT, vec![("p", seat())])),
        "resigned" => Some(Sentence::say(locale, &RESIGNED, vec![("p", seat())])),
        "game_over" => {
            let winners: Vec<i64> = event["outcome"]["winners"]
                .as_array()
                .map(|a| a.iter().filter_map(Value::as_i64).collect())
                .unwrap_or_default();
            Some(Sentence::say(
                locale,
                &GAME_OVER,
                vec![("names", Part::Seats(winners))],
            ))
        }
        _ => G::event(locale, event).or_else(|| Some(other_event(locale, event))),
    }
}

/// An event the game has no sentence for: its type in words, so nothing is silently lost.
pub fn other_event(locale: Locale, event: &Value) -> Sentence {
    let what = event["type"].as_str().unwrap_or("?").replace('_', " ");
    match event["seat"].as_i64() {
        Some(s) => Sentence::say(
            locale,
            &OTHER_EVENT,
            vec![("p", Part::Seat(s)), ("what", Part::Text(what))],
        ),
        None => Sentence::text(what),
    }
}

pub const AND: T = ["and", "y", "e", "et"];
pub const NOTHING: T = ["nothing", "nada", "niente", "rien"];
pub const ALLY_OF: T = [
    "the ally of {p}",
    "el aliado de {p}",
    "l'alleato di {p}",
    "l'allié de {p}",
];
pub const RESIGNED: T = [
    "{p} resigned.",
    "{p} abandonó.",
    "{p} ha abbandonato.",
    "{p} a abandonné.",
];
pub const TIMED_OUT: T = [
    "{p} ran out of time.",
    "A {p} se le acabó el tiempo.",
    "{p} ha esaurito il tempo.",
    "{p} a dépassé son temps.",
];
pub const GAME_OVER: T = [
    "Game over: {names} won.",
    "Fin de la partida: ganó {names}.",
    "Partita finita: ha vinto {names}.",
    "Partie terminée : {names} a gagné.",
];
pub const OTHER_EVENT: T = ["{p}: {what}", "{p}: {what}", "{p}: {what}", "{p} : {what}"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_template_becomes_parts_and_reads_back_as_text() {
        let names = ["Ada".to_owned(), "Bruno".to_owned()];
        let n = Names {
            locale: Locale::En,
            names: &names,
        };
        const T1: T = ["{p} sold {card} for {t}.", "", "", ""];
        let s = Sentence::say(
            Locale::En,
            &T1,
            vec![
                ("card", Part::Card("1M".into())),
                ("p", Part::Seat(1)),
                ("t", Part::Tokens(serde_json::json!({"M": 1, "S": 0}))),
            ],
        );
        assert_eq!(s.0[0], Part::Seat(1));
        assert_eq!(s.plain(&n), "Bruno sold 1M for M×1.");
        assert_eq!(n.faction(3), "the ally of Bruno");
        assert_eq!(n.several(&[0, 1]), "Ada and Bruno");
        const T2: T = ["{missing} stays", "", "", ""];
        assert_eq!(
            Sentence::say(Locale::En, &T2, vec![]).plain(&n),
            "{missing} stays"
        );
    }

    /// `[one|other]` follows the number put in last before it, by each language's rule (French
    /// says "0 écuyer"); words in brackets without a choice stay as written.
    #[test]
    fn a_counted_word_takes_its_singular_for_one() {
        const SQUIRES: T = [
            "{p} placed {n} [squire|squires] [sic] and {m} [knight|knights].",
            "{n} [escudero|escuderos]",
            "{n} [scudiero|scudieri]",
            "{n} [écuyer|écuyers]",
        ];
        let names = ["Ada".to_owned()];
        let said = |locale: Locale, n: &str, m: &str| {
            let args = vec![
                ("p", Part::Seat(0)),
                ("n", Part::Text(n.to_owned())),
                ("m", Part::Text(m.to_owned())),
            ];
            let names = Names {
                locale,
                names: &names,
            };
            Sentence::say(locale, &SQUIRES, args).plain(&names)
        };
        assert_eq!(
            said(Locale::En, "1", "2"),
            "Ada placed 1 squire [sic] and 2 knights."
        );
        assert_eq!(
            said(Locale::En, "0", "1"),
            "Ada placed 0 squires [sic] and 1 knight."
        );
        assert_eq!(said(Locale::Es, "1", "0"), "1 escudero");
        assert_eq!(said(Locale::Es, "3", "0"), "3 escuderos");
        assert_eq!(said(Locale::It, "1", "0"), "1 scudiero");
        assert_eq!(said(Locale::Fr, "0", "0"), "0 écuyer");
        assert_eq!(said(Locale::Fr, "2", "0"), "2 écuyers");
    }
}
