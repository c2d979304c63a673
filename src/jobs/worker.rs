//! The worker: a thread that runs due jobs one at a time, schedules daily digests, deletes
//! finished jobs, and account events past their retention with their webhook deliveries, and
//! sleeps on the in-process doorbell (or at most [`POLL`]) when there is nothing to do; beside
//! it, [`WEBHOOK_THREADS`] threads deliver webhooks (their own [`Lane`]). `herald serve` runs
//! one; `herald worker` runs one on its own; several on one database share the work.

use super::{Env, Job, JobError, Lane, Ran};
use crate::config::Settings;
use crate::db::PgPool;
use crate::email::{Mailer, Sender};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

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

/// The connections a worker's pool needs: one per webhook thread (a delivery keeps its
/// connection, in its job's transaction, while it waits for the receiver) and one for the mail
/// thread, which also times out due decisions and schedules reminders and digests. With fewer,
/// two slow receivers would leave the mail thread waiting for a connection.
pub const CONNECTIONS: u32 = 3;
const _: () = assert!(CONNECTIONS as usize == WEBHOOK_THREADS + 1);

/// How long a worker thread waits for a connection. Each thread has one of the pool's own, so
/// a wait is only ever for the database itself, and a short one keeps a stop short when the
/// database has gone first (an embedded cluster's owner stopped before this server): every
/// part of a round may wait this long once.
const CONNECTION_WAIT: Duration = Duration::from_secs(2);

/// The worker's own pool of [`CONNECTIONS`] to `url`.
///
/// # Errors
/// When the pool cannot be configured.
pub fn pool(url: &str) -> anyhow::Result<crate::db::PgPool> {
    crate::db::pool_waiting(url, CONNECTIONS, CONNECTION_WAIT)
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
        let env = &self.env;
        let mut handler = |conn: &mut diesel::PgConnection, job: &Job| -> Result<(), JobError> {
            super::dispatch(env, conn, job)
        };
        Ok(super::run_one(&mut conn, lane, &mut handler)?)
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

    /// Works until `stop` is set.
    pub fn run(&self, stop: &AtomicBool) {
        let mut last_timeouts: Option<Instant> = None;
        let mut last_digest: Option<Instant> = None;
        let mut last_prune: Option<Instant> = None;
        let mut last_event_prune: Option<Instant> = None;
        // Each part may wait for the database (the pool's timeout when it is gone), so a stop
        // is looked for before each one, not once a round: a stop waits for one part at most.
        let stopping = || stop.load(Ordering::SeqCst);
        while !stopping() {
            if last_prune.is_none_or(|t| t.elapsed() >= PRUNE_EVERY) {
                last_prune = Some(Instant::now());
                if let Err(e) = self.prune() {
                    tracing::warn!(error = %e, "pruning old jobs failed");
                }
            }
            if stopping() {
                break;
            }
            if last_event_prune.is_none_or(|t| t.elapsed() >= PRUNE_EVERY) {
                // More to delete: again after the next mail step, not in an hour.
                last_event_prune = (!self.prune_logs()).then(Instant::now);
            }
            if stopping() {
                break;
            }
            if last_timeouts.is_none_or(|t| t.elapsed() >= TIMEOUTS_EVERY) {
                last_timeouts = Some(Instant::now());
                if let Err(e) = self.time_out_due() {
                    tracing::warn!(error = %e, "applying timeouts failed");
                }
                if stopping() {
                    break;
                }
                if let Err(e) = self.schedule_reminders() {
                    tracing::warn!(error = %e, "scheduling reminders failed");
                }
            }
            if stopping() {
                break;
            }
            if last_digest.is_none_or(|t| t.elapsed() >= DIGEST_EVERY) {
                last_digest = Some(Instant::now());
                if let Err(e) = self.schedule_digests() {
                    tracing::warn!(error = %e, "digest scheduling failed");
                }
            }
            if stopping() {
                break;
            }
            self.step(Lane::Mail);
        }
    }

    /// Runs one due job of `lane`, or waits for the doorbell when there is none.
    fn step(&self, lane: Lane) {
        let seen = super::rings();
        match self.run_once_in(lane) {
            Ok(Ran::Idle) => super::wait(seen, TIMEOUTS_EVERY),
            Ok(_) => {}
            Err(e) => {
                tracing::warn!(error = %e, "job worker cannot reach the database");
                // On the doorbell, not asleep: a stop rings it and is not kept waiting.
                super::wait(seen, POLL);
            }
        }
    }

    /// Delivers webhooks until `stop` is set.
    fn deliver_webhooks(&self, stop: &AtomicBool) {
        while !stop.load(Ordering::SeqCst) {
            self.step(Lane::Webhooks);
        }
    }

    /// Starts [`Worker::run`] on a thread of its own, and [`WEBHOOK_THREADS`] threads that
    /// deliver webhooks.
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
