//! The pieces standings are written as CSV with (RFC 4180); the standings service
//! (`services::competitions::records`) writes one header line and one line per entrant, numbers
//! printed as the API and the page print them.
//!
//! Header: `rank,entrant,name,points,played,wins,draws,losses,byes,forfeit_wins,forfeit_losses`,
//! the entrant's `status` and `annulled`, then `tb_<name>` per tie-break (`division` first in a
//! league). The prefix keeps a tie-break's column apart
//! from the count of the same name (`wins`). Names that a spreadsheet would run as a formula
//! (starting with `=`, `+`, `-`, `@`, tab or CR) are prefixed with `'`.

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

    #[test]
    fn cells_are_quoted_where_needed_and_formulas_defused() {
        let cells: Vec<String> = ["1", "Ben, Jr.", "say \"hi\"", "two\nlines", "0.75"]
            .into_iter()
            .map(String::from)
            .collect();
        assert_eq!(
            line(&cells),
            "1,\"Ben, Jr.\",\"say \"\"hi\"\"\",\"two\nlines\",0.75\r\n"
        );
        assert_eq!(text("=cmd"), "'=cmd");
        assert_eq!(text("-1"), "'-1");
        assert_eq!(text("Ann"), "Ann");
        assert_eq!(tie_break_column("wins"), "tb_wins");
    }
}
