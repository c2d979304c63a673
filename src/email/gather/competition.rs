//! What the competition mails say: an invitation to enter, an entrant's pairings.

use super::{Context, Recipient, account_of, db, user};
use crate::auth::links::PlayGrant;
use crate::domain::{GameId, Locale, UserId};
use crate::email::compose::competition::{Bye, CompetitionInvitation, PairedGame, Pairing};
use crate::email::jobs::{CompetitionInvitationMail, PairingMail};
use crate::jobs::JobError;
use crate::schema::{
    competition_byes, competition_entrants, competition_games, competitions, users,
};
use crate::services::notifications::{self, Mode};
use diesel::prelude::*;
use uuid::Uuid;

fn format_name(format: &serde_json::Value) -> String {
    format
        .get("type")
        .and_then(|t| t.as_str())
        .unwrap_or("competition")
        .replace('_', " ")
}

fn game_name(kind: &str) -> String {
    crate::engine::registry::GameKind::parse(kind)
        .map_or_else(|| kind.to_owned(), |k| k.info().name.to_owned())
}

/// The invitation to enter, while the competition is registering.
///
/// # Errors
/// Database failures (retried).
pub fn competition_invitation(
    conn: &mut PgConnection,
    ctx: &Context,
    p: &CompetitionInvitationMail,
) -> Result<Option<CompetitionInvitation>, JobError> {
    let row: Option<(String, String, serde_json::Value, String, String)> = competitions::table
        .inner_join(users::table)
        .filter(competitions::id.eq(p.competition_id))
        .select((
            competitions::name,
            competitions::kind,
            competitions::format,
            competitions::status,
            users::display_name,
        ))
        .first(conn)
        .optional()
        .map_err(db)?;
    let Some((name, kind, format, status, organiser)) = row else {
        return Ok(None);
    };
    if status != "registering" {
        return Ok(None);
    }
    let account = account_of(conn, &p.email)?;
    Ok(Some(CompetitionInvitation {
        greeted: account
            .as_ref()
            .map(|u| u.display_name.clone())
            .unwrap_or_default(),
        to: Recipient::address(&p.email, account.as_ref(), Locale::En),
        organiser,
        competition: name,
        format: format_name(&format),
        game: game_name(&kind),
        competition_url: format!("{}/competitions/{}", ctx.public_url, p.competition_id),
        message_id: p.message_id.clone(),
    }))
}

/// An entrant's games and byes of the rounds just paired. A pairing is not a turn: sent
/// unless mail is off altogether.
///
/// # Errors
/// Database failures (retried).
pub fn pairing(
    conn: &mut PgConnection,
    ctx: &Context,
    p: &PairingMail,
) -> Result<Option<Pairing>, JobError> {
    let found: Option<(String, serde_json::Value)> = competitions::table
        .find(p.competition_id)
        .select((competitions::name, competitions::scoring))
        .first(conn)
        .optional()
        .map_err(db)?;
    let user = user(conn, p.user_id)?;
    let (Some((name, scoring)), Some(user)) = (found, user) else {
        return Ok(None);
    };
    if notifications::mode(conn, UserId(user.id)).map_err(db)? == Mode::Off {
        return Ok(None);
    }
    let number: Option<i32> = competition_entrants::table
        .filter(competition_entrants::competition_id.eq(p.competition_id))
        .filter(competition_entrants::user_id.eq(p.user_id))
        .select(competition_entrants::number)
        .first(conn)
        .optional()
        .map_err(db)?;
    let Some(number) = number else {
        return Ok(None);
    };
    let tables: Vec<(Uuid, i32, Vec<i32>)> = competition_games::table
        .filter(competition_games::competition_id.eq(p.competition_id))
        .filter(competition_games::season.eq(p.season))
        .filter(competition_games::round.between(p.from_round, p.to_round))
        .order((competition_games::round, competition_games::table_no))
        .select((
            competition_games::game_id,
            competition_games::round,
            competition_games::seats,
        ))
        .load(conn)
        .map_err(db)?;
    let byes: Vec<(i32, String)> = competition_byes::table
        .filter(competition_byes::competition_id.eq(p.competition_id))
        .filter(competition_byes::season.eq(p.season))
        .filter(competition_byes::entrant.eq(number))
        .filter(competition_byes::round.between(p.from_round, p.to_round))
        .select((competition_byes::round, competition_byes::kind))
        .load(conn)
        .map_err(db)?;
    let entrants: Vec<(i32, String)> = competition_entrants::table
        .inner_join(users::table)
        .filter(competition_entrants::competition_id.eq(p.competition_id))
        .select((competition_entrants::number, users::display_name))
        .load(conn)
        .map_err(db)?;
    let name_of = |n: i32| {
        entrants
            .iter()
            .find(|(x, _)| *x == n)
            .map(|(_, name)| name.clone())
            .unwrap_or_default()
    };
    let mut games = Vec::new();
    for (game, round, seats) in &tables {
        let Some(seat) = seats.iter().position(|s| *s == number) else {
            continue;
        };
        games.push(PairedGame {
            round: *round,
            opponents: seats
                .iter()
                .filter(|s| **s != number)
                .map(|s| name_of(*s))
                .collect(),
            seat,
            play_url: ctx.play_url(PlayGrant {
                user: UserId(user.id),
                game: GameId(*game),
                seat: i16::try_from(seat).unwrap_or(i16::MAX),
            }),
        });
    }
    let scoring: crate::competitions::standings::Scoring =
        serde_json::from_value(scoring).unwrap_or_default();
    let byes: Vec<Bye> = byes
        .into_iter()
        .map(|(round, kind)| Bye {
            round,
            points: scoring
                .bye_points(crate::competitions::ByeKind::parse(&kind))
                .to_string(),
        })
        .collect();
    if games.is_empty() && byes.is_empty() {
        return Ok(None);
    }
    Ok(Some(Pairing {
        to: Recipient::account(&user),
        competition: name,
        from_round: p.from_round,
        to_round: p.to_round,
        games,
        byes,
        competition_url: format!("{}/competitions/{}", ctx.public_url, p.competition_id),
        message_id: p.message_id.clone(),
    }))
}
