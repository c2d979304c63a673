//! The stored rounds read back as the pure module's records, and what is computed from them:
//! the rounds as the API shows them, the standings (JSON and CSV) and the TRF-16 file. One
//! computation feeds all three, so the API, the CSV and the page print the same numbers.

use super::resource::{
    AccountRef, ByeResource, PairingResource, PairingResult, RoundResource, StandingRow,
    TieBreakResource,
};
use super::{CompetitionRow, EntrantRow, entrants, load};
use crate::competitions::format::Format;
use crate::competitions::standings::{self, Standing};
use crate::competitions::trf::{TrfHeader, trf16};
use crate::competitions::{ByeKind, ByeRecord, Entrant, GameRecord, GameResult, knockout};
use crate::error::ApiError;
use crate::schema::{competition_byes, competition_games, users};
use diesel::prelude::*;
use std::collections::BTreeMap;
use uuid::Uuid;

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = competition_games, check_for_backend(diesel::pg::Pg))]
pub(crate) struct GameRow {
    pub game_id: Uuid,
    pub competition_id: Uuid,
    pub round: i32,
    pub table_no: i32,
    pub division: Option<i32>,
    pub seats: Vec<i32>,
    pub result: serde_json::Value,
    pub corrected: bool,
}

impl GameRow {
    pub(crate) fn result(&self) -> GameResult {
        serde_json::from_value(self.result.clone()).unwrap_or(GameResult::Pending)
    }

    pub(crate) fn record(&self) -> GameRecord {
        GameRecord {
            round: self.round as u32,
            seats: self.seats.iter().map(|s| *s as u32).collect(),
            result: self.result(),
        }
    }
}

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = competition_byes, check_for_backend(diesel::pg::Pg))]
pub(crate) struct ByeRow {
    pub round: i32,
    pub entrant: i32,
    pub kind: String,
    pub table_no: i32,
}

impl ByeRow {
    pub(crate) fn kind(&self) -> ByeKind {
        ByeKind::parse(&self.kind)
    }
}

/// A knockout match as stored: its table, its two entrants and its games.
pub(crate) struct Match {
    pub table: i32,
    pub high: u32,
    pub low: u32,
    pub games: Vec<(Vec<u32>, GameResult)>,
}

impl Match {
    pub(crate) fn step(&self, games_per_match: u8) -> knockout::MatchStep {
        knockout::match_step(self.high, self.low, games_per_match, &self.games)
    }
}

/// Everything of one season of a competition.
pub(crate) struct Season {
    pub entrants: Vec<EntrantRow>,
    pub games: Vec<GameRow>,
    pub byes: Vec<ByeRow>,
    pub names: BTreeMap<Uuid, String>,
}

impl Season {
    pub(crate) fn load(conn: &mut PgConnection, row: &CompetitionRow) -> Result<Season, ApiError> {
        let entrants = entrants(conn, row.id)?;
        let games: Vec<GameRow> = competition_games::table
            .filter(competition_games::competition_id.eq(row.id))
            .filter(competition_games::season.eq(row.season))
            .order((competition_games::round, competition_games::table_no))
            .select(GameRow::as_select())
            .load(conn)?;
        let byes: Vec<ByeRow> = competition_byes::table
            .filter(competition_byes::competition_id.eq(row.id))
            .filter(competition_byes::season.eq(row.season))
            .order((competition_byes::round, competition_byes::table_no))
            .select(ByeRow::as_select())
            .load(conn)?;
        let ids: Vec<Uuid> = entrants.iter().map(|e| e.user_id).collect();
        let names = users::table
            .filter(users::id.eq_any(&ids))
            .select((users::id, users::display_name))
            .load::<(Uuid, String)>(conn)?
            .into_iter()
            .collect();
        Ok(Season {
            entrants,
            games,
            byes,
            names,
        })
    }

    pub(crate) fn account(&self, number: i32) -> AccountRef {
        let user = self
            .entrants
            .iter()
            .find(|e| e.number == number)
            .map(|e| e.user_id)
            .unwrap_or_default();
        AccountRef {
            id: user,
            display_name: self.names.get(&user).cloned().unwrap_or_default(),
        }
    }

    /// Whether entrant `number` withdrew before half of their games: their games and byes
    /// count for nobody.
    pub(crate) fn annulled(&self, number: i32) -> bool {
        self.entrants
            .iter()
            .any(|e| e.number == number && e.annulled)
    }

    /// The entrants in pairing-number order (entry order for those without one).
    pub(crate) fn by_pairing_number(&self) -> Vec<&EntrantRow> {
        let mut list: Vec<&EntrantRow> = self.entrants.iter().collect();
        list.sort_by_key(|e| (e.pairing_number.unwrap_or(i32::MAX), e.number));
        list
    }

