//! The competition mails: an invitation to enter, and an entrant's pairings with a play link for
//! each game. Both name the competition, so an entrant can tell its mails from casual games'.

use super::{Doc, Mail, Recipient, blank, finish};
use crate::present::{T, fill, pick};

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

/// The invitation to enter.
#[derive(Debug, Clone)]
pub struct CompetitionInvitation {
    /// The invited address (named by its account, if it has one).
    pub to: Recipient,
    /// Whom the greeting names: the account, or no one for an address alone.
    pub greeted: String,
    pub organiser: String,
    pub competition: String,
    /// The format in words (`round robin`, `swiss`...).
    pub format: String,
    pub game: String,
    pub competition_url: String,
    pub message_id: String,
}

pub fn invitation(v: &CompetitionInvitation) -> Mail {
    let locale = v.to.locale;
    let values = [
        ("organiser", v.organiser.as_str()),
        ("competition", v.competition.as_str()),
        ("format", v.format.as_str()),
        ("game", v.game.as_str()),
    ];
    let mut doc = Doc::new(locale, &v.greeted);
    doc.paragraphs.push(fill(locale, &INVITE_BODY, &values));
    doc.link = Some((
        pick(locale, &SEE_COMPETITION).to_owned(),
        v.competition_url.clone(),
    ));
    let subject = fill(locale, &INVITE_SUBJECT, &values);
    finish(blank(&v.to, subject, &v.message_id, None), &doc)
}

/// One game of the entrant's in the rounds just paired.
#[derive(Debug, Clone)]
pub struct PairedGame {
    pub round: i32,
    pub opponents: Vec<String>,
    pub seat: usize,
    pub play_url: String,
}

/// A round the entrant sits out, and the points it brings.
#[derive(Debug, Clone)]
pub struct Bye {
    pub round: i32,
    pub points: String,
}

/// An entrant's games of the rounds just paired (at least one game or bye).
#[derive(Debug, Clone)]
pub struct Pairing {
    pub to: Recipient,
    pub competition: String,
    pub from_round: i32,
    pub to_round: i32,
    pub games: Vec<PairedGame>,
    pub byes: Vec<Bye>,
    pub competition_url: String,
    pub message_id: String,
}

pub fn pairing(v: &Pairing) -> Mail {
    let locale = v.to.locale;
    let rounds = if v.from_round == v.to_round {
        v.from_round.to_string()
    } else {
        format!("{}–{}", v.from_round, v.to_round)
    };
    let mut doc = Doc::new(locale, &v.to.name);
    doc.paragraphs.push(fill(
        locale,
        &PAIRING_BODY,
        &[("rounds", &rounds), ("competition", &v.competition)],
    ));
    for game in &v.games {
        doc.list.push(fill(
            locale,
            &GAME_LINE,
            &[
                ("round", &game.round.to_string()),
                ("opponents", &game.opponents.join(", ")),
                ("seat", &game.seat.to_string()),
                ("url", &game.play_url),
            ],
        ));
    }
    for bye in &v.byes {
        doc.list.push(fill(
            locale,
            &BYE_LINE,
            &[("round", &bye.round.to_string()), ("points", &bye.points)],
        ));
    }
    doc.link = Some((
        pick(locale, &SEE_COMPETITION).to_owned(),
        v.competition_url.clone(),
    ));
    let subject = fill(
        locale,
        &PAIRING_SUBJECT,
        &[("competition", &v.competition), ("rounds", &rounds)],
    );
    let mut mail = finish(blank(&v.to, subject, &v.message_id, None), &doc);
    mail.links
        .extend(v.games.iter().map(|game| game.play_url.clone()));
    mail
}
