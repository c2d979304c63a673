//! Competitions (design.md section 15): the organiser's settings, entry, the start, and the
//! reads (the competition, its rounds, standings, exports, audit log). Pairing and scoring are
//! the pure module `crate::competitions`; [`rounds`] stores what it decides and advances the
//! competition when a round's last game ends, [`director`] holds the organiser's corrections.
//!
//! Must not depend on actix or routes.

pub mod director;
mod records;
mod refusal;
mod resource;
pub mod rounds;

pub use director::{DirectorAction, ResultGiven, act, try_act};
pub use records::{standings, standings_csv, trf};
pub use refusal::Refusal;
pub use resource::{
    AccountRef, AuditEntry, ByeResource, CompetitionResource, CompetitionSummary, EntrantResource,
    PairingResource, PairingResult, RoundResource, StandingRow, TieBreakResource,
};
pub use rounds::{AdvanceJob, game_ended};

use crate::competitions::format::Format;
use crate::competitions::standings::Scoring;
use crate::competitions::tiebreaks::TieBreak;
use crate::domain::{EmailAddress, UserId};
use crate::engine::registry::GameKind;
use crate::error::ApiError;
use crate::schema::{competition_entrants, competition_invitations, competitions, ratings, users};
use crate::services::clocks::Clock;
use chrono::{DateTime, Utc};
use diesel::prelude::*;
use refusal::Failure;
use serde_json::Value;
use uuid::Uuid;

/// How entrants come in.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, utoipa::ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Entry {
    /// Only the invited addresses (and accounts the organiser adds).
    Invite,
    /// Anyone signed in, within `max_entrants` and `min_rating`.
    Open,
}

impl Entry {
    fn as_str(self) -> &'static str {
        match self {
            Entry::Invite => "invite",
            Entry::Open => "open",
        }
    }
}

/// A competition's state.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, utoipa::ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Registering,
    Running,
    /// The director paused it: no round starts until it resumes.
    Paused,
    Finished,
}

/// The most characters of a competition's name (the page checks it too, to say so in its
/// reader's language).
pub const NAME_MOST: usize = 120;

impl Status {
    pub const ALL: [Status; 4] = [
        Status::Registering,
        Status::Running,
        Status::Paused,
        Status::Finished,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Status::Registering => "registering",
            Status::Running => "running",
            Status::Paused => "paused",
            Status::Finished => "finished",
        }
    }

    pub fn parse(s: &str) -> Option<Status> {
        Status::ALL.into_iter().find(|x| x.as_str() == s)
    }
}

/// A checked request to create a competition.
#[derive(Debug, Clone)]
pub struct NewCompetition {
    pub name: String,
    pub kind: GameKind,
    /// As the client gave them; resolved here against the game's presets.
    pub options: Value,
    pub clock: Clock,
    pub rated: bool,
    pub format: Format,
    pub entry: Entry,
    pub invite: Vec<EmailAddress>,
    pub max_entrants: Option<u32>,
    pub min_rating: Option<i32>,
    /// Open entry only for accounts whose mail address is known to work.
    pub require_working_address: bool,
    pub tie_breaks: Vec<TieBreak>,
    pub scoring: Scoring,
    pub vacation_allowed: bool,
}

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = competitions, check_for_backend(diesel::pg::Pg))]
pub(crate) struct CompetitionRow {
    pub id: Uuid,
    pub name: String,
    pub kind: String,
    pub options: Value,
    pub clock: Value,
    pub rated: bool,
    pub format: Value,
    pub entry: String,
    pub max_entrants: Option<i32>,
    pub min_rating: Option<i32>,
    pub tie_breaks: Value,
    pub scoring: Value,
    pub vacation_allowed: bool,
    pub status: String,
    pub organiser_id: Uuid,
    pub current_round: i32,
    pub season: i32,
    pub final_standings: Option<Value>,
    pub finalised_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    pub started_at: Option<DateTime<Utc>>,
    pub finished_at: Option<DateTime<Utc>>,
    pub require_working_address: bool,
}

impl CompetitionRow {
    pub(crate) fn format(&self) -> Result<Format, ApiError> {
        serde_json::from_value(self.format.clone()).map_err(ApiError::internal)
    }

