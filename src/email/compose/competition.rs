//! The competition mails: an invitation to enter, and an entrant's pairings with a play link for
//! each game. Both name the competition, so an entrant can tell its mails from casual games'.

use super::{Context, Doc, Mail, blank, db, finish};
use crate::auth::links::PlayGrant;
use crate::domain::{GameId, Locale, UserId};
use crate::email::jobs::{CompetitionInvitationMail, PairingMail};
use crate::jobs::JobError;
use crate::present::T;
use crate::schema::{
    competition_byes, competition_entrants, competition_games, competitions, users,
};
use crate::services::notifications::{self, Mode};
use diesel::prelude::*;
use uuid::Uuid;

const INVITE_SUBJECT: T = [
    "{organiser} invites you to {competition}",
    "{organiser} te invita a {competition}",
    "{organiser} ti invita a {competition}",
    "{organiser} vous invite à {competition}",
];
const INVITE_BODY: T = [
    "{organiser} invites you to enter {competition}, a {format} of {game}. Sign in with this address and enter on the competition's page before it starts.",
    "{organiser} te invita a inscribirte en {competition}, un {format} de {game}. Entra con esta dirección e inscríbete en la página de la competición antes de que empiece.",
    "{organiser} ti invita a iscriverti a {competition}, un {format} di {game}. Accedi con questo indirizzo e iscriviti dalla pagina della competizione prima che inizi.",
    "{organiser} vous invite à vous inscrire à {competition}, un {format} de {game}. Connectez-vous avec cette adresse et inscrivez-vous sur la page de la compétition avant son début.",
];
const SEE_COMPETITION: T = [
    "The competition:",
    "La competición:",
    "La competizione:",
    "La compétition :",
];
const PAIRING_SUBJECT: T = [
    "{competition}: your games of round {rounds}",
    "{competition}: tus partidas de la ronda {rounds}",
    "{competition}: le tue partite del turno {rounds}",
    "{competition} : vos parties de la ronde {rounds}",
];
const PAIRING_BODY: T = [
    "Round {rounds} of {competition} is paired. Your games:",
    "La ronda {rounds} de {competition} está emparejada. Tus partidas:",
    "Il turno {rounds} di {competition} è abbinato. Le tue partite:",
    "La ronde {rounds} de {competition} est appariée. Vos parties :",
];
const GAME_LINE: T = [
    "Round {round}: against {opponents} (seat {seat}): {url}",
    "Ronda {round}: contra {opponents} (asiento {seat}): {url}",
    "Turno {round}: contro {opponents} (posto {seat}): {url}",
    "Ronde {round} : contre {opponents} (place {seat}) : {url}",
];
const BYE_LINE: T = [
    "Round {round}: you sit this round out (a bye, {points} point(s)).",
    "Ronda {round}: descansas esta ronda ({points} punto(s)).",
    "Turno {round}: riposi in questo turno ({points} punto/i).",
    "Ronde {round} : vous êtes exempt de cette ronde ({points} point(s)).",
];

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

/// The invitation to enter.
///
/// # Errors
/// Database failures (retried).
pub fn invitation(
    conn: &mut PgConnection,
    ctx: &Context,
    p: &CompetitionInvitationMail,
) -> Result<Option<Mail>, JobError> {
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
    let user: Option<crate::models::User> = users::table
        .filter(users::email.eq(&p.email))
        .select(crate::models::User::as_select())
        .first(conn)
        .optional()
        .map_err(db)?;
    let (locale, to_name) = user.as_ref().map_or((Locale::En, String::new()), |u| {
        (Locale::from_db(&u.locale), u.display_name.clone())
    });
    let game = game_name(&kind);
    let format = format_name(&format);
    let values = [
        ("organiser", organiser.as_str()),
        ("competition", name.as_str()),
        ("format", format.as_str()),
        ("game", game.as_str()),
    ];
    let mut doc = Doc::new(locale, &to_name);
    doc.paragraphs
        .push(crate::present::fill(locale, &INVITE_BODY, &values));
    doc.link = Some((
        crate::present::pick(locale, &SEE_COMPETITION).to_owned(),
        format!("{}/competitions/{}", ctx.public_url, p.competition_id),
    ));
    let mail = Mail {
        to_email: p.email.clone(),
        to_name: if to_name.is_empty() {
            p.email.clone()
        } else {
            to_name
        },
        subject: crate::present::fill(locale, &INVITE_SUBJECT, &values),
        text: String::new(),
        html: String::new(),
        message_id: p.message_id.clone(),
        thread: None,
        unsubscribe_url: None,
        links: Vec::new(),
        reply_to: None,
        in_reply_to: None,
        auto_replied: false,
    };
    Ok(Some(finish(mail, &doc)))
}

