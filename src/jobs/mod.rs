//! The PostgreSQL job queue (design.md section 8): a job is a `jobs` row written in the
//! transaction that causes it, so work is never done for a change that rolled back and never
//! lost for one that committed.
//!
//! A worker takes one due job at a time with `FOR UPDATE SKIP LOCKED` and runs it *inside* that
//! transaction, marking it done before the commit. The row lock keeps every other worker (in
//! this process or another instance on the same database) off the job while it runs; a worker
//! killed mid-job holds no lock any more, its transaction rolls back and the job is due again.
//! The only window for a repeat is a crash between the SMTP server's acceptance and the commit;
//! the message keeps the `Message-ID` fixed when the job was created, so a repeat is
//! recognisable.
//!
//! Failures are retried with exponential back-off ([`retry_delay`]: 5 s, 10 s, ... at most 5
//! minutes between tries) for at least [`GIVE_UP_AFTER`], then the job is `failed` with its last
//! error kept for operators.
//!
//! Must not depend on actix or routes.

pub mod worker;

pub use worker::{Worker, WorkerHandle};

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::db::Kept;
use crate::schema::jobs;
use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Integer, Jsonb, Text, Timestamptz};
use serde_json::Value;
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

/// A job never gives up before this much time since it was created.
pub const GIVE_UP_AFTER: chrono::TimeDelta = chrono::TimeDelta::hours(48);

/// The longest wait between two tries.
pub const MAX_RETRY_DELAY: Duration = Duration::from_secs(300);

/// The wait before try number `attempts + 1`, after `attempts` failed tries (at least one):
/// 5 s, 10 s, 20 s, ... capped at [`MAX_RETRY_DELAY`].
pub fn retry_delay(attempts: i32) -> Duration {
    let exp = u32::try_from(attempts.saturating_sub(1))
        .unwrap_or(0)
        .min(16);
    Duration::from_secs(5u64.saturating_mul(1 << exp)).min(MAX_RETRY_DELAY)
}

/// A kind of job (crates.io's `BackgroundJob`): the value is the job's payload, its type says
/// how it runs. A job is written with [`BackgroundJob::job`] in the transaction that causes it
/// and run by the handler [`KINDS`] names for its [`BackgroundJob::KIND`].
pub trait BackgroundJob: Serialize + DeserializeOwned {
    /// The stored `jobs.kind`: stable, as rows outlive a deployment.
    const KIND: &'static str;

    /// Runs the job inside the worker's transaction.
    ///
    /// # Errors
    /// [`JobError::Retry`] to try again later, [`JobError::Permanent`] when that cannot help.
    fn run(&self, env: &Env, conn: &mut PgConnection) -> Result<(), JobError>;

    /// The job, to [`enqueue`].
    fn job(&self) -> NewJob {
        NewJob {
            kind: Self::KIND,
            // Our payloads are plain structs: serialising them cannot fail.
            payload: serde_json::to_value(self).unwrap_or(Value::Null),
        }
    }
}

/// What the worker lends every job.
pub struct Env {
    pub sender: crate::email::Sender,
    /// `WEBHOOKS_ALLOW_PRIVATE`: deliveries may go to loopback and private addresses.
    pub webhooks_allow_private: bool,
}

type Runner = fn(&Env, &mut PgConnection, &Job) -> Result<(), JobError>;

/// Every kind of job and its runner: a new kind is one line here.
pub const KINDS: &[(&str, Runner)] = {
    use crate::email::jobs::{
        AnswerMail, CompetitionInvitationMail, DeclinedMail, DigestMail, GameOverMail,
        InvitationMail, PairingMail, ReminderMail, SignInMail, SignUpMail, TurnMail, VacationMail,
        WebhookDisabledMail,
    };
    use crate::services::competitions::AdvanceJob;
    use crate::services::games::record::ArchiveRecord;
    use crate::services::webhooks::DeliverWebhook;
    &[
        (InvitationMail::KIND, run_typed::<InvitationMail>),
        (TurnMail::KIND, run_typed::<TurnMail>),
        (GameOverMail::KIND, run_typed::<GameOverMail>),
        (SignInMail::KIND, run_typed::<SignInMail>),
        (SignUpMail::KIND, run_typed::<SignUpMail>),
        (DigestMail::KIND, run_typed::<DigestMail>),
        (ReminderMail::KIND, run_typed::<ReminderMail>),
        (VacationMail::KIND, run_typed::<VacationMail>),
        (DeclinedMail::KIND, run_typed::<DeclinedMail>),
        (
            CompetitionInvitationMail::KIND,
            run_typed::<CompetitionInvitationMail>,
        ),
        (PairingMail::KIND, run_typed::<PairingMail>),
        (AdvanceJob::KIND, run_typed::<AdvanceJob>),
        (DeliverWebhook::KIND, run_typed::<DeliverWebhook>),
        (WebhookDisabledMail::KIND, run_typed::<WebhookDisabledMail>),
        (AnswerMail::KIND, run_typed::<AnswerMail>),
        (ArchiveRecord::KIND, run_typed::<ArchiveRecord>),
    ]
};