    pub(crate) fn scoring(&self) -> Scoring {
        serde_json::from_value(self.scoring.clone()).unwrap_or_default()
    }

    pub(crate) fn tie_breaks(&self) -> Vec<TieBreak> {
        serde_json::from_value(self.tie_breaks.clone()).unwrap_or_default()
    }

    pub(crate) fn status(&self) -> Status {
        Status::parse(&self.status).unwrap_or(Status::Finished)
    }

    pub(crate) fn kind(&self) -> Result<GameKind, ApiError> {
        GameKind::parse(&self.kind).ok_or_else(|| {
            ApiError::internal(anyhow::anyhow!(
                "competition {} has an unknown kind",
                self.id
            ))
        })
    }
}

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = competition_entrants, check_for_backend(diesel::pg::Pg))]
pub(crate) struct EntrantRow {
    pub number: i32,
    pub user_id: Uuid,
    pub status: String,
    pub rating: Option<i32>,
    pub pairing_number: Option<i32>,
    pub division: Option<i32>,
    pub annulled: bool,
    pub entered_at: DateTime<Utc>,
    pub left_at: Option<DateTime<Utc>>,
}

impl EntrantRow {
    pub(crate) fn active(&self) -> bool {
        self.status == "entered"
    }
}

pub(crate) fn not_found(id: Uuid) -> ApiError {
    ApiError::NotFound(format!("there is no competition {id}"))
}

pub(crate) fn load(
    conn: &mut PgConnection,
    id: Uuid,
    lock: bool,
) -> Result<CompetitionRow, ApiError> {
    let query = competitions::table
        .find(id)
        .select(CompetitionRow::as_select());
    let row = if lock {
        query.for_update().first(conn).optional()?
    } else {
        query.first(conn).optional()?
    };
    row.ok_or_else(|| not_found(id))
}

/// Entrants in entry order.
pub(crate) fn entrants(conn: &mut PgConnection, id: Uuid) -> Result<Vec<EntrantRow>, ApiError> {
    Ok(competition_entrants::table
        .filter(competition_entrants::competition_id.eq(id))
        .order(competition_entrants::number)
        .select(EntrantRow::as_select())
        .load(conn)?)
}

fn require_organiser(row: &CompetitionRow, caller: UserId) -> Result<(), Refusal> {
    if row.organiser_id != caller.0 {
        return Err(Refusal::NotOrganiser);
    }
    Ok(())
}

/// Creates a competition open for entries and mails its invitations.
///
/// # Errors
/// 422 for options the game refuses, a format it cannot play, or a bad list.
pub fn create(
    conn: &mut PgConnection,
    organiser: UserId,
    request: NewCompetition,
) -> Result<CompetitionResource, ApiError> {
    let NewCompetition {
        name,
        kind,
        options,
        mut clock,
        rated,
        format,
        entry,
        invite,
        max_entrants,
        min_rating,
        require_working_address,
        tie_breaks,
        scoring,
        vacation_allowed,
    } = request;
    let name = crate::domain::one_line_text("name", &name, NAME_MOST)
        .map_err(|e| ApiError::Validation(e.to_string()))?;
    let resolved = kind
        .resolve_options(&options)
        .map_err(|e| ApiError::Validation(format!("options: {e}")))?;
    format
        .check()
        .map_err(|e| ApiError::Validation(format!("format: {e}")))?;
    check_format_fits(kind, &format, &options)?;
    let options = resolved;
    if let Some(list) = &scoring.place_points
        && list.len() > 5
    {
        return Err(ApiError::Validation(
            "place_points: at most 5 places".to_owned(),
        ));
    }
    let mut seen = std::collections::BTreeSet::new();
    for tb in &tie_breaks {
        if !seen.insert(tb.name()) {
            return Err(ApiError::Validation(format!(
                "tie_breaks: {} is listed twice",
                tb.name()
            )));
        }
    }
    if max_entrants.is_some_and(|m| !(2..=1000).contains(&m)) {
        return Err(ApiError::Validation(
            "max_entrants: between 2 and 1000".to_owned(),
        ));
    }
    if clock.control == crate::services::clocks::Control::None {
        return Err(ApiError::Validation(
            "clock: a competition's games need a clock (one without could stall it for good)"
                .to_owned(),
        ));
    }
    clock.vacation_allowed = vacation_allowed;
    let id = Uuid::new_v4();
    conn.transaction(|conn| {
        diesel::insert_into(competitions::table)
            .values((
                competitions::id.eq(id),
                competitions::name.eq(&name),
                competitions::kind.eq(kind.as_str()),
                competitions::options.eq(&options),
                competitions::clock.eq(clock.to_json()),
                competitions::rated.eq(rated),
                competitions::format.eq(serde_json::to_value(&format).map_err(ApiError::internal)?),
                competitions::entry.eq(entry.as_str()),
                competitions::max_entrants.eq(max_entrants.map(|m| m as i32)),
                competitions::min_rating.eq(min_rating),
                competitions::require_working_address.eq(require_working_address),
                competitions::tie_breaks.eq(serde_json::to_value(&tie_breaks).map_err(ApiError::internal)?),
                competitions::scoring.eq(serde_json::to_value(&scoring).map_err(ApiError::internal)?),
                competitions::vacation_allowed.eq(vacation_allowed),
                competitions::status.eq(Status::Registering.as_str()),
                competitions::organiser_id.eq(organiser.0),
            ))
            .execute(conn)?;
        let mut seen = std::collections::BTreeSet::new();
        for email in &invite {
            if !seen.insert(email.as_str()) {
                return Err(ApiError::Validation(format!("{email} is invited twice")));
            }
        }
        invite_addresses(conn, id, &invite)?;
        tracing::info!(competition.id = %id, kind = kind.as_str(), invited = invite.len(), "competition created");
        get(conn, id)
    })
    .inspect(|_| crate::jobs::wake())
}