/// An entrant's games of the rounds just paired.
///
/// # Errors
/// Database failures (retried).
pub fn pairing(
    conn: &mut PgConnection,
    ctx: &Context,
    p: &PairingMail,
) -> Result<Option<Mail>, JobError> {
    let found: Option<(String, serde_json::Value)> = competitions::table
        .find(p.competition_id)
        .select((competitions::name, competitions::scoring))
        .first(conn)
        .optional()
        .map_err(db)?;
    let user: Option<crate::models::User> = users::table
        .find(p.user_id)
        .select(crate::models::User::as_select())
        .first(conn)
        .optional()
        .map_err(db)?;
    let (Some((name, scoring)), Some(user)) = (found, user) else {
        return Ok(None);
    };
    // A competition's pairing is not a turn: sent unless mail is off altogether.
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
    let games: Vec<(Uuid, i32, Vec<i32>)> = competition_games::table
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
    let locale = Locale::from_db(&user.locale);
    let rounds = if p.from_round == p.to_round {
        p.from_round.to_string()
    } else {
        format!("{}–{}", p.from_round, p.to_round)
    };
    let mut doc = Doc::new(locale, &user.display_name);
    doc.paragraphs.push(crate::present::fill(
        locale,
        &PAIRING_BODY,
        &[("rounds", &rounds), ("competition", &name)],
    ));
    let mut links = Vec::new();
    for (game, round, seats) in games.iter().filter(|(_, _, s)| s.contains(&number)) {
        let Some(seat) = seats.iter().position(|s| *s == number) else {
            continue;
        };
        let opponents: Vec<String> = seats
            .iter()
            .filter(|s| **s != number)
            .map(|s| name_of(*s))
            .collect();
        let url = ctx.play_url(PlayGrant {
            user: UserId(user.id),
            game: GameId(*game),
            seat: seat as i16,
        });
        doc.list.push(crate::present::fill(
            locale,
            &GAME_LINE,
            &[
                ("round", &round.to_string()),
                ("opponents", &opponents.join(", ")),
                ("seat", &seat.to_string()),
                ("url", &url),
            ],
        ));
        links.push(url);
    }
    let scoring: crate::competitions::standings::Scoring =
        serde_json::from_value(scoring).unwrap_or_default();
    for (round, kind) in byes {
        let kind = crate::competitions::ByeKind::parse(&kind);
        doc.list.push(crate::present::fill(
            locale,
            &BYE_LINE,
            &[
                ("round", &round.to_string()),
                ("points", &scoring.bye_points(kind).to_string()),
            ],
        ));
    }
    if doc.list.is_empty() {
        return Ok(None);
    }
    doc.link = Some((
        crate::present::pick(locale, &SEE_COMPETITION).to_owned(),
        format!("{}/competitions/{}", ctx.public_url, p.competition_id),
    ));
    let subject = crate::present::fill(
        locale,
        &PAIRING_SUBJECT,
        &[("competition", &name), ("rounds", &rounds)],
    );
    let mut mail = finish(blank(&user, subject, p.message_id.clone(), None), &doc);
    mail.links.extend(links);
    Ok(Some(mail))
}
