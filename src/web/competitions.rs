//! Competition pages (design.md section 15): the public list and one competition with its
//! entrants, rounds, results and standings (readable on a phone, without signing in); for a
//! signed-in player the Enter and Withdraw buttons; for the organiser the form that creates a
//! competition, the Start button and the director's actions. Every button is a form that posts
//! to the same services as the API.

use super::extract::{
    Accepts, Fields, Form, PageError, Params, Reader, SignedIn, Unaccepted, Unfit, db, offered,
    unfit,
};
use super::i18n::t;
use super::layout::{Chrome, message, page, respond, see_other};
// A competition's creation form invites as a game's does: `invite` may come more than once.
use super::new_game::{Invitations, invited, not_taken};
use crate::competitions::Points;
use crate::competitions::format::{Format, FormatError, Pace, ROUNDS, TABLE_SIZES};
use crate::competitions::league::MAX_DIVISION;
use crate::competitions::standings::Scoring;
use crate::competitions::tables::TablesError;
use crate::competitions::tiebreaks::TieBreak;
use crate::domain::{EmailAddress, Locale};
use crate::engine::registry::GameKind;
use crate::error::ApiError;
use crate::services::clocks::Clock;
use crate::services::competitions::{
    self as service, AuditEntry, CompetitionResource, CompetitionSummary, DirectorAction, Entry,
    NAME_MOST, NewCompetition, Refusal, ResultGiven, RoundResource, StandingRow, Status, director,
};
use crate::state::AppState;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use maud::{Markup, html};
use serde::Deserialize;
use uuid::Uuid;

#[derive(Debug, Deserialize)]
pub struct ListQuery {
    status: Option<String>,
}

fn status_word(l: crate::domain::Locale, s: Status) -> &'static str {
    t(
        l,
        match s {
            Status::Registering => "comp_registering",
            Status::Running => "comp_running",
            Status::Paused => "comp_paused",
            Status::Finished => "comp_finished",
        },
    )
}

fn kind_name(kind: &str) -> &'static str {
    GameKind::parse(kind).map_or("?", |k| k.info().name)
}

/// A competition's format (as the API gives it) by its name in `l`; the API keeps its `type`.
fn format_name(l: Locale, format: &serde_json::Value) -> &'static str {
    use serde::Deserialize as _;
    match Format::deserialize(format) {
        Ok(Format::Swiss { .. }) => t(l, "comp_format_swiss"),
        Ok(Format::RoundRobin { cycles: 2, .. }) => t(l, "comp_format_round_robin_double"),
        Ok(Format::RoundRobin { .. }) => t(l, "comp_format_round_robin"),
        Ok(Format::Knockout { games_per_match: 2 }) => t(l, "comp_format_knockout_2"),
        Ok(Format::Knockout { .. }) => t(l, "comp_format_knockout"),
        Ok(Format::League { .. }) => t(l, "comp_format_league"),
        Ok(Format::Tables { .. }) => t(l, "comp_format_tables"),
        // Every stored format reads as one; nothing else is worth showing.
        Err(_) => "?",
    }
}

/// The formats the creation form offers: its value, and the format's name in `l`.
fn format_choices(l: Locale) -> [(&'static str, &'static str); 7] {
    [
        ("swiss", t(l, "comp_format_swiss")),
        ("round_robin", t(l, "comp_format_round_robin")),
        ("round_robin_double", t(l, "comp_format_round_robin_double")),
        ("knockout", t(l, "comp_format_knockout")),
        ("knockout_2", t(l, "comp_format_knockout_2")),
        ("league", t(l, "comp_format_league")),
        ("tables", t(l, "comp_format_tables")),
    ]
}

/// A tie-break's heading in the standings, in `l`; its API name (what the creation form takes,
/// and the CSV's heading) is the heading's title.
fn tie_break_name(l: Locale, name: &str) -> &str {
    // Every stored name reads as one; a name that does not stays as it is.
    let Ok(tb) = name.parse::<TieBreak>() else {
        return name;
    };
    t(
        l,
        match tb {
            TieBreak::SonnebornBerger => "comp_tb_sonneborn_berger",
            TieBreak::Buchholz => "comp_tb_buchholz",
            TieBreak::BuchholzCut1 => "comp_tb_buchholz_cut1",
            TieBreak::MedianBuchholz => "comp_tb_median_buchholz",
            TieBreak::HeadToHead => "comp_tb_head_to_head",
            TieBreak::Wins => "comp_tb_wins",
            TieBreak::GameScore => "comp_tb_game_score",
            TieBreak::Rating => "comp_tb_rating",
        },
    )
}

/// An entrant's status (as the API gives it: `entered`, `withdrawn`, `disqualified`) in `l`.
fn entrant_status(l: Locale, status: &str) -> &str {
    match status {
        "entered" => t(l, "comp_entrant_entered"),
        "withdrawn" => t(l, "comp_entrant_withdrawn"),
        "disqualified" => t(l, "comp_entrant_disqualified"),
        // A status added later reads as the API's word until it has its own.
        other => other,
    }
}