fn invite_addresses(
    conn: &mut PgConnection,
    id: Uuid,
    invite: &[EmailAddress],
) -> Result<(), ApiError> {
    let mut jobs = Vec::new();
    for email in invite {
        let added = diesel::insert_into(competition_invitations::table)
            .values((
                competition_invitations::competition_id.eq(id),
                competition_invitations::email.eq(email.as_str()),
            ))
            .on_conflict_do_nothing()
            .execute(conn)?;
        if added > 0 {
            jobs.push(
                crate::email::jobs::CompetitionInvitationMail {
                    competition_id: id,
                    email: email.as_str().to_owned(),
                    message_id: crate::email::jobs::message_id(),
                }
                .job(),
            );
        }
    }
    crate::jobs::enqueue(conn, &jobs)?;
    Ok(())
}

use crate::jobs::BackgroundJob;

/// Tables need a game for 3 seats or more; two-seat formats a game for two. The options as
/// the organiser gave them must suit every size of game the format makes.
fn check_format_fits(
    kind: GameKind,
    format: &Format,
    options: &serde_json::Value,
) -> Result<(), ApiError> {
    let info = kind.info();
    let fits = |n: usize| (usize::from(info.min_seats)..=usize::from(info.max_seats)).contains(&n);
    let sizes: &[usize] = match format {
        Format::Tables { table_sizes, .. } => {
            if let Some(bad) = table_sizes.iter().find(|s| !fits(**s)) {
                return Err(ApiError::Validation(format!(
                    "format: {} is for {} to {} players, not tables of {bad}",
                    info.name, info.min_seats, info.max_seats
                )));
            }
            table_sizes
        }
        _ if !fits(2) => {
            return Err(ApiError::Validation(format!(
                "format: {} is not played by two, so it needs the `tables` format",
                info.name
            )));
        }
        _ => &[2],
    };
    for &size in sizes {
        kind.options_fit_seats(options, u8::try_from(size).unwrap_or(u8::MAX))
            .map_err(|e| ApiError::Validation(format!("options: {e}")))?;
    }
    Ok(())
}

