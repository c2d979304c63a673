//! The worker: a thread that runs due jobs one at a time and sleeps on the in-process doorbell
//! (or at most [`POLL`]) when there is nothing to do; beside it, a thread for the periodic
//! chores (timeouts and reminders, daily digests, deleting finished jobs, and account events
//! past their retention with their webhook deliveries), and [`WEBHOOK_THREADS`] threads that
//! deliver webhooks (their own [`Lane`]). `herald serve` runs
//! one; `herald worker` runs one on its own; several on one database share the work.

use super::{Env, Job, JobError, Lane, Ran};
use crate::config::Settings;
use crate::db::PgPool;
use crate::email::{Mailer, Sender};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// When each of the worker's periodic chores is due next (`None`: now, never done yet).
#[derive(Default)]
struct Chores {
    prune: Option<Instant>,
    event_prune: Option<Instant>,
    timeouts: Option<Instant>,
    digest: Option<Instant>,
}

impl Chores {
    /// When the first of them comes due.
    fn next_due(&self) -> Instant {
        let now = Instant::now();
        [self.prune, self.event_prune, self.timeouts, self.digest]
            .into_iter()
            .map(|at| at.unwrap_or(now))
            .min()
            .unwrap_or(now)
    }
}

/// One table's pruning: what, and how many rows went with whether older ones are left.
pub type Pruned = (&'static str, anyhow::Result<(usize, bool)>);

/// The longest a worker sleeps before looking for due jobs again (jobs written by other
/// processes, retries coming due).
pub const POLL: Duration = Duration::from_secs(1);

/// How often a worker looks for digests coming due.
const DIGEST_EVERY: Duration = Duration::from_secs(30);

/// How often a worker looks for deadlines that have passed.
const TIMEOUTS_EVERY: Duration = Duration::from_millis(500);

/// Threads that only deliver webhooks: each waits at most the delivery timeout for a
/// receiver, so two slow receivers at once still leave the mail thread free.
pub const WEBHOOK_THREADS: usize = 2;

/// How long after the doorbell the webhook threads look for deliveries; a delivery goes to a
/// server elsewhere, for which a few milliseconds are nothing.
const WEBHOOKS_LOOK_LATER: Duration = Duration::from_millis(5);

/// The connections a worker's pool needs: one per webhook thread (a delivery keeps its
/// connection, in its job's transaction, while it waits for the receiver), one for the mail
/// thread and one for the chores' (timeouts, reminders, digests, pruning). With fewer, two slow
/// receivers or a long pruning would leave the mail thread waiting for a connection.
pub const CONNECTIONS: u32 = 4;
const _: () = assert!(CONNECTIONS as usize == WEBHOOK_THREADS + 2);

/// How long a worker thread waits for a connection. Each thread has one of the pool's own, so
/// a wait is only ever for the database itself, and a short one keeps a stop short when the
/// database has gone first (an embedded cluster's owner stopped before this server): every
/// part of a round may wait this long once.
const CONNECTION_WAIT: Duration = Duration::from_secs(2);

/// What each worker connection reads once when it opens ([`crate::db::pool_primed`]): the tables a
/// game's mails read, and the jobs'. Planned, not run (`LIMIT 0`): the planner opens each table
/// and its indexes.
const PRIME: &str = "SELECT 1 FROM jobs, games, game_seats, users, notification_settings, \
                     game_actions, game_events LIMIT 0";

/// The worker's own pool of [`CONNECTIONS`] to `url`.
///
/// # Errors
/// When the pool cannot be configured.
pub fn pool(url: &str) -> anyhow::Result<crate::db::PgPool> {
    crate::db::pool_primed(url, CONNECTIONS, CONNECTION_WAIT, PRIME)
}

/// How often a worker deletes old finished jobs, and old account events and webhook deliveries.
const PRUNE_EVERY: Duration = Duration::from_secs(3600);

/// Runs jobs of one database.
#[derive(Clone)]
pub struct Worker {
    pool: PgPool,
    env: Arc<Env>,
    /// How long account events are kept (`EVENT_RETENTION_DAYS`).
    keep_events: chrono::TimeDelta,
}

impl Worker {
    /// A worker on `pool` delivering mail as `settings` say (SMTP or `.eml` files).
    ///
    /// # Errors
    /// An unusable `SMTP_URL`.
    pub fn new(settings: &Settings, pool: PgPool) -> anyhow::Result<Worker> {
        let mailer = Mailer::from_settings(settings)?;
        Ok(Worker {
            pool,
            env: Arc::new(Env {
                sender: Sender::new(settings, mailer),
                webhooks_allow_private: settings.webhooks.allow_private,
            }),
            keep_events: chrono::TimeDelta::days(i64::from(settings.events.retention_days)),
        })
    }

    /// [`Worker::new`] counting the mails it sends into `metrics` (those `/metrics` serves).
    ///
    /// # Errors
    /// As [`Worker::new`].
    pub fn counting(
        settings: &Settings,
        pool: PgPool,
        metrics: Arc<crate::metrics::Metrics>,
    ) -> anyhow::Result<Worker> {
        let mailer = Mailer::from_settings(settings)?;
        Ok(Worker {
            pool,
            env: Arc::new(Env {
                sender: Sender::new(settings, mailer).counting_into(metrics),
                webhooks_allow_private: settings.webhooks.allow_private,
            }),
            keep_events: chrono::TimeDelta::days(i64::from(settings.events.retention_days)),
        })
    }

    /// Runs at most one due job.
    ///
    /// # Errors
    /// No database connection, or a failed bookkeeping statement.
    pub fn run_once(&self) -> anyhow::Result<Ran> {
        self.run_once_in(Lane::All)
    }

    /// Runs at most one due job of `lane`.
    ///
    /// # Errors
    /// As [`Worker::run_once`].
    pub fn run_once_in(&self, lane: Lane) -> anyhow::Result<Ran> {
        let mut conn = self.pool.get()?;
        self.run_once_on(&mut conn, lane)
    }

    /// [`Worker::run_once_in`] on a connection the caller holds.
    fn run_once_on(&self, conn: &mut diesel::PgConnection, lane: Lane) -> anyhow::Result<Ran> {
        let env = &self.env;
        let mut handler = |conn: &mut diesel::PgConnection, job: &Job| -> Result<(), JobError> {
            super::dispatch(env, conn, job)
        };
        Ok(super::run_one(conn, lane, &mut handler)?)
    }

    /// Runs due jobs until none is left; returns how many ran (done, retrying or failed).
    ///
    /// # Errors
    /// As [`Worker::run_once`].
    pub fn drain(&self) -> anyhow::Result<usize> {
        let mut ran = 0;
        while self.run_once()? != Ran::Idle {
            ran += 1;
        }
        Ok(ran)
    }

    /// Queues the daily digests that have come due.
    ///
    /// # Errors
    /// Database failures.
    pub fn schedule_digests(&self) -> anyhow::Result<usize> {
        let mut conn = self.pool.get()?;
        Ok(crate::services::notifications::schedule_digests(&mut conn)?)
    }

    /// Deletes jobs done more than [`super::KEEP_DONE`] ago (failed ones stay for operators).
    ///
    /// # Errors
    /// Database failures.
    pub fn prune(&self) -> anyhow::Result<usize> {
        let mut conn = self.pool.get()?;
        Ok(super::prune(&mut conn)?)
    }

    /// Deletes account events older than `EVENT_RETENTION_DAYS`, a bounded number of batches;
    /// returns how many, and whether older ones are left for the next call.
    ///
    /// # Errors
    /// Database failures.
    pub fn prune_events(&self) -> anyhow::Result<(usize, bool)> {
        let mut conn = self.pool.get()?;
        let before = chrono::Utc::now() - self.keep_events;
        Ok(crate::services::events::prune(&mut conn, before)?)
    }

    /// Deletes webhook deliveries as old as the events [`Worker::prune_events`] deletes, once
    /// finished or their event gone, a bounded number of batches; returns how many, and whether
    /// some are left for the next call.
    ///
    /// # Errors
    /// Database failures.
    pub fn prune_deliveries(&self) -> anyhow::Result<(usize, bool)> {
        let mut conn = self.pool.get()?;
        let before = chrono::Utc::now() - self.keep_events;
        Ok(crate::services::webhooks::prune_deliveries(
            &mut conn, before,
        )?)
    }

    /// Deletes the rows of [`crate::services::housekeeping`] past their keeping (answers kept for
    /// retries, expired sessions, old replies read from mail, long-expired links): for each
    /// table, how many and whether more are left.
    ///
    /// # Errors
    /// A failed checkout; a table that fails is reported in its place.
    pub fn housekeeping(&self) -> anyhow::Result<Vec<Pruned>> {
        let mut conn = self.pool.get()?;
        Ok(
            crate::services::housekeeping::prune(&mut conn, chrono::Utc::now())
                .into_iter()
                .map(|(what, r)| (what, r.map_err(anyhow::Error::from)))
                .collect(),
        )
    }

    /// The hourly pruning of account events, then of webhook deliveries (after, so that those
    /// of the events just deleted go in the same run), then the housekeeping; true when any has
    /// more left.
    fn prune_logs(&self) -> bool {
        let mut more = false;
        let mut pruned = vec![
            ("account events", self.prune_events()),
            ("webhook deliveries", self.prune_deliveries()),
        ];
        match self.housekeeping() {
            Ok(tables) => pruned.extend(tables),
            Err(e) => pruned.push(("rows past their keeping", Err(e))),
        }
        for (what, result) in pruned {
            match result {
                Ok((deleted, left)) if deleted > 0 || left => {
                    tracing::info!(deleted, more = left, "pruned old {what}");
                    more |= left;
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "pruning old {what} failed"),
            }
        }
        more
    }

    /// Ends the vacations whose time is up, then applies the timeouts that are due (design.md
    /// section 14); returns how many timeouts.
    ///
    /// # Errors
    /// Database failures.
    pub fn time_out_due(&self) -> anyhow::Result<usize> {
        let mut conn = self.pool.get()?;
        crate::services::vacation::end_expired(&mut conn)?;
        Ok(crate::services::games::time_out_due(&mut conn)?)
    }

    /// Queues the reminders that have come due.
    ///
    /// # Errors
    /// Database failures.
    pub fn schedule_reminders(&self) -> anyhow::Result<usize> {
        let mut conn = self.pool.get()?;
        Ok(crate::services::notifications::schedule_reminders(
            &mut conn,
        )?)
    }

    /// Works until `stop` is set: the mail lane's jobs, one at a time, sleeping on the doorbell
    /// when none is due. The periodic chores run on a thread of their own ([`Worker::do_chores`]).
    ///
    /// It keeps its connection from one job to the next (a fresh one after a failure): the
    /// statements a mail reads are then planned once, and a game's second mail (the turn mail
    /// after the invitation) finds them ready.
    pub fn run(&self, stop: &AtomicBool) {
        let mut held: Option<crate::db::PgConn> = None;
        while !stop.load(Ordering::SeqCst) {
            let seen = super::rings();
            let ran = match held.take().map_or_else(|| self.pool.get(), Ok) {
                Ok(mut conn) => {
                    let ran = self.run_once_on(&mut conn, Lane::Mail);
                    if ran.is_ok() {
                        held = Some(conn);
                    }
                    ran
                }
                Err(e) => Err(e.into()),
            };
            rest_after(ran, seen);
        }
    }

    /// Does the periodic chores when due until `stop` is set. On their own thread so that a
    /// job committed while they run waits for none of them: on the mail thread, a turn mail
    /// woken half a second after the last round of timeouts went out 3-6 ms later, after the
    /// timeouts' and reminders' queries (measured on the turn mail after a join).
    pub fn do_chores(&self, stop: &AtomicBool) {
        let mut next = Chores::default();
        let stopping = || stop.load(Ordering::SeqCst);
        while !stopping() {
            self.chores(&mut next, &stopping);
            // Every ring wakes this thread too, and it sleeps again for what is left: a stop
            // rings the doorbell and is not kept waiting.
            let until = next.next_due();
            while !stopping() && Instant::now() < until {
                super::wait(
                    super::rings(),
                    until.saturating_duration_since(Instant::now()),
                );
            }
        }
    }

    /// The periodic work that is due: pruning, timeouts and reminders, digests. Each part may
    /// wait for the database (the pool's timeout when it is gone), so a stop is looked for
    /// before each one: a stop waits for one part at most.
    fn chores(&self, next: &mut Chores, stopping: &dyn Fn() -> bool) {
        let due = |at: Option<Instant>| at.is_none_or(|t| Instant::now() >= t);
        let after = |every: Duration| Some(Instant::now() + every);
        if due(next.prune) {
            next.prune = after(PRUNE_EVERY);
            if let Err(e) = self.prune() {
                tracing::warn!(error = %e, "pruning old jobs failed");
            }
        }
        if stopping() {
            return;
        }
        if due(next.event_prune) {
            // More to delete: again in half a second, a bounded batch at a time, not in an hour.
            let more = self.prune_logs();
            next.event_prune = after(if more { TIMEOUTS_EVERY } else { PRUNE_EVERY });
        }
        if stopping() {
            return;
        }
        if due(next.timeouts) {
            next.timeouts = after(TIMEOUTS_EVERY);
            if let Err(e) = self.time_out_due() {
                tracing::warn!(error = %e, "applying timeouts failed");
            }
            if stopping() {
                return;
            }
            if let Err(e) = self.schedule_reminders() {
                tracing::warn!(error = %e, "scheduling reminders failed");
            }
        }
        if stopping() {
            return;
        }
        if due(next.digest) {
            next.digest = after(DIGEST_EVERY);
            if let Err(e) = self.schedule_digests() {
                tracing::warn!(error = %e, "digest scheduling failed");
            }
        }
    }

    /// Runs one due job of `lane`, or waits for the doorbell when there is none; true when it
    /// waited.
    fn step(&self, lane: Lane) -> bool {
        let seen = super::rings();
        rest_after(self.run_once_in(lane), seen)
    }

    /// Delivers webhooks until `stop` is set.
    fn deliver_webhooks(&self, stop: &AtomicBool) {
        while !stop.load(Ordering::SeqCst) {
            if self.step(Lane::Webhooks) {
                // Woken: the commit that rang is most often a move, whose mail the mail thread
                // is sending now. Looking [`WEBHOOKS_LOOK_LATER`] later leaves it the cores (two
                // cores here: two more threads and backends at the same instant delayed it).
                std::thread::sleep(WEBHOOKS_LOOK_LATER);
            }
        }
    }

    /// Starts [`Worker::run`] on a thread of its own, [`Worker::do_chores`] on another, and
    /// [`WEBHOOK_THREADS`] threads that deliver webhooks.
    pub fn spawn(self) -> WorkerHandle {
        let stop = Arc::new(AtomicBool::new(false));
        let mut threads = Vec::new();
        for n in 0..WEBHOOK_THREADS {
            let (worker, flag) = (self.clone(), stop.clone());
            threads.extend(
                std::thread::Builder::new()
                    .name(format!("herald-webhooks-{n}"))
                    .spawn(move || worker.deliver_webhooks(&flag))
                    .ok(),
            );
        }
        let (worker, flag) = (self.clone(), stop.clone());
        threads.extend(
            std::thread::Builder::new()
                .name("herald-chores".to_owned())
                .spawn(move || worker.do_chores(&flag))
                .ok(),
        );
        let flag = stop.clone();
        threads.extend(
            std::thread::Builder::new()
                .name("herald-jobs".to_owned())
                .spawn(move || self.run(&flag))
                .ok(),
        );
        WorkerHandle { stop, threads }
    }
}

/// Running worker threads.
pub struct WorkerHandle {
    stop: Arc<AtomicBool>,
    threads: Vec<JoinHandle<()>>,
}

impl WorkerHandle {
    /// Asks the worker threads to stop after their current job and waits for them.
    pub fn stop(mut self) {
        self.stop.store(true, Ordering::SeqCst);
        super::wake();
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

/// After a look for a job: waits for the doorbell (rung after `seen`) when there was none or
/// the database failed; true when it waited.
fn rest_after(ran: anyhow::Result<Ran>, seen: u64) -> bool {
    match ran {
        Ok(Ran::Idle) => {
            super::wait(seen, TIMEOUTS_EVERY);
            true
        }
        Ok(_) => false,
        Err(e) => {
            tracing::warn!(error = %e, "job worker cannot reach the database");
            // On the doorbell, not asleep: a stop rings it and is not kept waiting.
            super::wait(seen, POLL);
            true
        }
    }
}