/// The director's actions the form offers, by the API's names.
const DIRECTOR_ACTIONS: [&str; 7] = [
    "set_result",
    "extend_deadline",
    "pause",
    "resume",
    "withdraw",
    "disqualify",
    "finalise",
];

/// A director's (or the server's) action, by the name the API and the audit log give it, in `l`.
fn action_name(l: Locale, action: &str) -> &str {
    match action {
        "set_result" => t(l, "comp_action_set_result"),
        "extend_deadline" => t(l, "comp_action_extend_deadline"),
        "pause" => t(l, "comp_action_pause"),
        "resume" => t(l, "comp_action_resume"),
        "replace" => t(l, "comp_action_replace"),
        "withdraw" => t(l, "comp_action_withdraw"),
        "disqualify" => t(l, "comp_action_disqualify"),
        "finalise" => t(l, "comp_action_finalise"),
        // The server's: a competition that could not go on.
        "ended_early" => t(l, "comp_action_ended_early"),
        // An action added later reads as the API's name until it has its own.
        other => other,
    }
}

/// `GET /competitions?status=`.
pub async fn list_page(
    state: web::Data<AppState>,
    reader: Reader,
    query: Params<ListQuery>,
) -> Result<HttpResponse, PageError> {
    let chrome = reader.chrome;
    let l = chrome.locale;
    let status = status_asked(&query).map_err(|refused| refused.page(&chrome))?;
    let list = db(&state, &chrome, move |conn| {
        service::list(conn, status, None, 200)
    })
    .await?;
    Ok(respond(
        StatusCode::OK,
        page(
            &chrome,
            t(l, "competitions"),
            listing(&chrome, &list, status),
        ),
    ))
}

/// The status a list's query asks for (none: every competition), or the refusal naming it.
fn status_asked(q: &ListQuery) -> Result<Option<Status>, Unaccepted> {
    let asked = q.status.as_deref().filter(|s| !s.is_empty());
    asked
        .map(|s| {
            Status::parse(s).ok_or_else(|| Unaccepted {
                field: "status",
                accepts: Accepts::OneOf(Status::ALL.iter().map(|s| s.as_str()).collect()),
            })
        })
        .transpose()
}

fn listing(chrome: &Chrome, list: &[CompetitionSummary], status: Option<Status>) -> Markup {
    let l = chrome.locale;
    html! {
        h1 { (t(l, "competitions")) }
        @if chrome.account.is_some() {
            p { a href="/competitions/new" { (t(l, "new_competition")) } }
        }
        p.filters {
            a href="/competitions" { (t(l, "all_games")) }
            @for s in [Status::Registering, Status::Running, Status::Finished] {
                " · "
                @if status == Some(s) { strong { (status_word(l, s)) } }
                @else { a href={ "/competitions?status=" (s.as_str()) } { (status_word(l, s)) } }
            }
        }
        @if list.is_empty() { p { (t(l, "comp_none")) } }
        ul.plain {
            @for c in list {
                li.card data-competition=(c.id) {
                    a href={ "/competitions/" (c.id) } { strong { (c.name) } }
                    " · " (kind_name(&c.kind))
                    " · " (format_name(l, &c.format))
                    " · " (status_word(l, c.status))
                    " · " (c.entrants) " " (t(l, "comp_entrants"))
                    " · " span.muted { (c.organiser) }
                }
            }
        }
    }
}

/// `GET /competitions/{id}`.
pub async fn competition_page(
    state: web::Data<AppState>,
    reader: Reader,
    id: web::Path<String>,
) -> Result<HttpResponse, PageError> {
    let chrome = reader.chrome;
    let id = parse_id(&chrome, &id)?;
    let shown = db(&state, &chrome, move |conn| load(conn, id)).await?;
    let me = reader.user.map(|u| u.0);
    let csrf = reader.csrf.as_deref();
    Ok(respond(StatusCode::OK, shown.page(&chrome, me, csrf, None)))
}

/// What a competition's page shows: the competition, its rounds, standings and audit log.
struct Shown {
    c: CompetitionResource,
    rounds: Vec<RoundResource>,
    table: Vec<StandingRow>,
    audit: Vec<AuditEntry>,
}

impl Shown {
    /// The page for reader `me` (with the CSRF token of their forms), saying `error` above the
    /// forms when one was refused.
    fn page(
        &self,
        chrome: &Chrome,
        me: Option<Uuid>,
        csrf: Option<&str>,
        error: Option<&str>,
    ) -> Markup {
        let (c, rounds, table, audit) = (&self.c, &self.rounds, &self.table, &self.audit);
        let body = view(chrome, c, rounds, table, audit, me, csrf, error);
        page(chrome, &c.name, body)
    }
}

/// Competition `id` as its page shows it.
fn load(conn: &mut diesel::PgConnection, id: Uuid) -> Result<Shown, ApiError> {
    Ok(Shown {
        c: service::get(conn, id)?,
        rounds: service::rounds(conn, id)?,
        table: service::standings(conn, id)?,
        audit: service::audit(conn, id)?,
    })
}

