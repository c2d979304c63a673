//! A competition runs itself: the start pairs the first round, and the end of a round's last game
//! (by play, resignation, timeout, or a director's result) queues an [`AdvanceJob`] that pairs
//! the next one, or finishes the competition after the last. The job runs in the worker's
//! transaction with the competition row locked, so two games ending at once advance it once.

use super::records::{GameRow, Season, live_standings};
use super::refusal::{Failure, Refusal};
use super::{CompetitionRow, EntrantRow, Status, load};
use crate::competitions::format::{Format, Pace};
use crate::competitions::{
    ByeKind, Entrant, GameResult, berger, knockout, league, pairing_order, swiss, tables,
};
use crate::domain::{GameId, UserId};
use crate::error::ApiError;
use crate::jobs::{BackgroundJob, Env, JobError};
use crate::models::{Game, GameResult as SeatResult};
use crate::schema::{
    competition_audit, competition_byes, competition_entrants, competition_games, competitions,
};
use crate::services::games;
use chrono::Utc;
use diesel::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::collections::BTreeMap;
use uuid::Uuid;

/// Looks at a competition after one of its games ended (or an entrant left): pairs the next
/// round when the current one is complete.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AdvanceJob {
    pub competition_id: Uuid,
}

impl BackgroundJob for AdvanceJob {
    const KIND: &'static str = "competition.advance";
    fn run(&self, _env: &Env, conn: &mut PgConnection) -> Result<(), JobError> {
        advance(conn, self.competition_id).map_err(|e| JobError::Retry(e.to_string()))
    }
}

fn enqueue_advance(conn: &mut PgConnection, id: Uuid) -> Result<(), ApiError> {
    crate::jobs::enqueue(conn, &[AdvanceJob { competition_id: id }.job()])?;
    Ok(())
}

/// Called by the one write path in the transaction that ends a game: a competition's game
/// records its result and queues the competition's advance.
///
/// # Errors
/// Database failures.
pub fn game_ended(
    conn: &mut PgConnection,
    game: &Game,
    results: &[SeatResult],
) -> Result<(), ApiError> {
    let row: Option<GameRow> = competition_games::table
        .find(game.id)
        .for_update()
        .select(GameRow::as_select())
        .first(conn)
        .optional()?;
    let Some(row) = row else {
        return Ok(());
    };
    if !row.corrected {
        let mut by_seat: Vec<&SeatResult> = results.iter().collect();
        by_seat.sort_by_key(|r| r.seat);
        let result = GameResult::Played {
            places: by_seat.iter().map(|r| r.place.max(1) as u32).collect(),
            scores: by_seat.iter().map(|r| r.score).collect(),
        };
        diesel::update(competition_games::table.find(game.id))
            .set(
                competition_games::result
                    .eq(serde_json::to_value(&result).map_err(ApiError::internal)?),
            )
            .execute(conn)?;
    }
    enqueue_advance(conn, row.competition_id)
}

/// Closes entry, gives pairing numbers and divisions, and pairs the first round.
pub(super) fn start(conn: &mut PgConnection, row: &CompetitionRow) -> Result<(), Failure> {
    let format = row.format()?;
    let list = super::entrants(conn, row.id)?;
    format
        .check_start(list.len())
        .map_err(Refusal::CannotStart)?;
    let mut seeded = Vec::with_capacity(list.len());
    for e in &list {
        let rating = super::rating_of(conn, e.user_id, &row.kind)?;
        seeded.push(Entrant {
            id: e.number as u32,
            name: String::new(),
            rating,
        });
    }
    let order = pairing_order(&seeded, crate::competitions::SeedTie::EntryOrder);
    let divisions = match format {
        Format::League { division_size, .. } => {
            no_lone_division(league::divisions(&order, division_size))
        }
        _ => Vec::new(),
    };
    for (i, number) in order.iter().enumerate() {
        let rating = seeded
            .iter()
            .find(|e| e.id == *number)
            .and_then(|e| e.rating);
        let division = divisions
            .iter()
            .position(|d| d.contains(number))
            .map(|d| d as i32 + 1);
        diesel::update(competition_entrants::table.find((row.id, *number as i32)))
            .set((
                competition_entrants::pairing_number.eq(i as i32 + 1),
                competition_entrants::rating.eq(rating),
                competition_entrants::division.eq(division),
            ))
            .execute(conn)?;
    }
    diesel::update(competitions::table.find(row.id))
        .set((
            competitions::status.eq(Status::Running.as_str()),
            competitions::started_at.eq(Some(Utc::now())),
        ))
        .execute(conn)?;
    tracing::info!(competition.id = %row.id, entrants = list.len(), "competition started");
    Ok(advance_locked(conn, row.id)?)
}

