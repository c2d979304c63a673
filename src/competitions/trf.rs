//! TRF-16, FIDE's Tournament Report File (C.04 Annex 2), for a Swiss event, so that a FIDE
//! pairing checker can verify our pairings.
//!
//! Tournament lines `012` (name), `022` (city), `032` (federation), `042`/`052` (dates), `062`
//! (players), `072` (rated players), `092` (type), `102` (chief arbiter) and the JaVaFo extension
//! `XXR` (number of rounds), then one `001` line per entrant in pairing-number order:
//!
//! ```text
//! cols  1-3 001 | 5-8 starting rank | 10 sex | 11-13 title | 15-47 name | 49-52 rating
//!       54-56 federation | 58-68 FIDE id | 70-79 birth date | 81-84 points | 86-89 rank
//! per round r, from col 92 + 10(r-1): 4 opponent (0000 for a bye), 1 blank, colour w/b/-,
//! 1 blank, result (1 = 0 + - U F H Z; blank while unfinished)
//! ```
//! Lines end with CR LF (the format asks for a CR at the end of every line).

use super::standings::Standing;
use super::{ByeKind, ByeRecord, Entrant, GameRecord, GameResult};
use serde::{Deserialize, Serialize};

/// The tournament section.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TrfHeader {
    pub name: String,
    pub city: String,
    pub federation: String,
    /// `YYYY/MM/DD`.
    pub start_date: String,
    pub end_date: String,
    pub chief_arbiter: String,
    pub rounds: u32,
}

/// The TRF-16 file. `entrants` in pairing-number order (starting rank 1 first); `standings` give
/// the points and ranks.
pub fn trf16(
    header: &TrfHeader,
    entrants: &[Entrant],
    games: &[GameRecord],
    byes: &[ByeRecord],
    standings: &[Standing],
) -> String {
    let mut lines = vec![
        format!("012 {}", one_line(&header.name)),
        format!("022 {}", one_line(&header.city)),
        format!("032 {}", one_line(&header.federation)),
        format!("042 {}", one_line(&header.start_date)),
        format!("052 {}", one_line(&header.end_date)),
        format!("062 {}", entrants.len()),
        format!(
            "072 {}",
            entrants.iter().filter(|e| e.rating.is_some()).count()
        ),
        "092 Individual: Swiss-System (Dutch)".to_string(),
        format!("102 {}", one_line(&header.chief_arbiter)),
        format!("XXR {}", header.rounds),
    ];
    let rank_of = |id| entrants.iter().position(|e| e.id == id).map(|i| i + 1);
    let last_round = games
        .iter()
        .map(|g| g.round)
        .chain(byes.iter().map(|b| b.round))
        .max()
        .unwrap_or(0);
    for (i, e) in entrants.iter().enumerate() {
        let row = standings.iter().find(|s| s.entrant == e.id);
        let points = row.map(|r| r.tally.points).unwrap_or_default();
        let rank = row.map(|r| r.rank.to_string()).unwrap_or_default();
        let rating = e.rating.map(|r| r.to_string()).unwrap_or_default();
        let mut line = format!(
            "001 {:>4} {:1}{:>3} {:<33} {:>4} {:>3} {:>11} {:>10} {:>4} {:>4}",
            i + 1,
            "",
            "",
            name_field(&e.name),
            rating,
            "",
            "",
            "",
            points.one_decimal(),
            rank,
        );
        for round in 1..=last_round {
            line.push_str("  ");
            line.push_str(&round_block(e.id, round, games, byes, &rank_of));
        }
        lines.push(line.trim_end().to_string());
    }
    let mut out = lines.join("\r\n");
    out.push_str("\r\n");
    out
}