/// The competition an address names; one that is not an id is not there (404, as any address
/// with nothing at it, never repeating it).
fn parse_id(chrome: &Chrome, id: &str) -> Result<Uuid, PageError> {
    id.parse().map_err(|_| nothing_here(chrome))
}

/// 404 in the reader's language: the address names nothing this page has.
fn nothing_here(chrome: &Chrome) -> PageError {
    let l = chrome.locale;
    PageError::from_response(message(
        chrome,
        StatusCode::NOT_FOUND,
        t(l, "not_found"),
        t(l, "address_not_found"),
    ))
}

#[allow(clippy::too_many_arguments, reason = "one page's parts")]
fn view(
    chrome: &Chrome,
    c: &CompetitionResource,
    rounds: &[RoundResource],
    table: &[StandingRow],
    audit: &[AuditEntry],
    me: Option<Uuid>,
    csrf: Option<&str>,
    error: Option<&str>,
) -> Markup {
    let l = chrome.locale;
    let organiser = me == Some(c.organiser.id);
    let entered = me.is_some_and(|m| {
        c.entrants
            .iter()
            .any(|e| e.account.id == m && e.status == "entered")
    });
    let action = |what: &str| format!("/competitions/{}/{what}", c.id);
    html! {
        h1 { (c.name) }
        p {
            (kind_name(&c.kind)) " · "
            (format_name(l, &c.format))
            " · " (status_word(l, c.status))
            @if c.finalised { " · " (t(l, "comp_finalised")) }
            " · " (t(l, "comp_organiser")) " " (c.organiser.display_name)
        }
        @if let Some(e) = error { p.error role="alert" { (e) } }
        @if let Some(csrf) = csrf {
            div.actions {
                @if c.status == Status::Registering && !entered {
                    form.quick method="post" action=(action("enter")) data-action="enter" {
                        input type="hidden" name="csrf" value=(csrf);
                        button type="submit" { (t(l, "comp_enter")) }
                    }
                }
                @if entered && c.status != Status::Finished {
                    form.quick method="post" action=(action("withdraw")) data-action="withdraw" {
                        input type="hidden" name="csrf" value=(csrf);
                        button.secondary type="submit" { (t(l, "comp_withdraw")) }
                    }
                }
                @if organiser && c.status == Status::Registering {
                    form.quick method="post" action=(action("start")) data-action="start" {
                        input type="hidden" name="csrf" value=(csrf);
                        button type="submit" { (t(l, "comp_start")) }
                    }
                }
            }
        }
        h2 { (t(l, "comp_entrants")) " (" (c.entrants.len()) ")" }
        ol {
            @for e in &c.entrants {
                li {
                    a href={ "/players/" (e.account.id) } { (e.account.display_name) }
                    @if let Some(r) = e.rating { " · " (r) }
                    @if e.status != "entered" { " · " em { (entrant_status(l, &e.status)) } }
                }
            }
        }
        @if !table.is_empty() && c.status != Status::Registering {
            h2 { (t(l, "comp_standings")) }
            div.scroll {
                table.standings {
                    thead { tr {
                        th { "#" } th { (t(l, "comp_player")) } th { (t(l, "comp_points")) }
                        th { (t(l, "comp_played")) }
                        @if let Some(first) = table.first() {
                            @for tb in &first.tie_breaks { th title=(tb.name) { (tie_break_name(l, &tb.name)) } }
                        }
                    } }
                    tbody {
                        @for r in table {
                            tr {
                                td { (r.rank) }
                                td { (r.entrant.display_name) @if r.status != "entered" { " (" (entrant_status(l, &r.status)) ")" } }
                                td { (r.points) }
                                td { (r.played) }
                                @for tb in &r.tie_breaks { td { (tb.value) } }
                            }
                        }
                    }
                }
            }
            p {
                a href={ "/competitions/" (c.id) "/standings.csv" } data-export="csv" { "CSV" }
                @if c.format.get("type").and_then(|v| v.as_str()) == Some("swiss") {
                    " · " a href={ "/api/v1/competitions/" (c.id) "/trf" } { "TRF-16" }
                }
            }
        }
        @for r in rounds.iter().rev() {
            h2 { (t(l, "comp_round")) " " (r.number) }
            ul.plain {
                @for p in &r.pairings {
                    li.card {
                        (p.table) ". "
                        @for (i, s) in p.seats.iter().enumerate() {
                            @if i > 0 { " – " }
                            (s.display_name)
                        }
                        " · "
                        a href={ "/play/" (p.game_id) } {
                            @match &p.result {
                                Some(res) => {
                                    @for (i, pts) in res.points.iter().enumerate() {
                                        @if i > 0 { "–" }
                                        (pts)
                                    }
                                    @if res.forfeit { " (" (t(l, "comp_forfeit")) ")" }
                                    @if res.corrected { " *" }
                                }
                                None => { (t(l, "comp_playing")) }
                            }
                        }
                    }
                }
                @for b in &r.byes {
                    li.card { (b.account.display_name) " · " (t(l, "comp_bye")) " (" (b.points) ")" }
                }
            }
        }
        @if organiser && !c.finalised && c.status != Status::Registering {
            @if let Some(csrf) = csrf { (director_form(chrome, c, rounds, csrf)) }
        }
        @if !audit.is_empty() {
            h2 { (t(l, "comp_audit")) }
            ul {
                @for a in audit {
                    li {
                        (crate::services::clocks::local_time(&chrome.time_zone, a.at)) " · "
                        @match &a.actor {
                            Some(actor) => (actor.display_name),
                            None => (t(l, "comp_server")),
                        }
                        " · " (action_name(l, &a.action)) " · " (a.reason)
                    }
                }
            }
        }
    }
}