/// A league's next season: this season's final rankings per division, promotion and relegation
/// by the league's rules, entrants who left dropped and new entrants into the lowest division;
/// then the new season's round robins are paired.
pub(super) fn next_season(conn: &mut PgConnection, row: &CompetitionRow) -> Result<(), Failure> {
    let Format::League {
        division_size,
        promote,
        relegate,
    } = row.format()?
    else {
        return Err(Refusal::NoNextSeason.into());
    };
    let season = Season::load(conn, row)?;
    let table = live_standings(conn, row)?;
    let number_of = |user: Uuid| {
        season
            .entrants
            .iter()
            .find(|e| e.user_id == user)
            .map(|e| e.number as u32)
    };
    let mut rankings: BTreeMap<i32, Vec<u32>> = BTreeMap::new();
    for r in &table {
        if let (Some(d), Some(n)) = (r.division, number_of(r.entrant.id)) {
            rankings.entry(d).or_default().push(n);
        }
    }
    let leaving: Vec<u32> = season
        .entrants
        .iter()
        .filter(|e| !e.active() || e.annulled)
        .map(|e| e.number as u32)
        .collect();
    let joining: Vec<u32> = season
        .by_pairing_number()
        .into_iter()
        .filter(|e| e.active() && e.division.is_none())
        .map(|e| e.number as u32)
        .collect();
    let rules = league::LeagueRules {
        division_size,
        promote,
        relegate,
    };
    let divisions = no_lone_division(league::next_season(
        &rankings.into_values().collect::<Vec<_>>(),
        rules,
        &leaving,
        &joining,
    ));
    if divisions.iter().map(Vec::len).sum::<usize>() < 2 {
        return Err(Refusal::SeasonTooFew.into());
    }
    diesel::update(
        competition_entrants::table.filter(competition_entrants::competition_id.eq(row.id)),
    )
    .set(competition_entrants::division.eq(None::<i32>))
    .execute(conn)?;
    for (d, members) in (1..).zip(&divisions) {
        for (i, n) in members.iter().enumerate() {
            diesel::update(competition_entrants::table.find((row.id, *n as i32)))
                .set((
                    competition_entrants::division.eq(Some(d)),
                    // Within a division, its order is the new pairing order.
                    competition_entrants::pairing_number
                        .eq(d * league::MAX_DIVISION as i32 + i as i32 + 1),
                ))
                .execute(conn)?;
        }
    }
    diesel::update(competitions::table.find(row.id))
        .set((
            competitions::season.eq(row.season + 1),
            competitions::current_round.eq(0),
            competitions::status.eq(Status::Running.as_str()),
            competitions::finished_at.eq(None::<chrono::DateTime<Utc>>),
        ))
        .execute(conn)?;
    tracing::info!(competition.id = %row.id, season = row.season + 1, "league season started");
    Ok(advance_locked(conn, row.id)?)
}

/// A division of one cannot play a round robin: it joins the division above (or below, for the
/// top one).
fn no_lone_division(mut divisions: Vec<Vec<u32>>) -> Vec<Vec<u32>> {
    while divisions.len() > 1 {
        let Some(i) = divisions.iter().position(|d| d.len() < 2) else {
            break;
        };
        let lone = divisions.remove(i);
        let into = i.saturating_sub(1);
        if let Some(d) = divisions.get_mut(into) {
            if i == 0 {
                let mut merged = lone;
                merged.append(d);
                *d = merged;
            } else {
                d.extend(lone);
            }
        }
    }
    divisions
}

/// Pairs what can be paired now (see the module doc).
///
/// # Errors
/// Database failures; 500 when the stored format no longer pairs (a bug).
pub fn advance(conn: &mut PgConnection, id: Uuid) -> Result<(), ApiError> {
    conn.transaction(|conn| {
        let _ = load(conn, id, true)?;
        advance_locked(conn, id)
    })
}