fn run_typed<J: BackgroundJob>(
    env: &Env,
    conn: &mut PgConnection,
    job: &Job,
) -> Result<(), JobError> {
    let typed: J = serde_json::from_value(job.payload.clone())
        .map_err(|e| JobError::Permanent(format!("unreadable {} payload: {e}", job.kind)))?;
    typed.run(env, conn)
}

/// Runs `job` by its kind.
///
/// # Errors
/// The job's own, or [`JobError::Permanent`] for a kind this version does not know.
pub fn dispatch(env: &Env, conn: &mut PgConnection, job: &Job) -> Result<(), JobError> {
    match KINDS.iter().find(|(kind, _)| *kind == job.kind) {
        Some((_, run)) => run(env, conn, job),
        None => Err(JobError::Permanent(format!(
            "unknown job kind {}",
            job.kind
        ))),
    }
}

/// A job to write in the caller's transaction.
#[derive(Debug, Clone)]
pub struct NewJob {
    pub kind: &'static str,
    pub payload: Value,
}

#[derive(Insertable)]
#[diesel(table_name = jobs)]
struct JobRow<'a> {
    kind: &'a str,
    payload: &'a Value,
}

/// Writes `new` jobs, due now, in one statement on the caller's connection (and so in its
/// transaction). Call [`wake`] after the commit so a worker of this process starts at once.
///
/// # Errors
/// Database failures.
pub fn enqueue(conn: &mut PgConnection, new: &[NewJob]) -> QueryResult<()> {
    if new.is_empty() {
        return Ok(());
    }
    let rows: Vec<JobRow<'_>> = new
        .iter()
        .map(|j| JobRow {
            kind: j.kind,
            payload: &j.payload,
        })
        .collect();
    diesel::insert_into(jobs::table)
        .values(&rows)
        .execute(conn)?;
    Ok(())
}

/// Writes `new` jobs due at `at` (a later try that the job itself schedules).
///
/// # Errors
/// Database failures.
pub fn enqueue_at(conn: &mut PgConnection, new: &NewJob, at: DateTime<Utc>) -> QueryResult<()> {
    diesel::insert_into(jobs::table)
        .values((
            jobs::kind.eq(new.kind),
            jobs::payload.eq(&new.payload),
            jobs::run_at.eq(at),
        ))
        .execute(conn)?;
    Ok(())
}

/// How long a finished job is kept (its `Message-ID` and payload help to trace a mail).
pub const KEEP_DONE: chrono::TimeDelta = chrono::TimeDelta::days(7);

/// Deletes jobs done more than [`KEEP_DONE`] ago; failed jobs stay until an operator acts.
///
/// # Errors
/// Database failures.
pub fn prune(conn: &mut PgConnection) -> QueryResult<usize> {
    diesel::sql_query("DELETE FROM jobs WHERE status = 'done' AND updated_at < $1")
        .bind::<Timestamptz, _>(Utc::now() - KEEP_DONE)
        .execute(conn)
}

/// A job taken by a worker.
#[derive(Debug, Clone, QueryableByName)]
pub struct Job {
    #[diesel(sql_type = BigInt)]
    pub id: i64,
    #[diesel(sql_type = Text)]
    pub kind: String,
    #[diesel(sql_type = Jsonb)]
    pub payload: Value,
    #[diesel(sql_type = Integer)]
    pub attempts: i32,
    #[diesel(sql_type = Timestamptz)]
    pub created_at: DateTime<Utc>,
}

/// Why a job did not complete.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JobError {
    /// Try again later (the SMTP server is down, ...).
    Retry(String),
    /// Trying again cannot help (a payload this version cannot read).
    Permanent(String),
}

impl From<diesel::result::Error> for JobError {
    fn from(e: diesel::result::Error) -> Self {
        JobError::Retry(format!("database: {e}"))
    }
}

/// What happened to the job [`run_one`] took.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ran {
    /// No job was due.
    Idle,
    Done {
        id: i64,
    },
    Retrying {
        id: i64,
        error: String,
    },
    Failed {
        id: i64,
        error: String,
    },
}