    /// A knockout round's matches by table: the two entrants (the higher seed first) and the
    /// match's games so far.
    pub(crate) fn matches(&self, round: i32) -> Vec<Match> {
        let mut tables: BTreeMap<i32, Vec<&GameRow>> = BTreeMap::new();
        for g in self.games.iter().filter(|g| g.round == round) {
            tables.entry(g.table_no).or_default().push(g);
        }
        tables
            .into_iter()
            .filter_map(|(table, games)| {
                let first = games.first()?;
                let (&high, &low) = (first.seats.first()?, first.seats.get(1)?);
                Some(Match {
                    table,
                    high: high as u32,
                    low: low as u32,
                    games: games
                        .iter()
                        .map(|g| (g.seats.iter().map(|s| *s as u32).collect(), g.result()))
                        .collect(),
                })
            })
            .collect()
    }

    /// The pure module's view: entrants (annulled ones left out) and their games and byes.
    pub(crate) fn records(
        &self,
        division: Option<i32>,
    ) -> (Vec<Entrant>, Vec<GameRecord>, Vec<ByeRecord>) {
        let annulled: Vec<i32> = self
            .entrants
            .iter()
            .filter(|e| e.annulled)
            .map(|e| e.number)
            .collect();
        let entrants = self
            .by_pairing_number()
            .into_iter()
            .filter(|e| !e.annulled && (division.is_none() || e.division == division))
            .map(|e| Entrant {
                id: e.number as u32,
                name: self.names.get(&e.user_id).cloned().unwrap_or_default(),
                rating: e.rating,
            })
            .collect();
        let games = self
            .games
            .iter()
            .filter(|g| division.is_none() || g.division == division)
            .filter(|g| !g.seats.iter().any(|s| annulled.contains(s)))
            .map(GameRow::record)
            .collect();
        let byes = self
            .byes
            .iter()
            .filter(|b| !annulled.contains(&b.entrant))
            .map(|b| ByeRecord {
                round: b.round as u32,
                entrant: b.entrant as u32,
                kind: b.kind(),
            })
            .collect();
        (entrants, games, byes)
    }
}

/// A game as `/rounds` shows it. A game of an annulled entrant counts for nobody (as the
/// standings count it): its points are all 0 and it says `annulled`.
fn result_of(row: &CompetitionRow, game: &GameRow, season: &Season) -> Option<PairingResult> {
    let scoring = row.scoring();
    let record = game.record();
    let annulled = game.seats.iter().any(|s| season.annulled(*s));
    let points = (0..game.seats.len())
        .map(|s| {
            if annulled {
                crate::competitions::Points::ZERO
            } else {
                scoring.game_points(&record, s)
            }
        })
        .collect();
    match record.result {
        GameResult::Pending => None,
        GameResult::Played { places, .. } => Some(PairingResult {
            places,
            points,
            forfeit: false,
            corrected: game.corrected,
            annulled,
        }),
        GameResult::Forfeit { absent } => Some(PairingResult {
            places: absent.iter().map(|a| if *a { 2 } else { 1 }).collect(),
            points,
            forfeit: true,
            corrected: game.corrected,
            annulled,
        }),
    }
}

/// The rounds of the current season as the API shows them.
pub(crate) fn rounds(
    conn: &mut PgConnection,
    row: &CompetitionRow,
) -> Result<Vec<RoundResource>, ApiError> {
    let season = Season::load(conn, row)?;
    let scoring = row.scoring();
    let mut out: Vec<RoundResource> = (1..=row.current_round)
        .map(|n| RoundResource {
            number: n,
            season: row.season,
            finished: true,
            pairings: Vec::new(),
            byes: Vec::new(),
        })
        .collect();
    for g in &season.games {
        let Some(round) = out.get_mut((g.round - 1) as usize) else {
            continue;
        };
        let result = result_of(row, g, &season);
        round.finished &= result.is_some();
        round.pairings.push(PairingResource {
            table: g.table_no,
            seats: g.seats.iter().map(|s| season.account(*s)).collect(),
            game_id: g.game_id,
            result,
            division: g.division,
        });
    }
    for b in &season.byes {
        if let Some(round) = out.get_mut((b.round - 1) as usize) {
            round.byes.push(ByeResource {
                account: season.account(b.entrant),
                kind: b.kind.clone(),
                points: if season.annulled(b.entrant) {
                    crate::competitions::Points::ZERO
                } else {
                    scoring.bye_points(b.kind())
                },
            });
        }
    }
    Ok(out)
}

