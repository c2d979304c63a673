//! Standings as CSV (RFC 4180): one header line with the tie-breaks' names, one line per entrant,
//! numbers printed as the API and the page print them.
//!
//! Header: `rank,entrant,name,points,played,wins,draws,losses,byes,forfeit_wins,forfeit_losses`,
//! then `tb_<name>` per tie-break (the service adds the entrant's `status` and `annulled` before
//! the tie-breaks, and `division` first in a league). The prefix keeps a tie-break's column apart
//! from the count of the same name (`wins`). Names that a spreadsheet would run as a formula
//! (starting with `=`, `+`, `-`, `@`, tab or CR) are prefixed with `'`.

use super::EntrantId;
use super::standings::Standing;

/// The columns of a standings line before the tie-breaks, as the JSON names its fields.
pub const COLUMNS: [&str; 11] = [
    "rank",
    "entrant",
    "name",
    "points",
    "played",
    "wins",
    "draws",
    "losses",
    "byes",
    "forfeit_wins",
    "forfeit_losses",
];

/// The column of the tie-break `name`.
pub fn tie_break_column(name: &str) -> String {
    format!("tb_{name}")
}

/// The CSV text; `name` gives each entrant's display name.
pub fn standings_csv(rows: &[Standing], name: &dyn Fn(EntrantId) -> String) -> String {
    let mut header: Vec<String> = COLUMNS.iter().map(|s| s.to_string()).collect();
    if let Some(first) = rows.first() {
        header.extend(
            first
                .tie_breaks
                .iter()
                .map(|t| tie_break_column(t.name.name())),
        );
    }
    let mut out = line(&header);
    for r in rows {
        let t = &r.tally;
        let mut cells = vec![
            r.rank.to_string(),
            r.entrant.to_string(),
            text(&name(r.entrant)),
            t.points.to_string(),
            t.played.to_string(),
            t.wins.to_string(),
            t.draws.to_string(),
            t.losses.to_string(),
            t.byes.to_string(),
            t.forfeit_wins.to_string(),
            t.forfeit_losses.to_string(),
        ];
        cells.extend(r.tie_breaks.iter().map(|v| v.value.to_string()));
        out.push_str(&line(&cells));
    }
    out
}

/// One CSV line of `cells`, quoted where needed, ended by CRLF.
pub(crate) fn line(cells: &[String]) -> String {
    let mut s = cells.iter().map(|c| quote(c)).collect::<Vec<_>>().join(",");
    s.push_str("\r\n");
    s
}

/// Defuses spreadsheet formulas in free text.
pub(crate) fn text(s: &str) -> String {
    match s.chars().next() {
        Some('=' | '+' | '-' | '@' | '\t' | '\r') => format!("'{s}"),
        _ => s.to_string(),
    }
}

pub(crate) fn quote(cell: &str) -> String {
    if cell.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", cell.replace('"', "\"\""))
    } else {
        cell.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::competitions::standings::{Scoring, standings};
    use crate::competitions::tiebreaks::TieBreak;
    use crate::competitions::{Entrant, GameRecord, GameResult};

    #[test]
    fn csv_carries_the_same_numbers_and_tie_break_names() {
        let entrants: Vec<Entrant> = [(1, "Ann"), (2, "Ben, Jr."), (3, "=cmd")]
            .into_iter()
            .map(|(id, n)| Entrant {
                id,
                name: n.into(),
                rating: None,
            })
            .collect();
        let game = |seats: Vec<u32>, places| GameRecord {
            round: 1,
            seats,
            result: GameResult::Played {
                places,
                scores: None,
            },
        };
        let games = vec![
            game(vec![1, 2], vec![1, 1]),
            game(vec![2, 3], vec![1, 2]),
            game(vec![3, 1], vec![2, 1]),
        ];
        let order = [TieBreak::SonnebornBerger, TieBreak::Wins];
        let rows = standings(&entrants, &games, &[], &Scoring::default(), &order);
        let names = |id: u32| {
            entrants
                .iter()
                .find(|e| e.id == id)
                .map(|e| e.name.clone())
                .unwrap_or_default()
        };
        let csv = standings_csv(&rows, &names);
        assert_eq!(
            csv,
            "rank,entrant,name,points,played,wins,draws,losses,byes,forfeit_wins,forfeit_losses,\
             tb_sonneborn_berger,tb_wins\r\n\
             1,1,Ann,1.5,2,1,1,0,0,0,0,0.75,1\r\n\
             1,2,\"Ben, Jr.\",1.5,2,1,1,0,0,0,0,0.75,1\r\n\
             3,3,'=cmd,0,2,0,0,2,0,0,0,0,0\r\n"
        );
    }
}