/// Which jobs a worker thread takes. A webhook delivery waits on someone else's server (up to
/// its timeout, seconds), so deliveries run on threads of their own: a slow or dead receiver
/// never holds up anyone's mail, and mail never holds up a delivery.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lane {
    /// Every kind (tests and `drain`).
    All,
    /// Every kind but webhook deliveries.
    Mail,
    /// Webhook deliveries only.
    Webhooks,
    /// One kind only (a job's `KIND`: the benchmarks run the games' record archiving and
    /// nothing else, as they send no mail).
    Kind(&'static str),
}

impl Lane {
    /// The lane's condition, written into the poll as literals: the partial indexes that let
    /// each lane skip the others' due jobs (`jobs_due_by_kind`, `jobs_due_but_webhooks`,
    /// migration `jobs_due_by_lane`) match only conditions the planner sees as constants.
    fn filter(self) -> String {
        use crate::services::webhooks::DeliverWebhook;
        match self {
            Lane::All => String::new(),
            Lane::Mail => format!("AND kind <> '{}' ", DeliverWebhook::KIND),
            Lane::Webhooks => format!("AND kind = '{}' ", DeliverWebhook::KIND),
            Lane::Kind(kind) => format!("AND kind = '{kind}' "),
        }
    }
}

/// Takes one due job (skipping those other workers hold), runs `handler` on it inside the same
/// transaction (in a savepoint, so a failed database statement in the handler does not spoil
/// the bookkeeping), and records the result before committing.
///
/// # Errors
/// Database failures outside the handler.
pub fn run_one(
    conn: &mut PgConnection,
    lane: Lane,
    handler: &mut dyn FnMut(&mut PgConnection, &Job) -> Result<(), JobError>,
) -> QueryResult<Ran> {
    conn.transaction(|conn| {
        // Kept (prepared once per connection): as `sql_query`, planning it took 0.26 ms at
        // every poll, more than running it, the jobs' partial indexes each weighed against the
        // lane's condition (`bench_submit`'s archiver, `pg_stat_statements`).
        let job: Option<Job> = Kept::new(format!(
            "SELECT id, kind, payload, attempts, created_at FROM jobs \
             WHERE status = 'queued' AND run_at <= now() {}\
             ORDER BY run_at, id LIMIT 1 FOR UPDATE SKIP LOCKED",
            lane.filter()
        ))
        .get_result(conn)
        .optional()?;
        let Some(job) = job else {
            return Ok(Ran::Idle);
        };
        let outcome: Result<(), HandlerFailed> =
            conn.transaction(|conn| handler(conn, &job).map_err(HandlerFailed));
        let outcome = outcome.map_err(|failed| failed.0);
        let now = Utc::now();
        match outcome {
            Ok(()) => {
                Kept::new(
                    "UPDATE jobs SET status = 'done', attempts = attempts + 1, updated_at = now() \
                     WHERE id = $1",
                )
                .bind::<BigInt, _>(job.id)
                .execute(conn)?;
                Ok(Ran::Done { id: job.id })
            }
            Err(e) => {
                let attempts = job.attempts + 1;
                let (error, give_up) = match e {
                    JobError::Permanent(error) => (error, true),
                    JobError::Retry(error) => (error, now - job.created_at >= GIVE_UP_AFTER),
                };
                let delay = chrono::TimeDelta::from_std(retry_delay(attempts))
                    .unwrap_or(chrono::TimeDelta::seconds(300));
                Kept::new(
                    "UPDATE jobs SET status = $2, attempts = $3, last_error = $4, \
                     run_at = $5, updated_at = now() WHERE id = $1",
                )
                .bind::<BigInt, _>(job.id)
                .bind::<Text, _>(if give_up { "failed" } else { "queued" })
                .bind::<Integer, _>(attempts)
                .bind::<Text, _>(&error)
                .bind::<Timestamptz, _>(now + delay)
                .execute(conn)?;
                if give_up {
                    tracing::error!(job.id = job.id, kind = %job.kind, attempts, %error, "job failed for good");
                    Ok(Ran::Failed { id: job.id, error })
                } else {
                    tracing::warn!(job.id = job.id, kind = %job.kind, attempts, %error, "job failed, will retry");
                    Ok(Ran::Retrying { id: job.id, error })
                }
            }
        }
    })
}

/// A handler's error carried out of the savepoint (so diesel rolls the savepoint back).
#[derive(Debug)]
struct HandlerFailed(JobError);

impl From<diesel::result::Error> for HandlerFailed {
    fn from(e: diesel::result::Error) -> Self {
        HandlerFailed(JobError::Retry(format!("database: {e}")))
    }
}

// The in-process doorbell: services ring it after committing jobs so the worker of this process
// does not wait for its next poll. Workers in other processes find the jobs by polling.
static DOORBELL: (Mutex<Bell>, Condvar) = (
    Mutex::new(Bell {
        rings: 0,
        soon: None,
    }),
    Condvar::new(),
);