fn director_form(
    chrome: &Chrome,
    c: &CompetitionResource,
    rounds: &[RoundResource],
    csrf: &str,
) -> Markup {
    let l = chrome.locale;
    html! {
        h2 { (t(l, "comp_director")) }
        form method="post" action={ "/competitions/" (c.id) "/director" } data-action="director" {
            input type="hidden" name="csrf" value=(csrf);
            p {
                label for="dir-action" { (t(l, "comp_action")) }
                " "
                select id="dir-action" name="action" {
                    @for a in DIRECTOR_ACTIONS {
                        option value=(a) { (action_name(l, a)) }
                    }
                }
            }
            p {
                label for="dir-game" { (t(l, "comp_game")) }
                " "
                select id="dir-game" name="game_id" {
                    option value="" { "—" }
                    @for r in rounds {
                        @for p in &r.pairings {
                            option value=(p.game_id) {
                                (r.number) "." (p.table) " "
                                @for (i, s) in p.seats.iter().enumerate() { @if i > 0 { " – " } (s.display_name) }
                            }
                        }
                    }
                }
            }
            p {
                label for="dir-places" { (t(l, "comp_places")) }
                " "
                input id="dir-places" name="places" placeholder="1,2";
                " "
                label for="dir-seconds" { (t(l, "comp_seconds")) }
                " "
                input id="dir-seconds" name="seconds" inputmode="numeric" placeholder="86400";
            }
            p {
                label for="dir-entrant" { (t(l, "comp_player")) }
                " "
                select id="dir-entrant" name="account_id" {
                    option value="" { "—" }
                    @for e in &c.entrants { option value=(e.account.id) { (e.account.display_name) } }
                }
            }
            p {
                label for="dir-reason" { (t(l, "comp_reason")) }
                " "
                input id="dir-reason" name="reason" required maxlength="1000";
            }
            button type="submit" { (t(l, "comp_apply")) }
        }
    }
}

/// `GET /competitions/{id}/standings.csv`: the API's CSV, for a browser's link.
pub async fn standings_csv(
    state: web::Data<AppState>,
    reader: Reader,
    id: web::Path<String>,
) -> Result<HttpResponse, PageError> {
    let id = parse_id(&reader.chrome, &id)?;
    let text = db(&state, &reader.chrome, move |conn| {
        service::standings_csv(conn, id)
    })
    .await?;
    Ok(HttpResponse::Ok()
        .content_type("text/csv; charset=utf-8")
        .insert_header((
            actix_web::http::header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"standings-{id}.csv\""),
        ))
        .body(text))
}

/// `POST /competitions/{id}/{enter|withdraw|start|director}`. A refusal of the service answers
/// the competition's page with its status and the reason, in the reader's language, above it.
pub async fn act(
    state: web::Data<AppState>,
    me: SignedIn,
    path: web::Path<(String, String)>,
    form: Form,
) -> Result<HttpResponse, PageError> {
    let (id, what) = path.into_inner();
    let id = parse_id(&me.chrome, &id)?;
    let form = form.into_inner();
    me.check_csrf(
        &state,
        form.get("csrf"),
        t(me.chrome.locale, "competitions"),
    )?;
    let (status, said, shown) = match step(&me.chrome, &what, me.user, id, &form)? {
        // A field of the director's form the page itself cannot read: said on the competition's
        // page, as the service's refusals are, so that the organiser keeps the form at hand.
        Err(unfit) => {
            let shown = db(&state, &me.chrome, move |conn| load(conn, id)).await?;
            let said = unfit.sentence(me.chrome.locale);
            (StatusCode::UNPROCESSABLE_ENTITY, said, shown)
        }
        Ok(work) => {
            let Some((refusal, shown)) = attempt(&state, &me.chrome, id, work).await? else {
                crate::jobs::wake();
                return Ok(see_other(&format!("/competitions/{id}")));
            };
            let (status, said) = refusal_said(me.chrome.locale, &refusal, what == "director");
            (status, said, shown)
        }
    };
    let body = shown.page(&me.chrome, Some(me.user.0), Some(&me.csrf), Some(&said));
    Ok(respond(status, body))
}