fn advance_locked(conn: &mut PgConnection, id: Uuid) -> Result<(), ApiError> {
    // A round that is complete at once (every game forfeited) makes way for the next.
    for _ in 0..64 {
        let row = load(conn, id, false)?;
        if row.status() != Status::Running {
            return Ok(());
        }
        let season = Season::load(conn, &row)?;
        match plan(conn, &row, &season)? {
            Plan::Wait => return Ok(()),
            Plan::Finish => {
                finish(conn, id)?;
                tracing::info!(competition.id = %id, "competition finished");
                return Ok(());
            }
            Plan::EndEarly(why) => {
                // Rather than stall, the event ends; the log says so for everyone to read.
                finish(conn, id)?;
                diesel::insert_into(competition_audit::table)
                    .values((
                        competition_audit::competition_id.eq(id),
                        competition_audit::actor_id.eq(None::<Uuid>),
                        competition_audit::action.eq("ended_early"),
                        competition_audit::detail.eq(json!({"round": row.current_round + 1})),
                        competition_audit::reason.eq(&why),
                    ))
                    .execute(conn)?;
                tracing::warn!(competition.id = %id, round = row.current_round + 1, reason = %why, "competition ended early");
                return Ok(());
            }
            Plan::Rounds(rounds) => {
                let extra_only = rounds.iter().all(|r| r.number <= row.current_round);
                store_rounds(conn, &row, &season, rounds)?;
                if extra_only {
                    return Ok(());
                }
            }
        }
    }
    Ok(())
}

/// A game to create: its table and the entrants by seat.
struct Planned {
    table: i32,
    seats: Vec<i32>,
    division: Option<i32>,
}

/// A round to store (a new one, or more games of the current one).
struct PlannedRound {
    number: i32,
    games: Vec<Planned>,
    byes: Vec<(i32, ByeKind, i32)>,
}

enum Plan {
    Wait,
    Finish,
    /// Nobody left to pair or seat for the next round: the event ends, for this reason.
    EndEarly(String),
    Rounds(Vec<PlannedRound>),
}

fn finish(conn: &mut PgConnection, id: Uuid) -> Result<(), ApiError> {
    diesel::update(competitions::table.find(id))
        .set((
            competitions::status.eq(Status::Finished.as_str()),
            competitions::finished_at.eq(Some(Utc::now())),
        ))
        .execute(conn)?;
    Ok(())
}

fn round_done(season: &Season, round: i32) -> bool {
    season
        .games
        .iter()
        .filter(|g| g.round <= round)
        .all(|g| !matches!(g.result(), GameResult::Pending))
}