/// The doorbell's state: how often it rang, and the earliest ring still to come ([`wake_soon`]).
struct Bell {
    rings: u64,
    soon: Option<Instant>,
}

/// Tells this process's workers that jobs were committed.
pub fn wake() {
    let (lock, cvar) = &DOORBELL;
    if let Ok(mut bell) = lock.lock() {
        bell.rings = bell.rings.wrapping_add(1);
        cvar.notify_all();
    }
}

/// How long [`wake_soon`] waits: long enough for the answer of the request that queued the job to
/// have gone out, short enough that nobody waiting for the mail notices.
pub const SOON: Duration = Duration::from_millis(20);

/// Tells this process's workers that jobs were committed, [`SOON`] from now rather than at once.
/// A sign-in or sign-up link's mail is sent only when the address has an account, and that
/// sending (the relay's exchange) is work the answer must not share the machine with: woken at
/// once, the worker sent it while the answer was still being written, so on a busy machine a
/// registered address was answered later than an unknown one (design.md section 20). Deferred,
/// the sending falls on whatever requests come later, whatever address they ask for.
pub fn wake_soon() {
    let (lock, cvar) = &DOORBELL;
    if let Ok(mut bell) = lock.lock() {
        let at = Instant::now() + SOON;
        bell.soon = Some(bell.soon.map_or(at, |s| s.min(at)));
        // The waiting workers shorten their wait to the new ring's time.
        cvar.notify_all();
    }
}

/// The doorbell's count now (pass it to [`wait`]).
pub(crate) fn rings() -> u64 {
    DOORBELL.0.lock().map(|b| b.rings).unwrap_or(0)
}

/// Waits at most `timeout` for a [`wake`] after `seen` rings, or until a [`wake_soon`]'s time.
pub(crate) fn wait(seen: u64, timeout: Duration) {
    let (lock, cvar) = &DOORBELL;
    let Ok(mut bell) = lock.lock() else {
        return;
    };
    let until = Instant::now() + timeout;
    loop {
        if bell.rings != seen {
            return;
        }
        let now = Instant::now();
        if bell.soon.is_some_and(|s| s <= now) {
            // Its time has come: the late ring becomes a ring, so every waiting worker returns
            // (the mail's lane among them), as for [`wake`].
            bell.soon = None;
            bell.rings = bell.rings.wrapping_add(1);
            cvar.notify_all();
            return;
        }
        let end = bell.soon.map_or(until, |s| s.min(until));
        if now >= end {
            return;
        }
        bell = match cvar.wait_timeout(bell, end - now) {
            Ok((b, _)) => b,
            Err(_) => return,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A late ring wakes a waiting worker at its time, not before (the answer goes out first),
    /// and counts as a ring, so every lane's worker looks for work.
    #[test]
    fn a_late_ring_wakes_the_workers_at_its_time() {
        let seen = rings();
        let started = Instant::now();
        let waiter = std::thread::spawn(move || {
            wait(seen, Duration::from_secs(30));
            started.elapsed()
        });
        wake_soon();
        let waited = waiter.join().unwrap();
        assert!(waited >= SOON, "woken after {waited:?}, before its time");
        assert!(waited < Duration::from_secs(30), "never woken");
        assert_eq!(rings(), seen.wrapping_add(1));
        // A second waiter that saw the ring's count does not return at once.
        let seen = rings();
        let second = std::thread::spawn(move || {
            let t = Instant::now();
            wait(seen, Duration::from_millis(100));
            t.elapsed()
        });
        assert!(second.join().unwrap() >= Duration::from_millis(100));
    }

    #[test]
    fn every_kind_is_listed_once() {
        let mut kinds: Vec<&str> = KINDS.iter().map(|(k, _)| *k).collect();
        let n = kinds.len();
        kinds.sort_unstable();
        kinds.dedup();
        assert_eq!(kinds.len(), n);
    }

    #[test]
    fn retries_start_within_ten_seconds_and_never_wait_more_than_five_minutes() {
        assert_eq!(retry_delay(1), Duration::from_secs(5));
        assert_eq!(retry_delay(2), Duration::from_secs(10));
        assert_eq!(retry_delay(4), Duration::from_secs(40));
        assert_eq!(retry_delay(7), Duration::from_secs(300));
        assert_eq!(retry_delay(1000), Duration::from_secs(300));
        // 48 hours of tries at the cap is hundreds of tries: the cap, not a count, ends them.
        let tries_in_48h: u64 = 48 * 3600 / 300;
        assert!(tries_in_48h > 500);
    }
}