/// Runs `work` on competition `id`: nothing when it was done, else its refusal with the page to
/// say it on (read in the same round trip, only when there is a refusal to show).
async fn attempt(
    state: &AppState,
    chrome: &Chrome,
    id: Uuid,
    work: Step,
) -> Result<Option<(Refusal, Shown)>, PageError> {
    db(state, chrome, move |conn| match work(conn)? {
        Ok(_) => Ok(None),
        Err(refusal) => Ok(Some((refusal, load(conn, id)?))),
    })
    .await
}

/// One service step of a competition's forms: the competition after it, or why not.
type Step = Box<
    dyn FnOnce(&mut diesel::PgConnection) -> Result<Result<CompetitionResource, Refusal>, ApiError>
        + Send,
>;

/// The service step the form `what` asks of `user` for competition `id`; the field of the
/// director's form that does not fit; or the page for a form there is not.
fn step(
    chrome: &Chrome,
    what: &str,
    user: crate::domain::UserId,
    id: Uuid,
    form: &Fields,
) -> Result<Result<Step, Unfit>, PageError> {
    Ok(Ok(match what {
        "enter" => Box::new(move |conn| service::try_enter(conn, user, id, None)),
        "withdraw" => Box::new(move |conn| service::try_leave(conn, user, id, user.0)),
        "start" => Box::new(move |conn| service::try_start(conn, user, id)),
        "director" => match director_action(form) {
            Ok((action, reason)) => {
                Box::new(move |conn| service::try_act(conn, user, id, action, &reason))
            }
            Err(unfit) => return Ok(Err(unfit)),
        },
        _ => return Err(nothing_here(chrome)),
    }))
}

/// A refusal of the service as the page says it, in `l`, with its status: a field of the
/// director's form (`by_director`) named by its label (422, as the form's own checks), else what
/// the competition's state or the reader's entry does not allow (the API's status). Never the
/// service's English, which names accounts by their ids.
fn refusal_said(l: Locale, r: &Refusal, by_director: bool) -> (StatusCode, String) {
    let field = |unfit: Unfit| (StatusCode::UNPROCESSABLE_ENTITY, unfit.sentence(l));
    let places = |seats: usize| {
        let accepts = Accepts::Counted("accepts_ranking", seats);
        field(unfit("comp_places", accepts))
    };
    let said = match r {
        Refusal::Reason(_) => {
            let accepts = Accepts::Counted("accepts_one_line", director::REASON_MOST);
            return field(unfit("comp_reason", accepts));
        }
        Refusal::ExtensionSeconds => {
            let accepts = Accepts::range(&director::EXTENSION_SECONDS);
            return field(unfit("comp_seconds", accepts));
        }
        Refusal::PlacesPerSeat { seats } | Refusal::PlacesRange { seats } => {
            return places(*seats);
        }
        Refusal::NotARanking(given) => return places(given.len()),
        Refusal::NotItsGame(_) => return field(offered("comp_game")),
        // The player a director's form names (a winner or a newcomer too, by the API's forms).
        Refusal::NotEntered(_) if by_director => return field(offered("comp_player")),
        Refusal::NoAccount(_)
        | Refusal::AlreadyEntrant(_)
        | Refusal::WinnerNotEntrant(_)
        | Refusal::WinnerNotInGame { .. } => return field(offered("comp_player")),
        Refusal::NotOrganiser
        | Refusal::NotDirector
        | Refusal::EntersOthers
        | Refusal::WithdrawsOthers => t(l, "comp_refused_not_organiser").to_owned(),
        Refusal::EntryClosed => t(l, "comp_refused_entry_closed").to_owned(),
        Refusal::AlreadyEntered => t(l, "comp_refused_already_entered").to_owned(),
        Refusal::NotInvited => t(l, "comp_refused_not_invited").to_owned(),
        Refusal::AddressNotKnownToWork => t(l, "comp_refused_address_unproven").to_owned(),
        Refusal::RatingBelow {
            min,
            rating: Some(rating),
        } => t(l, "comp_refused_rating")
            .replace("{min}", &min.to_string())
            .replace("{rating}", &rating.to_string()),
        Refusal::RatingBelow { min, rating: None } => {
            t(l, "comp_refused_unrated").replace("{min}", &min.to_string())
        }
        Refusal::Full { max } => t(l, "comp_refused_full").replace("{n}", &max.to_string()),
        Refusal::AlreadyLeft { .. } if by_director => t(l, "comp_refused_player_left").to_owned(),
        Refusal::AlreadyLeft { .. } => t(l, "comp_refused_you_left").to_owned(),
        Refusal::NotEntered(_) => t(l, "comp_refused_not_entered").to_owned(),
        Refusal::Finished => t(l, "comp_refused_finished").to_owned(),
        Refusal::NotStartable { .. } | Refusal::NoNextSeason => {
            t(l, "comp_refused_not_startable").to_owned()
        }
        Refusal::CannotStart(e) => cannot_start(l, e),
        Refusal::SeasonTooFew => t(l, "comp_refused_season_too_few").to_owned(),
        Refusal::Finalised => t(l, "comp_refused_finalised").to_owned(),
        Refusal::NotStarted => t(l, "comp_refused_not_started").to_owned(),
        Refusal::NotRunning(_) => t(l, "comp_refused_not_running").to_owned(),
        Refusal::NotPaused => t(l, "comp_refused_not_paused").to_owned(),
        Refusal::NoDeadline => t(l, "comp_refused_no_deadline").to_owned(),
    };
    // The API's status, but for a reader not entered (its 404): the page is there, and what
    // stops the withdrawal is the reader's entry, as for one who left already (409).
    let status = match actix_web::ResponseError::status_code(&ApiError::from(r.clone())) {
        StatusCode::NOT_FOUND => StatusCode::CONFLICT,
        status => status,
    };
    (status, said)
}