fn plan(conn: &mut PgConnection, row: &CompetitionRow, season: &Season) -> Result<Plan, ApiError> {
    let current = row.current_round;
    let active: Vec<&EntrantRow> = season
        .by_pairing_number()
        .into_iter()
        .filter(|e| e.active())
        .collect();
    let bug = |e: String| ApiError::internal(anyhow::anyhow!("competition {}: {e}", row.id));
    if current > 0
        && !round_done(season, current)
        && !matches!(row.format()?, Format::Knockout { .. })
    {
        return Ok(Plan::Wait);
    }
    Ok(match row.format()? {
        Format::RoundRobin { cycles, rounds } => {
            let everyone: Vec<&EntrantRow> = season.by_pairing_number();
            let schedule =
                berger::schedule(everyone.len() as u32, cycles).map_err(|e| bug(e.to_string()))?;
            let last = schedule.len() as i32;
            let wanted: Vec<i32> = match (current, rounds) {
                (0, Pace::AllAtOnce) => (1..=last).collect(),
                (n, Pace::Sequential) if n < last => vec![n + 1],
                _ => return Ok(Plan::Finish),
            };
            let numbers: Vec<i32> = everyone.iter().map(|e| e.number).collect();
            Plan::Rounds(
                wanted
                    .into_iter()
                    .map(|r| {
                        let round = schedule.get((r - 1) as usize);
                        let pairs: Vec<Vec<u32>> = round
                            .map(|x| x.pairings.iter().map(|p| p.to_vec()).collect())
                            .unwrap_or_default();
                        let bye = round.and_then(|x| x.bye);
                        berger_round(r, &numbers, &pairs, bye, &active, None)
                    })
                    .collect(),
            )
        }
        Format::Swiss { rounds } => {
            if current >= rounds as i32 {
                return Ok(Plan::Finish);
            }
            // A round of byes alone pairs nobody: with fewer than two left the event ends.
            if let Some(why) = too_few_to_pair(active.len()) {
                return Ok(Plan::EndEarly(format!("round {}: {why}", current + 1)));
            }
            let (_, games, byes) = season.records(None);
            let players: Vec<u32> = active.iter().map(|e| e.number as u32).collect();
            let scoring = row.scoring();
            let paired = swiss::pair(&swiss::SwissInput {
                players: &players,
                games: &games,
                byes: &byes,
                round: current as u32 + 1,
                rounds,
                scoring: &scoring,
                rematch_after_forfeit: false,
            });
            // Withdrawals can leave nobody to pair who has not met: the event ends rather
            // than stalls.
            let paired = match paired {
                Ok(p) => p,
                Err(e) => {
                    return Ok(Plan::EndEarly(format!(
                        "round {}: no Swiss pairing is possible ({e})",
                        current + 1
                    )));
                }
            };
            Plan::Rounds(vec![PlannedRound {
                number: current + 1,
                games: paired
                    .pairings
                    .iter()
                    .zip(1..)
                    .map(|(p, table)| Planned {
                        table,
                        seats: p.iter().map(|s| *s as i32).collect(),
                        division: None,
                    })
                    .collect(),
                byes: paired
                    .bye
                    .map(|b| vec![(b as i32, ByeKind::PairingAllocated, 0)])
                    .unwrap_or_default(),
            }])
        }
        Format::Knockout { games_per_match } => {
            knockout_plan(season, current, games_per_match, &active)
        }
        Format::League { .. } => {
            if current > 0 {
                return Ok(Plan::Finish);
            }
            let mut by_division: BTreeMap<i32, Vec<i32>> = BTreeMap::new();
            // Those who left between seasons have no division: they are not paired.
            for e in season.by_pairing_number() {
                if let Some(d) = e.division {
                    by_division.entry(d).or_default().push(e.number);
                }
            }
            let mut rounds: BTreeMap<i32, PlannedRound> = BTreeMap::new();
            for (division, numbers) in &by_division {
                let schedule =
                    berger::schedule(numbers.len() as u32, 1).map_err(|e| bug(e.to_string()))?;
                for (r, round) in (1..).zip(&schedule) {
                    let pairs: Vec<Vec<u32>> = round.pairings.iter().map(|p| p.to_vec()).collect();
                    let planned =
                        berger_round(r, numbers, &pairs, round.bye, &active, Some(*division));
                    let slot = rounds.entry(r).or_insert_with(|| PlannedRound {
                        number: r,
                        games: Vec::new(),
                        byes: Vec::new(),
                    });
                    let offset = slot.games.len() as i32;
                    slot.games.extend(planned.games.into_iter().map(|mut g| {
                        g.table += offset;
                        g
                    }));
                    slot.byes.extend(planned.byes);
                }
            }
            Plan::Rounds(rounds.into_values().collect())
        }
        Format::Tables {
            table_sizes,
            rounds,
        } => {
            if current >= rounds as i32 {
                return Ok(Plan::Finish);
            }
            let order: Vec<u32> = if current == 0 {
                active.iter().map(|e| e.number as u32).collect()
            } else {
                let live = live_standings(conn, row)?;
                live.iter()
                    .filter_map(|s| {
                        active
                            .iter()
                            .find(|e| e.user_id == s.entrant.id)
                            .map(|e| e.number as u32)
                    })
                    .collect()
            };
            // Who has sat at a table with whom this season.
            let met = |a: u32, b: u32| {
                let (a, b) = (a as i32, b as i32);
                season
                    .games
                    .iter()
                    .filter(|g| g.seats.contains(&a) && g.seats.contains(&b))
                    .count() as u32
            };
            let seated = match tables::seat(&order, &table_sizes, current as u32 + 1, &met) {
                Ok(t) => t,
                Err(e) => {
                    return Ok(Plan::EndEarly(format!(
                        "round {}: the entrants left cannot be seated ({e})",
                        current + 1
                    )));
                }
            };
            Plan::Rounds(vec![PlannedRound {
                number: current + 1,
                games: seated
                    .into_iter()
                    .map(|t| Planned {
                        table: t.number as i32,
                        seats: t.seats.iter().map(|s| *s as i32).collect(),
                        division: None,
                    })
                    .collect(),
                byes: Vec::new(),
            }])
        }
    })
}