/// The 8 characters of one round: opponent, colour, result.
fn round_block(
    me: u32,
    round: u32,
    games: &[GameRecord],
    byes: &[ByeRecord],
    rank_of: &dyn Fn(u32) -> Option<usize>,
) -> String {
    let game = games
        .iter()
        .find(|g| g.round == round && g.seats.contains(&me));
    if let Some(g) = game {
        let seat = g.seat_of(me).unwrap_or(0);
        let opponent = g.seats.iter().find(|s| **s != me).copied();
        let number = opponent.and_then(rank_of).unwrap_or(0);
        let colour = if seat == 0 { 'w' } else { 'b' };
        let result = match &g.result {
            GameResult::Pending => ' ',
            GameResult::Played { places, .. } => {
                let mine = places.get(seat).copied().unwrap_or(u32::MAX);
                let theirs = places.get(1 - seat.min(1)).copied().unwrap_or(u32::MAX);
                match mine.cmp(&theirs) {
                    std::cmp::Ordering::Less => '1',
                    std::cmp::Ordering::Equal => '=',
                    std::cmp::Ordering::Greater => '0',
                }
            }
            GameResult::Forfeit { absent } => {
                if absent.get(seat).copied().unwrap_or(true) {
                    '-'
                } else {
                    '+'
                }
            }
        };
        return format!("{number:04} {colour} {result}");
    }
    let code = match byes.iter().find(|b| b.round == round && b.entrant == me) {
        Some(b) => match b.kind {
            ByeKind::PairingAllocated => 'U',
            ByeKind::Full => 'F',
            ByeKind::Half => 'H',
            ByeKind::Zero => 'Z',
        },
        None => 'Z',
    };
    format!("0000 - {code}")
}

/// Names fit 33 columns; control characters would break the fixed layout.
fn name_field(name: &str) -> String {
    one_line(name).chars().take(33).collect()
}

fn one_line(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::competitions::standings::{Scoring, standings};

    #[test]
    fn the_player_lines_have_fide_columns() {
        let entrants = vec![
            Entrant {
                id: 7,
                name: "Ann Able".into(),
                rating: Some(1850),
            },
            Entrant {
                id: 3,
                name: "Ben Baker".into(),
                rating: Some(1720),
            },
            Entrant {
                id: 9,
                name: "Cid Cole".into(),
                rating: None,
            },
        ];
        let played = |round, seats: Vec<u32>, places| GameRecord {
            round,
            seats,
            result: GameResult::Played {
                places,
                scores: None,
            },
        };
        let games = vec![
            played(1, vec![3, 9], vec![1, 1]),
            played(2, vec![7, 3], vec![2, 1]),
            GameRecord {
                round: 3,
                seats: vec![9, 7],
                result: GameResult::Forfeit {
                    absent: vec![true, false],
                },
            },
        ];
        let bye = |round, entrant| ByeRecord {
            round,
            entrant,
            kind: ByeKind::PairingAllocated,
        };
        let byes = vec![bye(1, 7), bye(2, 9), bye(3, 3)];
        let table = standings(&entrants, &games, &byes, &Scoring::default(), &[]);
        let header = TrfHeader {
            name: "Spring Swiss".into(),
            city: "Online".into(),
            federation: "".into(),
            start_date: "2026/03/01".into(),
            end_date: "2026/03/20".into(),
            chief_arbiter: "Olga".into(),
            rounds: 3,
        };
        let trf = trf16(&header, &entrants, &games, &byes, &table);
        let lines: Vec<&str> = trf.split("\r\n").collect();
        assert_eq!(lines[0], "012 Spring Swiss");
        assert_eq!(lines[5], "062 3");
        assert_eq!(lines[6], "072 2");
        assert_eq!(lines[9], "XXR 3");
        let players: Vec<&str> = lines
            .iter()
            .copied()
            .filter(|l| l.starts_with("001"))
            .collect();
        // Ann: bye 1, lost to Ben 2, forfeit win 3: 2 points. Ben: ½ + 1 + 1 = 2.5. Cid: ½ + 1 + 0.
        assert_eq!(
            players,
            vec![
                "001    1      Ann Able                          1850                             2.0    2  0000 - U  0002 w 0  0003 b +",
                "001    2      Ben Baker                         1720                             2.5    1  0003 w =  0001 b 1  0000 - U",
                "001    3      Cid Cole                                                           1.5    3  0002 b =  0000 - U  0001 w -",
            ]
        );
        let ann = players[0];
        assert_eq!(&ann[4..8], "   1"); // cols 5-8
        assert_eq!(&ann[14..22], "Ann Able"); // col 15
        assert_eq!(&ann[48..52], "1850"); // cols 49-52
        assert_eq!(&ann[80..84], " 2.0"); // cols 81-84
        assert_eq!(&ann[85..89], "   2"); // cols 86-89
        assert_eq!(&ann[91..99], "0000 - U"); // round 1 at col 92
        assert_eq!(&ann[101..109], "0002 w 0"); // round 2 at col 102
        assert_eq!(&ann[111..119], "0003 b +"); // round 3 at col 112
        assert!(trf.ends_with("\r\n"));
    }
}