/// Why the entrants do not make the format's first round, in `l`.
fn cannot_start(l: Locale, e: &FormatError) -> String {
    match e {
        FormatError::TooFew { min, .. } => {
            t(l, "comp_refused_too_few").replace("{n}", &min.to_string())
        }
        FormatError::SwissRounds { rounds, needed, .. } => t(l, "comp_refused_swiss_rounds")
            .replace("{rounds}", &rounds.to_string())
            .replace("{n}", &needed.to_string()),
        FormatError::Tables(TablesError::CannotSplit { entrants, .. }) => {
            t(l, "comp_refused_tables_split").replace("{n}", &entrants.to_string())
        }
        // Checked when the competition was made: not met by a format stored.
        _ => t(l, "comp_refused_format").to_owned(),
    }
}

fn field<'a>(form: &'a Fields, name: &str) -> Option<&'a str> {
    form.get(name).map(str::trim).filter(|s| !s.is_empty())
}

/// One of the ids a select of the form lists (`label` its label's key).
fn uuid_field(form: &Fields, name: &str, label: &'static str) -> Result<Uuid, Unfit> {
    field(form, name)
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| offered(label))
}

/// The director's form as an action.
fn director_action(form: &Fields) -> Result<(DirectorAction, String), Unfit> {
    let reason = field(form, "reason").unwrap_or("").to_owned();
    let action = match field(form, "action").unwrap_or("") {
        "set_result" => {
            let places = field(form, "places")
                .unwrap_or("")
                .split(',')
                .map(|p| p.trim().parse::<u32>())
                .collect::<Result<Vec<u32>, _>>()
                .map_err(|_| unfit("comp_places", Accepts::Described("accepts_places")))?;
            DirectorAction::SetResult {
                game: uuid_field(form, "game_id", "comp_game")?,
                given: ResultGiven::Places(places),
            }
        }
        "extend_deadline" => DirectorAction::ExtendDeadline {
            game: uuid_field(form, "game_id", "comp_game")?,
            seconds: field(form, "seconds")
                .and_then(|s| s.parse().ok())
                .ok_or_else(|| unfit("comp_seconds", Accepts::Described("accepts_whole_number")))?,
        },
        "pause" => DirectorAction::Pause,
        "resume" => DirectorAction::Resume,
        "withdraw" => DirectorAction::Withdraw {
            account: uuid_field(form, "account_id", "comp_player")?,
        },
        "disqualify" => DirectorAction::Disqualify {
            account: uuid_field(form, "account_id", "comp_player")?,
        },
        "finalise" => DirectorAction::Finalise,
        _ => {
            return Err(offered("comp_action"));
        }
    };
    Ok((action, reason))
}

/// `GET /competitions/new`.
pub async fn new_form(state: web::Data<AppState>, me: SignedIn) -> Result<HttpResponse, PageError> {
    let _ = &state;
    Ok(respond(
        StatusCode::OK,
        new_page(&me.chrome, &me.csrf, None, &Fields::default()),
    ))
}