/// Why a round cannot be paired with `left` entrants still in, if it cannot.
fn too_few_to_pair(left: usize) -> Option<String> {
    match left {
        0 => Some("nobody is left to pair".to_owned()),
        1 => Some("only one entrant is left to pair".to_owned()),
        _ => None,
    }
}

/// A Berger round in entrants' numbers: pairing numbers `pairs` (1-based into `numbers`); an
/// entrant who left gives the opponent a full-point bye instead of a game.
fn berger_round(
    round: i32,
    numbers: &[i32],
    pairs: &[Vec<u32>],
    bye: Option<u32>,
    active: &[&EntrantRow],
    division: Option<i32>,
) -> PlannedRound {
    let at = |p: u32| numbers.get(p as usize - 1).copied();
    let is_active = |n: i32| active.iter().any(|e| e.number == n);
    let mut games = Vec::new();
    let mut byes = Vec::new();
    for (table, pair) in (1..).zip(pairs) {
        let seats: Vec<i32> = pair.iter().filter_map(|p| at(*p)).collect();
        let present: Vec<i32> = seats.iter().copied().filter(|n| is_active(*n)).collect();
        match present.as_slice() {
            [_, _] => games.push(Planned {
                table,
                seats,
                division,
            }),
            [one] => byes.push((*one, ByeKind::Full, table)),
            _ => {}
        }
    }
    if let Some(n) = bye.and_then(at).filter(|n| is_active(*n)) {
        byes.push((n, ByeKind::PairingAllocated, 0));
    }
    PlannedRound {
        number: round,
        games,
        byes,
    }
}

fn knockout_plan(
    season: &Season,
    current: i32,
    games_per_match: u8,
    active: &[&EntrantRow],
) -> Plan {
    let seeds: Vec<u32> = season
        .by_pairing_number()
        .iter()
        .map(|e| e.number as u32)
        .collect();
    if current == 0 {
        let alive: Vec<u32> = active.iter().map(|e| e.number as u32).collect();
        let ties = knockout::first_round(&alive)
            .into_iter()
            .map(Some)
            .collect();
        return knockout_round(1, ties, games_per_match);
    }
    let lines = match knockout_lines(season, current, games_per_match, active) {
        Ok(lines) => lines,
        Err(plan) => return plan,
    };
    let left = lines.iter().flatten().count();
    if left == 0 {
        return Plan::EndEarly(format!(
            "round {}: nobody is left in the bracket",
            current + 1
        ));
    }
    // The final is decided. Before it, a lone entrant left still goes through the rounds by
    // walkover, so the bracket shows how they came to win.
    if knockout::lines_in_round(season.entrants.len(), current as u32) <= 1 {
        return Plan::Finish;
    }
    knockout_round(
        current + 1,
        knockout::next_round_lines(&lines, &seeds),
        games_per_match,
    )
}