/// The standings now (or as frozen by `finalise`).
///
/// # Errors
/// 404 for no such competition.
pub fn standings(conn: &mut PgConnection, id: Uuid) -> Result<Vec<StandingRow>, ApiError> {
    let row = load(conn, id, false)?;
    if let Some(frozen) = &row.final_standings
        && let Ok(rows) = serde_json::from_value::<Vec<StandingRow>>(frozen.clone())
    {
        return Ok(rows);
    }
    live_standings(conn, &row)
}

/// The standings computed from the results.
pub(crate) fn live_standings(
    conn: &mut PgConnection,
    row: &CompetitionRow,
) -> Result<Vec<StandingRow>, ApiError> {
    let season = Season::load(conn, row)?;
    let format = row.format()?;
    let divisions: Vec<Option<i32>> = match format {
        Format::League { .. } => {
            // Entrants who left between seasons have no division and no line this season.
            let mut d: Vec<Option<i32>> = season
                .entrants
                .iter()
                .filter(|e| e.division.is_some())
                .map(|e| e.division)
                .collect();
            d.sort();
            d.dedup();
            d
        }
        _ => vec![None],
    };
    let mut out = Vec::new();
    for division in divisions {
        let (entrants, games, byes) = season.records(division);
        let mut table =
            standings::standings(&entrants, &games, &byes, &row.scoring(), &row.tie_breaks());
        if let Format::Knockout { games_per_match } = format {
            knockout_ranks(&season, &mut table, row.current_round, games_per_match);
        }
        for s in &table {
            out.push(standing_row(&season, s, division));
        }
        out.extend(annulled_rows(&season, row, division, table.len()));
    }
    Ok(out)
}

/// The entrants whose results are annulled stay listed (as withdrawn), after everyone else and
/// sharing the place after them, with every number 0: their games count for nobody, themselves
/// included.
fn annulled_rows(
    season: &Season,
    row: &CompetitionRow,
    division: Option<i32>,
    ranked: usize,
) -> Vec<StandingRow> {
    let tie_breaks = row.tie_breaks();
    season
        .by_pairing_number()
        .into_iter()
        .filter(|e| e.annulled && (division.is_none() || e.division == division))
        .map(|e| {
            let s = Standing {
                rank: ranked as u32 + 1,
                entrant: e.number as u32,
                tally: Default::default(),
                tie_breaks: tie_breaks
                    .iter()
                    .map(|name| crate::competitions::tiebreaks::TieBreakValue {
                        name: *name,
                        value: crate::competitions::Points::ZERO,
                    })
                    .collect(),
            };
            let mut line = standing_row(season, &s, division);
            line.annulled = true;
            line
        })
        .collect()
}

/// A knockout ranks by how far each entrant went: the champion first, the final's loser
/// second, the losers of each earlier round sharing the next place. An entrant who left after
/// winning a match goes out in the round they did not play. A disqualified entrant ranks after
/// everyone else, however far they went (they never rank first).
fn knockout_ranks(season: &Season, table: &mut [Standing], rounds: i32, games_per_match: u8) {
    let disqualified: Vec<u32> = season
        .entrants
        .iter()
        .filter(|e| e.status == "disqualified")
        .map(|e| e.number as u32)
        .collect();
    let (eliminated, alive) = knockout_progress(season, rounds, games_per_match);
    if let [champion] = alive.as_slice()
        && !disqualified.contains(champion)
    {
        let kept: Vec<Vec<u32>> = eliminated
            .iter()
            .map(|round| {
                round
                    .iter()
                    .copied()
                    .filter(|e| !disqualified.contains(e))
                    .collect()
            })
            .collect();
        let places = knockout::placings(&kept, *champion);
        for s in table.iter_mut() {
            if let Some((_, place)) = places.iter().find(|(e, _)| *e == s.entrant) {
                s.rank = *place;
            }
        }
    }
    // Before the end (or without a champion) the points order stands, but the disqualified
    // still go last: the others are ranked among themselves, then the disqualified share the
    // place after them.
    let kept: Vec<u32> = table
        .iter()
        .filter(|s| !disqualified.contains(&s.entrant))
        .map(|s| s.rank)
        .collect();
    for s in table.iter_mut() {
        s.rank = if disqualified.contains(&s.entrant) {
            kept.len() as u32 + 1
        } else {
            1 + kept.iter().filter(|r| **r < s.rank).count() as u32
        };
    }
    table.sort_by_key(|s| s.rank);
}