fn new_page(chrome: &Chrome, csrf: &str, error: Option<&str>, entered: &Fields) -> Markup {
    let l = chrome.locale;
    let value = |k: &str, default: &str| entered.get(k).unwrap_or(default).to_owned();
    let body = html! {
        h1 { (t(l, "new_competition")) }
        @if let Some(e) = error { p.error role="alert" { (e) } }
        form method="post" action="/competitions/new" data-action="create-competition" {
            input type="hidden" name="csrf" value=(csrf);
            p { label for="c-name" { (t(l, "comp_name")) } " " input id="c-name" name="name" required maxlength="120" value=(value("name", "")); }
            p {
                label for="c-kind" { (t(l, "game")) } " "
                select id="c-kind" name="kind" {
                    @for k in GameKind::ALL { option value=(k.as_str()) selected[value("kind", GameKind::ALL[0].as_str()) == k.as_str()] { (k.info().name) } }
                }
            }
            p {
                label for="c-format" { (t(l, "comp_format")) } " "
                select id="c-format" name="format" {
                    @for (key, word) in format_choices(l) {
                        option value=(key) selected[value("format", "swiss") == key] { (word) }
                    }
                }
            }
            p { label for="c-rounds" { (t(l, "comp_rounds")) } " " input id="c-rounds" name="rounds" inputmode="numeric" value=(value("rounds", "5")); }
            p { label for="c-tables" { (t(l, "comp_table_sizes")) } " " input id="c-tables" name="table_sizes" value=(value("table_sizes", "3,4")); }
            p { label for="c-division" { (t(l, "comp_division_size")) } " " input id="c-division" name="division_size" inputmode="numeric" value=(value("division_size", "8")); }
            p {
                label for="c-entry" { (t(l, "comp_entry")) } " "
                select id="c-entry" name="entry" {
                    option value="invite" selected[value("entry", "invite") == "invite"] { (t(l, "comp_by_invitation")) }
                    option value="open" selected[value("entry", "invite") == "open"] { (t(l, "comp_open")) }
                }
            }
            p { label for="c-invite" { (t(l, "comp_invite")) } br; textarea id="c-invite" name="invite" rows="4" { (invited(entered).join("\n")) } }
            p {
                label for="c-clock" { (t(l, "clock")) } " "
                select id="c-clock" name="clock" {
                    @for (key, v) in super::new_game::clock_choices().into_iter().filter(|(k, _)| *k != "none") {
                        @if let Ok(clock) = Clock::from_request(Some(&v), 0) {
                            option value=(key) selected[value("clock", "per_move_3d") == key] { (super::clock::describe(chrome, &clock)) }
                        }
                    }
                }
            }
            p {
                label for="c-tb" { (t(l, "comp_tie_breaks")) } " "
                input id="c-tb" name="tie_breaks" value=(value("tie_breaks", "buchholz,sonneborn_berger,wins"));
            }
            p { label { input type="checkbox" name="rated" value="on" checked[entered.has("rated")]; " " (t(l, "rated_game")) } }
            p { label { input type="checkbox" name="require_working_address" value="on" checked[entered.has("require_working_address")]; " " (t(l, "comp_working_address")) } }
            button type="submit" { (t(l, "new_competition")) }
        }
    };
    page(chrome, t(l, "new_competition"), body)
}

/// A number field (`label` its label's key); empty is `default`.
fn number<T: std::str::FromStr>(
    form: &Fields,
    name: &str,
    label: &'static str,
    default: T,
) -> Result<T, Unfit> {
    match field(form, name) {
        None => Ok(default),
        Some(v) => v
            .parse()
            .map_err(|_| unfit(label, Accepts::Described("accepts_whole_number"))),
    }
}

/// The form's invitations: addresses, each once (the service's refusal of one given twice
/// repeats it).
fn invitations(form: &Fields) -> Result<Vec<EmailAddress>, Unfit> {
    let refused = || unfit("comp_invite", Accepts::Described("accepts_addresses"));
    let mut invite: Vec<EmailAddress> = Vec::new();
    let given = invited(form).join("\n");
    for text in given.split([',', '\n', ' ', ';']).map(str::trim) {
        if text.is_empty() {
            continue;
        }
        let address = EmailAddress::parse(text).map_err(|_| refused())?;
        if invite.contains(&address) {
            return Err(refused());
        }
        invite.push(address);
    }
    Ok(invite)
}