/// The current round's lines in bracket order (line `i` at table `i + 1`): who goes on from
/// each, `None` where nobody does. `Err` holds the plan while the round is not decided: games
/// still to create (a match's next game) or to wait for.
fn knockout_lines(
    season: &Season,
    current: i32,
    games_per_match: u8,
    active: &[&EntrantRow],
) -> Result<Vec<Option<u32>>, Plan> {
    let is_active = |n: u32| active.iter().any(|e| e.number as u32 == n);
    let count = knockout::lines_in_round(season.entrants.len(), current as u32);
    let mut lines: Vec<Option<u32>> = vec![None; count];
    let mut set = |table: i32, who: Option<u32>| {
        if let Some(line) = usize::try_from(table - 1)
            .ok()
            .and_then(|i| lines.get_mut(i))
        {
            // An entrant who left after a bye or a won match goes no further.
            *line = who.filter(|w| is_active(*w));
        }
    };
    let mut extra = Vec::new();
    let mut waiting = false;
    for b in season.byes.iter().filter(|b| b.round == current) {
        set(b.table_no, Some(b.entrant as u32));
    }
    for m in season.matches(current) {
        match m.step(games_per_match) {
            knockout::MatchStep::Won { winner, .. } => set(m.table, Some(winner)),
            knockout::MatchStep::Wait => waiting = true,
            knockout::MatchStep::Play { seats, .. } => {
                // Whoever left forfeits the match's next game without playing it; when both
                // left, nobody goes on from this match.
                let present: Vec<u32> = seats.iter().copied().filter(|s| is_active(*s)).collect();
                match present.as_slice() {
                    [_, _] => {
                        extra.push(Planned {
                            table: m.table,
                            seats: seats.iter().map(|s| *s as i32).collect(),
                            division: None,
                        });
                        waiting = true;
                    }
                    [one] => set(m.table, Some(*one)),
                    _ => set(m.table, None),
                }
            }
        }
    }
    if !extra.is_empty() {
        return Err(Plan::Rounds(vec![PlannedRound {
            number: current,
            games: extra,
            byes: Vec::new(),
        }]));
    }
    if waiting {
        return Err(Plan::Wait);
    }
    Ok(lines)
}

/// Round `number` from its lines in bracket order: a line's table is its position, so an empty
/// line (`None`) leaves its table unused and the next round still finds each line in place.
fn knockout_round(number: i32, ties: Vec<Option<knockout::Tie>>, games_per_match: u8) -> Plan {
    let mut games = Vec::new();
    let mut byes = Vec::new();
    for (table, tie) in (1..).zip(ties) {
        match tie {
            None => {}
            // A bye in a knockout is a walkover: the entrant goes on without playing.
            Some(knockout::Tie::Bye { entrant }) => {
                byes.push((entrant as i32, ByeKind::Full, table));
            }
            Some(knockout::Tie::Match { high, low }) => {
                let first = knockout::match_step(high, low, games_per_match, &[]);
                let seats = match first {
                    knockout::MatchStep::Play { seats, .. } => seats,
                    _ => [high, low],
                };
                games.push(Planned {
                    table,
                    seats: seats.iter().map(|s| *s as i32).collect(),
                    division: None,
                });
            }
        }
    }
    Plan::Rounds(vec![PlannedRound {
        number,
        games,
        byes,
    }])
}

/// Creates the games of the planned rounds, stores them and the byes, and mails every entrant
/// concerned once (one mail for all the rounds paired at once).
fn store_rounds(
    conn: &mut PgConnection,
    row: &CompetitionRow,
    season: &Season,
    rounds: Vec<PlannedRound>,
) -> Result<(), ApiError> {
    let kind = row.kind()?;
    let user_of = |n: i32| {
        season
            .entrants
            .iter()
            .find(|e| e.number == n)
            .map(|e| e.user_id)
            .unwrap_or_default()
    };
    let mut mailed: BTreeMap<Uuid, ()> = BTreeMap::new();
    let mut last = row.current_round;
    for round in &rounds {
        for g in &round.games {
            let players: Vec<UserId> = g.seats.iter().map(|n| UserId(user_of(*n))).collect();
            let game = games::create_seated(
                conn,
                kind,
                &row.options,
                &row.clock,
                row.rated,
                UserId(row.organiser_id),
                &players,
            )?;
            diesel::insert_into(competition_games::table)
                .values((
                    competition_games::game_id.eq(game.0),
                    competition_games::competition_id.eq(row.id),
                    competition_games::season.eq(row.season),
                    competition_games::round.eq(round.number),
                    competition_games::table_no.eq(g.table),
                    competition_games::division.eq(g.division),
                    competition_games::seats.eq(&g.seats),
                ))
                .execute(conn)?;
            for p in &players {
                mailed.insert(p.0, ());
            }
        }
        for (entrant, kind, table) in &round.byes {
            diesel::insert_into(competition_byes::table)
                .values((
                    competition_byes::competition_id.eq(row.id),
                    competition_byes::season.eq(row.season),
                    competition_byes::round.eq(round.number),
                    competition_byes::entrant.eq(entrant),
                    competition_byes::kind.eq(kind.as_str()),
                    competition_byes::table_no.eq(table),
                ))
                .on_conflict_do_nothing()
                .execute(conn)?;
            mailed.insert(user_of(*entrant), ());
        }
        last = last.max(round.number);
    }
    diesel::update(competitions::table.find(row.id))
        .set(competitions::current_round.eq(last))
        .execute(conn)?;
    let first = rounds.iter().map(|r| r.number).min().unwrap_or(last);
    let users: Vec<Uuid> = mailed.keys().copied().collect();
    announce(conn, row, &users, first, last)?;
    tracing::info!(competition.id = %row.id, rounds = ?rounds.iter().map(|r| r.number).collect::<Vec<_>>(), "paired");
    Ok(())
}