/// The public list, newest first.
///
/// # Errors
/// Database failures.
pub fn list(
    conn: &mut PgConnection,
    status: Option<Status>,
    kind: Option<GameKind>,
    limit: i64,
) -> Result<Vec<CompetitionSummary>, ApiError> {
    let mut query = competitions::table
        .inner_join(users::table)
        .order(competitions::created_at.desc())
        .limit(limit)
        .select((CompetitionRow::as_select(), users::display_name))
        .into_boxed();
    if let Some(s) = status {
        query = query.filter(competitions::status.eq(s.as_str()));
    }
    if let Some(k) = kind {
        query = query.filter(competitions::kind.eq(k.as_str()));
    }
    let rows: Vec<(CompetitionRow, String)> = query.load(conn)?;
    let ids: Vec<Uuid> = rows.iter().map(|(r, _)| r.id).collect();
    let counts: Vec<(Uuid, i64)> = competition_entrants::table
        .filter(competition_entrants::competition_id.eq_any(&ids))
        .group_by(competition_entrants::competition_id)
        .select((
            competition_entrants::competition_id,
            diesel::dsl::count_star(),
        ))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(row, organiser)| {
            let count = counts
                .iter()
                .find(|(id, _)| *id == row.id)
                .map_or(0, |(_, n)| *n);
            CompetitionSummary::of(&row, organiser, count)
        })
        .collect())
}

/// One competition with its entrants.
///
/// # Errors
/// 404 for no such competition.
pub fn get(conn: &mut PgConnection, id: Uuid) -> Result<CompetitionResource, ApiError> {
    let row = load(conn, id, false)?;
    let organiser = account(conn, row.organiser_id)?;
    let list = entrants(conn, id)?;
    let mut out = Vec::with_capacity(list.len());
    for e in &list {
        out.push(EntrantResource::of(e, account(conn, e.user_id)?));
    }
    out.sort_by_key(|e| (e.pairing_number.unwrap_or(i32::MAX), e.number));
    let invited: i64 = competition_invitations::table
        .filter(competition_invitations::competition_id.eq(id))
        .count()
        .get_result(conn)?;
    CompetitionResource::of(&row, organiser, out, invited)
}

pub(crate) fn account(conn: &mut PgConnection, id: Uuid) -> Result<AccountRef, ApiError> {
    let name: String = users::table
        .find(id)
        .select(users::display_name)
        .first(conn)?;
    Ok(AccountRef {
        id,
        display_name: name,
    })
}

/// Enters `who` (the caller, or an account the organiser adds).
///
/// # Errors
/// 403 when entry is closed to the caller, 409 when already entered (or withdrawn or
/// disqualified), full or started.
pub fn enter(
    conn: &mut PgConnection,
    caller: UserId,
    id: Uuid,
    who: Option<Uuid>,
) -> Result<CompetitionResource, ApiError> {
    refusal::as_api(try_enter(conn, caller, id, who))
}

/// [`enter`], its refusal as a [`Refusal`] (`Ok(Err(_))`, nothing written).
///
/// # Errors
/// 404 for no such competition; database failures.
pub fn try_enter(
    conn: &mut PgConnection,
    caller: UserId,
    id: Uuid,
    who: Option<Uuid>,
) -> Result<Result<CompetitionResource, Refusal>, ApiError> {
    refusal::split(conn.transaction(|conn| {
        let row = load(conn, id, true)?;
        let who = who.unwrap_or(caller.0);
        let by_organiser = row.organiser_id == caller.0;
        if who != caller.0 && !by_organiser {
            return Err(Refusal::EntersOthers.into());
        }
        let between_seasons = row.status() == Status::Finished
            && row.finalised_at.is_none()
            && matches!(row.format()?, Format::League { .. });
        if row.status() != Status::Registering && !between_seasons {
            return Err(Refusal::EntryClosed.into());
        }
        let email: Option<String> = users::table
            .find(who)
            .select(users::email)
            .first(conn)
            .optional()?;
        let Some(email) = email else {
            return Err(Refusal::NoAccount(who).into());
        };
        let list = entrants(conn, id)?;
        match list.iter().find(|e| e.user_id == who) {
            Some(e) if e.active() => return Err(Refusal::AlreadyEntered.into()),
            // A league between seasons keeps those who left (their past games count): they are
            // told that, not that they are entered.
            Some(e) => {
                return Err(Refusal::AlreadyLeft {
                    account: who,
                    status: e.status.clone(),
                }
                .into());
            }
            None => {}
        }
        if !by_organiser {
            if row.entry == "invite" {
                let invited: i64 = competition_invitations::table
                    .filter(competition_invitations::competition_id.eq(id))
                    .filter(competition_invitations::email.eq(&email))
                    .count()
                    .get_result(conn)?;
                if invited == 0 {
                    return Err(Refusal::NotInvited.into());
                }
            }
            if row.require_working_address
                && !crate::services::accounts::address_is_known_to_work(conn, UserId(who))?
            {
                return Err(Refusal::AddressNotKnownToWork.into());
            }
            if let Some(min) = row.min_rating {
                // An account without a rating in the game is below any minimum.
                let rating = rating_of(conn, who, &row.kind)?;
                if rating.is_none_or(|r| r < min) {
                    return Err(Refusal::RatingBelow { min, rating }.into());
                }
            }
        }
        if let Some(max) = row.max_entrants
            && list.len() >= max as usize
        {
            return Err(Refusal::Full { max }.into());
        }
        let number = list.iter().map(|e| e.number).max().unwrap_or(0) + 1;
        diesel::insert_into(competition_entrants::table)
            .values((
                competition_entrants::competition_id.eq(id),
                competition_entrants::number.eq(number),
                competition_entrants::user_id.eq(who),
            ))
            .execute(conn)?;
        tracing::info!(competition.id = %id, user.id = %who, number, "entered");
        Ok::<_, Failure>(get(conn, id)?)
    }))
}