/// The form as a competition request.
fn new_request(form: &Fields, min_clock: i64) -> Result<NewCompetition, Unfit> {
    let kind = GameKind::parse(field(form, "kind").unwrap_or(GameKind::ALL[0].as_str()))
        .ok_or_else(|| offered("game"))?;
    let rounds: u32 = number(form, "rounds", "comp_rounds", 5)?;
    let format = match field(form, "format").unwrap_or("swiss") {
        "swiss" => Format::Swiss { rounds },
        "round_robin" => Format::RoundRobin {
            cycles: 1,
            rounds: Pace::AllAtOnce,
        },
        "round_robin_double" => Format::RoundRobin {
            cycles: 2,
            rounds: Pace::AllAtOnce,
        },
        "knockout" => Format::Knockout { games_per_match: 1 },
        "knockout_2" => Format::Knockout { games_per_match: 2 },
        "league" => Format::League {
            division_size: number(form, "division_size", "comp_division_size", 8)?,
            promote: 2,
            relegate: 2,
        },
        "tables" => Format::Tables {
            table_sizes: field(form, "table_sizes")
                .unwrap_or("3,4")
                .split(',')
                .map(|s| s.trim().parse::<usize>())
                .collect::<Result<Vec<_>, _>>()
                .map_err(|_| {
                    unfit(
                        "comp_table_sizes",
                        Accepts::Described("accepts_table_sizes"),
                    )
                })?,
            rounds,
        },
        _ => return Err(offered("comp_format")),
    };
    format_fits(kind, &format)?;
    let entry = match field(form, "entry").unwrap_or("invite") {
        "open" => Entry::Open,
        "invite" => Entry::Invite,
        _ => return Err(offered("comp_entry")),
    };
    let invite = invitations(form)?;
    let mut tie_breaks: Vec<TieBreak> = Vec::new();
    let tie_breaks_refused = || {
        let names = TieBreak::ALL.iter().map(|tb| tb.name()).collect();
        unfit("comp_tie_breaks", Accepts::List(names))
    };
    for text in field(form, "tie_breaks")
        .unwrap_or("")
        .split(',')
        .map(str::trim)
    {
        if text.is_empty() {
            continue;
        }
        let tb = text.parse::<TieBreak>().map_err(|_| tie_breaks_refused())?;
        if tie_breaks.contains(&tb) {
            return Err(tie_breaks_refused());
        }
        tie_breaks.push(tb);
    }
    let clock_refused = || unfit("clock", Accepts::Described("accepts_offered_clock"));
    let clock_key = field(form, "clock").unwrap_or("per_move_3d");
    let clock = super::new_game::clock_choices()
        .into_iter()
        .find(|(key, _)| *key == clock_key && *key != "none")
        .ok_or_else(clock_refused)?
        .1;
    // Checked here as the service checks it: its refusal is in English.
    let name = crate::domain::one_line_text("name", form.get("name").unwrap_or(""), NAME_MOST)
        .map_err(|_| unfit("comp_name", Accepts::Counted("accepts_one_line", NAME_MOST)))?;
    Ok(NewCompetition {
        name,
        kind,
        options: serde_json::Value::Null,
        clock: Clock::from_request(Some(&clock), min_clock).map_err(|_| clock_refused())?,
        rated: form.has("rated"),
        format,
        entry,
        invite,
        max_entrants: None,
        min_rating: None,
        require_working_address: form.has("require_working_address"),
        tie_breaks,
        scoring: Scoring {
            bye_points: Points::ONE,
            place_points: None,
        },
        vacation_allowed: true,
    })
}

/// Whether `format` is well formed and makes games `kind` is played in, as the service checks it
/// (its sentences are English and repeat the numbers): a refusal names the field at fault and
/// what it takes.
fn format_fits(kind: GameKind, format: &Format) -> Result<(), Unfit> {
    let info = kind.info();
    let players = usize::from(info.min_seats)..=usize::from(info.max_seats);
    // Tables of the sizes the format allows that the game is played at.
    let tables = *TABLE_SIZES.start().max(players.start())..=*TABLE_SIZES.end().min(players.end());
    let for_the_game = || unfit("comp_format", Accepts::Described("accepts_format_for_game"));
    let sizes_refused = || {
        let accepts = Accepts::between(
            "accepts_table_sizes_between",
            "accepts_table_size_exactly",
            &tables,
        );
        unfit("comp_table_sizes", accepts)
    };
    match format {
        Format::Tables { .. } if tables.is_empty() => return Err(for_the_game()),
        Format::Tables { table_sizes, .. } if !table_sizes.iter().all(|s| tables.contains(s)) => {
            return Err(sizes_refused());
        }
        Format::Tables { .. } => {}
        _ if !players.contains(&2) => return Err(for_the_game()),
        _ => {}
    }
    format.check().map_err(|refused| match (refused, format) {
        (
            FormatError::League(_),
            Format::League {
                promote, relegate, ..
            },
        ) => {
            // A division keeps someone who neither goes up nor down.
            let sizes = promote.saturating_add(*relegate).saturating_add(1).max(2)..=MAX_DIVISION;
            unfit("comp_division_size", Accepts::range(&sizes))
        }
        (FormatError::SwissRange(_) | FormatError::TableRounds, _) => {
            unfit("comp_rounds", Accepts::range(&ROUNDS))
        }
        (FormatError::TableSize, _) => sizes_refused(),
        _ => offered("comp_format"),
    })
}

/// `POST /competitions/new`.
pub async fn create(
    state: web::Data<AppState>,
    me: SignedIn,
    form: Form<Invitations>,
) -> Result<HttpResponse, PageError> {
    let form = form.into_inner();
    let refuse = |text: &str| {
        let body = new_page(&me.chrome, &me.csrf, Some(text), &form);
        Ok(respond(StatusCode::UNPROCESSABLE_ENTITY, body))
    };
    if me.check_csrf(&state, form.get("csrf"), "").is_err() {
        return refuse(t(me.chrome.locale, "csrf"));
    }
    let request = match new_request(&form, state.settings.games.clock_min_seconds) {
        Ok(r) => r,
        Err(refusal) => return refuse(&refusal.sentence(me.chrome.locale)),
    };
    let user = me.user;
    let created = crate::db::run(&state.pool, move |conn| {
        service::create(conn, user, request)
    });
    match created.await.map_err(ApiError::from) {
        Ok(c) => {
            crate::jobs::wake();
            Ok(see_other(&format!("/competitions/{}", c.id)))
        }
        Err(ApiError::Validation(_)) => refuse(&not_taken(me.chrome.locale, user, "competition")),
        Err(e) => Err(PageError::api(&me.chrome, &e)),
    }
}