/// Per round, the entrants knocked out in it (by losing a match, or by leaving before playing
/// it), and who is still in after the last round.
fn knockout_progress(
    season: &Season,
    rounds: i32,
    games_per_match: u8,
) -> (Vec<Vec<u32>>, Vec<u32>) {
    let mut eliminated: Vec<Vec<u32>> = Vec::new();
    let mut alive: Vec<u32> = Vec::new();
    for r in 1..=rounds {
        let before = std::mem::take(&mut alive);
        let mut present = Vec::new();
        let mut losers = Vec::new();
        for b in season.byes.iter().filter(|b| b.round == r) {
            alive.push(b.entrant as u32);
            present.push(b.entrant as u32);
        }
        for m in season.matches(r) {
            present.extend([m.high, m.low]);
            match m.step(games_per_match) {
                knockout::MatchStep::Won { winner, loser } => {
                    alive.push(winner);
                    losers.push(loser);
                }
                _ => alive.extend([m.high, m.low]),
            }
        }
        // Went on from the round before but is not in this one: left the competition.
        losers.extend(before.into_iter().filter(|e| !present.contains(e)));
        eliminated.push(losers);
    }
    (eliminated, alive)
}

fn standing_row(season: &Season, s: &Standing, division: Option<i32>) -> StandingRow {
    let t = &s.tally;
    let status = season
        .entrants
        .iter()
        .find(|e| e.number as u32 == s.entrant)
        .map_or_else(|| "entered".to_owned(), |e| e.status.clone());
    StandingRow {
        rank: s.rank,
        entrant: season.account(s.entrant as i32),
        points: t.points,
        played: t.played,
        wins: t.wins,
        draws: t.draws,
        losses: t.losses,
        byes: t.byes,
        forfeit_wins: t.forfeit_wins,
        forfeit_losses: t.forfeit_losses,
        status,
        annulled: false,
        division,
        tie_breaks: s
            .tie_breaks
            .iter()
            .map(|v| TieBreakResource {
                name: v.name.name().to_owned(),
                value: v.value,
            })
            .collect(),
    }
}

/// The standings as CSV (RFC 4180), the same numbers as the JSON: every field of a line
/// (`division` first for a league), then one `tb_<name>` column per tie-break. The prefix keeps
/// a tie-break's column apart from the field of the same name (`wins`).
///
/// # Errors
/// 404 for no such competition.
pub fn standings_csv(conn: &mut PgConnection, id: Uuid) -> Result<String, ApiError> {
    let rows = standings(conn, id)?;
    let mut head: Vec<String> = crate::competitions::csv::COLUMNS
        .iter()
        .chain(&["status", "annulled"])
        .map(|c| (*c).to_owned())
        .collect();
    let league = rows.iter().any(|r| r.division.is_some());
    if league {
        head.insert(0, "division".to_owned());
    }
    if let Some(first) = rows.first() {
        head.extend(
            first
                .tie_breaks
                .iter()
                .map(|t| crate::competitions::csv::tie_break_column(&t.name)),
        );
    }
    let mut out = crate::competitions::csv::line(&head);
    for r in &rows {
        let mut cells = vec![
            r.rank.to_string(),
            r.entrant.id.to_string(),
            crate::competitions::csv::text(&r.entrant.display_name),
            r.points.to_string(),
            r.played.to_string(),
            r.wins.to_string(),
            r.draws.to_string(),
            r.losses.to_string(),
            r.byes.to_string(),
            r.forfeit_wins.to_string(),
            r.forfeit_losses.to_string(),
            r.status.clone(),
            r.annulled.to_string(),
        ];
        if league {
            cells.insert(0, r.division.unwrap_or(0).to_string());
        }
        cells.extend(r.tie_breaks.iter().map(|t| t.value.to_string()));
        out.push_str(&crate::competitions::csv::line(&cells));
    }
    Ok(out)
}

/// The TRF-16 file of a Swiss event.
///
/// # Errors
/// 404 for no such competition; 409 for a format other than Swiss.
pub fn trf(conn: &mut PgConnection, id: Uuid) -> Result<String, ApiError> {
    let row = load(conn, id, false)?;
    let Format::Swiss { rounds } = row.format()? else {
        return Err(ApiError::Conflict(
            "a TRF-16 file is made for a Swiss event only".to_owned(),
        ));
    };
    let season = Season::load(conn, &row)?;
    let (entrants, games, byes) = season.records(None);
    let table = standings::standings(&entrants, &games, &byes, &row.scoring(), &row.tie_breaks());
    let organiser = super::account(conn, row.organiser_id)?;
    let date = |d: Option<chrono::DateTime<chrono::Utc>>| {
        d.map(|d| d.format("%Y/%m/%d").to_string())
            .unwrap_or_default()
    };
    let header = TrfHeader {
        name: row.name.clone(),
        city: "herald".to_owned(),
        federation: String::new(),
        start_date: date(row.started_at),
        end_date: date(row.finished_at),
        chief_arbiter: organiser.display_name,
        rounds,
    };
    Ok(trf16(&header, &entrants, &games, &byes, &table))
}