/// A player's rating in a kind, rounded, if they have one.
pub(crate) fn rating_of(
    conn: &mut PgConnection,
    user: Uuid,
    kind: &str,
) -> Result<Option<i32>, ApiError> {
    let r: Option<f64> = ratings::table
        .find((user, kind))
        .select(ratings::rating)
        .first(conn)
        .optional()?;
    Ok(r.map(|r| r.round() as i32))
}

/// Withdraws `who` (oneself, or by the organiser). Before the start the entry is removed; after
/// it, the withdrawal rule applies (see [`rounds::withdraw`]).
///
/// # Errors
/// 403 for someone else's entry, 404 when not entered, 409 when already withdrawn.
pub fn leave(
    conn: &mut PgConnection,
    caller: UserId,
    id: Uuid,
    who: Uuid,
) -> Result<CompetitionResource, ApiError> {
    refusal::as_api(try_leave(conn, caller, id, who))
}

/// [`leave`], its refusal as a [`Refusal`] (`Ok(Err(_))`, nothing written).
///
/// # Errors
/// 404 for no such competition; database failures.
pub fn try_leave(
    conn: &mut PgConnection,
    caller: UserId,
    id: Uuid,
    who: Uuid,
) -> Result<Result<CompetitionResource, Refusal>, ApiError> {
    refusal::split(conn.transaction(|conn| {
        let row = load(conn, id, true)?;
        if who != caller.0 && row.organiser_id != caller.0 {
            return Err(Refusal::WithdrawsOthers.into());
        }
        let list = entrants(conn, id)?;
        let entrant = still_in(&list, who)?;
        match row.status() {
            Status::Registering => {
                diesel::delete(competition_entrants::table.find((id, entrant.number)))
                    .execute(conn)?;
            }
            Status::Finished => {
                if row.finalised_at.is_some() || !matches!(row.format()?, Format::League { .. }) {
                    return Err(Refusal::Finished.into());
                }
                // Between two seasons of a league: the next season goes on without them.
                diesel::update(competition_entrants::table.find((id, entrant.number)))
                    .set((
                        competition_entrants::status.eq("withdrawn"),
                        competition_entrants::left_at.eq(Some(Utc::now())),
                    ))
                    .execute(conn)?;
            }
            Status::Running | Status::Paused => {
                rounds::withdraw(conn, &row, entrant, "withdrawn")?;
            }
        }
        tracing::info!(competition.id = %id, user.id = %who, "withdrawn");
        Ok::<_, Failure>(get(conn, id)?)
    }))
    .inspect(|done| {
        if done.is_ok() {
            crate::jobs::wake();
        }
    })
}

/// The entry of `who` that is still in: refused for one who already left (withdrawn or
/// disqualified: 409) or an account never entered (404).
pub(crate) fn still_in(list: &[EntrantRow], who: Uuid) -> Result<&EntrantRow, Refusal> {
    match list.iter().find(|e| e.user_id == who) {
        Some(e) if e.active() => Ok(e),
        Some(e) => Err(Refusal::AlreadyLeft {
            account: who,
            status: e.status.clone(),
        }),
        None => Err(Refusal::NotEntered(who)),
    }
}