/// Mails `users` their pairings of rounds `from..=to` of the current season and records a
/// `pairing` event for each.
///
/// # Errors
/// Database failures.
pub(super) fn announce(
    conn: &mut PgConnection,
    row: &CompetitionRow,
    users: &[Uuid],
    from: i32,
    to: i32,
) -> Result<(), ApiError> {
    let jobs: Vec<_> = users
        .iter()
        .map(|user| {
            crate::email::jobs::PairingMail {
                competition_id: row.id,
                user_id: *user,
                season: row.season,
                from_round: from,
                to_round: to,
                message_id: crate::email::jobs::message_id(),
            }
            .job()
        })
        .collect();
    crate::jobs::enqueue(conn, &jobs)?;
    let events = users
        .iter()
        .map(|user| crate::services::events::NewEvent {
            user: UserId(*user),
            kind: crate::services::events::EventKind::Pairing,
            game: None,
            data: json!({"competition_id": row.id, "name": row.name, "season": row.season, "from_round": from, "to_round": to}),
        })
        .collect();
    crate::services::events::record(conn, events)
}

/// An entrant leaves a running competition (`status` `withdrawn` or `disqualified`). A
/// withdrawal before half of one's games annuls the entrant's results; otherwise (and always for
/// a disqualification) the games still to play are forfeited. Either way the games in progress
/// end now and the entrant is paired no more.
pub(crate) fn withdraw(
    conn: &mut PgConnection,
    row: &CompetitionRow,
    entrant: &EntrantRow,
    status: &str,
) -> Result<(), ApiError> {
    let season = Season::load(conn, row)?;
    let mine: Vec<&GameRow> = season
        .games
        .iter()
        .filter(|g| g.seats.contains(&entrant.number))
        .collect();
    let finished = mine
        .iter()
        .filter(|g| !matches!(g.result(), GameResult::Pending))
        .count();
    let n = season.entrants.len();
    let scheduled = match row.format()? {
        Format::RoundRobin { cycles, .. } => (n.saturating_sub(1)) * usize::from(cycles),
        Format::Swiss { rounds } | Format::Tables { rounds, .. } => rounds as usize,
        Format::League { division_size, .. } => division_size.saturating_sub(1),
        Format::Knockout { .. } => 0,
    };
    let annul = status == "withdrawn" && finished * 2 < scheduled;
    diesel::update(competition_entrants::table.find((row.id, entrant.number)))
        .set((
            competition_entrants::status.eq(status),
            competition_entrants::annulled.eq(annul),
            competition_entrants::left_at.eq(Some(Utc::now())),
        ))
        .execute(conn)?;
    for g in mine
        .iter()
        .filter(|g| matches!(g.result(), GameResult::Pending))
    {
        // A game that ended meanwhile keeps the result it was played to.
        if !games::abort_for_director(conn, GameId(g.game_id))? {
            continue;
        }
        let result = GameResult::Forfeit {
            absent: g.seats.iter().map(|s| *s == entrant.number).collect(),
        };
        diesel::update(competition_games::table.find(g.game_id))
            .set(
                competition_games::result
                    .eq(serde_json::to_value(&result).map_err(ApiError::internal)?),
            )
            .execute(conn)?;
    }
    tracing::info!(competition.id = %row.id, entrant = entrant.number, status, annulled = annul, "entrant left");
    enqueue_advance(conn, row.id)
}

/// Re-examines a competition (after a director's change).
pub(crate) fn nudge(conn: &mut PgConnection, id: Uuid) -> Result<(), ApiError> {
    enqueue_advance(conn, id)
}