/// Closes entry, numbers the entrants, pairs the first round, creates its games and mails the
/// pairings.
///
/// # Errors
/// 403 for anyone but the organiser; 409 when already started; 422 when the format cannot start
/// with these entrants.
pub fn start(
    conn: &mut PgConnection,
    caller: UserId,
    id: Uuid,
) -> Result<CompetitionResource, ApiError> {
    refusal::as_api(try_start(conn, caller, id))
}

/// [`start`], its refusal as a [`Refusal`] (`Ok(Err(_))`, nothing written).
///
/// # Errors
/// 404 for no such competition; database failures.
pub fn try_start(
    conn: &mut PgConnection,
    caller: UserId,
    id: Uuid,
) -> Result<Result<CompetitionResource, Refusal>, ApiError> {
    refusal::split(conn.transaction(|conn| {
        let row = load(conn, id, true)?;
        require_organiser(&row, caller)?;
        let league = matches!(row.format()?, Format::League { .. });
        match row.status() {
            Status::Registering => rounds::start(conn, &row)?,
            // A league's next season, with promotion and relegation.
            Status::Finished if row.finalised_at.is_none() && league => {
                rounds::next_season(conn, &row)?;
            }
            status => return Err(Refusal::NotStartable { status, league }.into()),
        }
        Ok::<_, Failure>(get(conn, id)?)
    }))
    .inspect(|done| {
        if done.is_ok() {
            crate::jobs::wake();
        }
    })
}

/// The director's audit log, oldest first.
///
/// # Errors
/// 404 for no such competition.
pub fn audit(conn: &mut PgConnection, id: Uuid) -> Result<Vec<AuditEntry>, ApiError> {
    use crate::schema::competition_audit as a;
    let _ = load(conn, id, false)?;
    type Line = (
        i64,
        Option<Uuid>,
        Option<String>,
        String,
        Value,
        String,
        DateTime<Utc>,
    );
    let rows: Vec<Line> = a::table
        .left_join(users::table)
        .filter(a::competition_id.eq(id))
        .order(a::id)
        .select((
            a::id,
            a::actor_id,
            users::display_name.nullable(),
            a::action,
            a::detail,
            a::reason,
            a::at,
        ))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(
            |(seq, actor, name, action, detail, reason, at)| AuditEntry {
                seq,
                actor: actor
                    .zip(name)
                    .map(|(id, display_name)| AccountRef { id, display_name }),
                action,
                detail,
                reason,
                at,
            },
        )
        .collect())
}

/// The competition a game is played in, for the game's page.
#[derive(Debug, Clone)]
pub struct GameInCompetition {
    pub id: Uuid,
    pub name: String,
    pub season: i32,
    pub round: i32,
    /// The place of each seat (1 = first) when the competition's director set or corrected
    /// the game's result: a game still in play then ends as `aborted`, and its own outcome, if
    /// any, is no longer the one that counts.
    pub set_by_director: Option<Vec<u32>>,
}

/// Which competition `game` is played in, if any.
///
/// # Errors
/// Database failures.
pub fn of_game(
    conn: &mut PgConnection,
    game: crate::domain::GameId,
) -> Result<Option<GameInCompetition>, ApiError> {
    let found: Option<(records::GameRow, i32, String)> = crate::schema::competition_games::table
        .inner_join(competitions::table)
        .filter(crate::schema::competition_games::game_id.eq(game.0))
        .select((
            records::GameRow::as_select(),
            crate::schema::competition_games::season,
            competitions::name,
        ))
        .first(conn)
        .optional()?;
    Ok(found.map(|(row, season, name)| {
        let set_by_director = match (row.corrected, row.result()) {
            (true, crate::competitions::GameResult::Played { places, .. }) => Some(places),
            _ => None,
        };
        GameInCompetition {
            id: row.competition_id,
            name,
            season,
            round: row.round,
            set_by_director,
        }
    }))
}

/// Every round with its pairings, results and byes.
///
/// # Errors
/// 404 for no such competition.
pub fn rounds(conn: &mut PgConnection, id: Uuid) -> Result<Vec<RoundResource>, ApiError> {
    let row = load(conn, id, false)?;
    records::rounds(conn, &row)
}
