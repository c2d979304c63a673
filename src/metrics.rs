//! Prometheus metrics (`GET /metrics`, design.md section 19): what the service does, in the text
//! format every scraper reads.
//!
//! One [`Metrics`] per running server, with a registry of its own: tests start many servers in
//! one process, and a global registry would refuse the second registration (or mix their
//! counts). `herald serve` hands the same [`Metrics`] to its job worker, so mails count where they
//! are sent.
//!
//! Request counts and latencies are counted as they happen; the queue and the games are read from
//! the database when scraped ([`Metrics::refresh`]), so that several processes on one database
//! report the same numbers and nothing has to be kept in step.
//!
//! Must not depend on actix or routes.

use diesel::prelude::*;
use diesel::sql_types::{BigInt, Double, Text};
use prometheus::{
    Gauge, Histogram, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, IntGauge,
    IntGaugeVec, Opts, Registry, TextEncoder,
};

/// The route label of a request no route matched: one label, so that probes of random paths
/// cannot grow the number of series without bound.
pub const UNMATCHED: &str = "unmatched";

/// The metrics of one server.
pub struct Metrics {
    registry: Registry,
    /// `herald_http_requests_total{method,route,status}`.
    pub http_requests: IntCounterVec,
    /// `herald_http_request_duration_seconds{method,route}`.
    pub http_duration: HistogramVec,
    /// `herald_action_submit_seconds`: a submission, from the request to the stored (or refused)
    /// actions, database wait included.
    pub action_submit: Histogram,
    /// `herald_mails_sent_total`: mails handed to the SMTP server or written to a file.
    pub mails_sent: IntCounter,
    /// `herald_mails_failed_total`: tries to send that failed (each retry counts).
    pub mails_failed: IntCounter,
    jobs_queued: IntGauge,
    jobs_oldest_age: Gauge,
    games_active: IntGaugeVec,
    database_read: IntGauge,
    /// Two scrapes at once must not render between another's reset and refill of the games.
    scraping: std::sync::Mutex<()>,
}

/// What [`Metrics::refresh`] reads from the database.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Snapshot {
    pub jobs_queued: i64,
    /// Seconds since the oldest queued job was created (0 without one).
    pub oldest_queued_age_s: f64,
    /// Active games by kind.
    pub games_active: Vec<(String, i64)>,
}

#[derive(QueryableByName)]
struct QueueRow {
    #[diesel(sql_type = BigInt)]
    queued: i64,
    #[diesel(sql_type = Double)]
    oldest_s: f64,
}

#[derive(QueryableByName)]
struct KindRow {
    #[diesel(sql_type = Text)]
    kind: String,
    #[diesel(sql_type = BigInt)]
    active: i64,
}

impl Snapshot {
    /// Reads the queue and the active games.
    ///
    /// # Errors
    /// Database failures.
    pub fn read(conn: &mut PgConnection) -> QueryResult<Snapshot> {
        let queue: QueueRow = diesel::sql_query(
            "SELECT count(*) AS queued, \
             coalesce(extract(epoch FROM now() - min(created_at)), 0)::float8 AS oldest_s \
             FROM jobs WHERE status = 'queued'",
        )
        .get_result(conn)?;
        let kinds: Vec<KindRow> = diesel::sql_query(
            "SELECT kind, count(*) AS active FROM games WHERE status = 'active' GROUP BY kind",
        )
        .load(conn)?;
        Ok(Snapshot {
            jobs_queued: queue.queued,
            oldest_queued_age_s: queue.oldest_s.max(0.0),
            games_active: kinds.into_iter().map(|r| (r.kind, r.active)).collect(),
        })
    }
}

/// Latency buckets from 5 ms to about 10 s: a page or a move takes milliseconds, a slow database
/// seconds.
fn latency_buckets() -> Vec<f64> {
    vec![
        0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
    ]
}

impl Metrics {
    /// Fresh metrics in a registry of their own.
    ///
    /// # Errors
    /// Only for an invalid metric name or label, which the unit tests rule out.
    pub fn new() -> prometheus::Result<Metrics> {
        let metrics = Metrics {
            registry: Registry::new(),
            http_requests: IntCounterVec::new(
                Opts::new(
                    "herald_http_requests_total",
                    "HTTP requests answered, by method, route pattern and status.",
                ),
                &["method", "route", "status"],
            )?,
            http_duration: HistogramVec::new(
                HistogramOpts::new(
                    "herald_http_request_duration_seconds",
                    "Time to answer an HTTP request, by method and route pattern.",
                )
                .buckets(latency_buckets()),
                &["method", "route"],
            )?,
            action_submit: Histogram::with_opts(
                HistogramOpts::new(
                    "herald_action_submit_seconds",
                    "Time to store (or refuse) a submission of actions, from the API or a page form.",
                )
                .buckets(latency_buckets()),
            )?,
            mails_sent: IntCounter::new(
                "herald_mails_sent_total",
                "Mails sent (to the SMTP server, or written to a file).",
            )?,
            mails_failed: IntCounter::new(
                "herald_mails_failed_total",
                "Tries to send a mail that failed (each retry counts).",
            )?,
            jobs_queued: IntGauge::new(
                "herald_jobs_queued",
                "Jobs waiting in the queue (read from the database when scraped).",
            )?,
            jobs_oldest_age: Gauge::new(
                "herald_jobs_oldest_queued_age_seconds",
                "Age of the oldest queued job, 0 when none is queued (read when scraped).",
            )?,
            games_active: IntGaugeVec::new(
                Opts::new(
                    "herald_games_active",
                    "Games in progress, by kind (read from the database when scraped).",
                ),
                &["kind"],
            )?,
            database_read: IntGauge::new(
                "herald_metrics_database_read",
                "1 when this scrape read the queue and games from the database in time, else 0 \
                 (the database gauges then keep their last values).",
            )?,
            scraping: std::sync::Mutex::new(()),
        };
        metrics.register_all()?;
        Ok(metrics)
    }

    fn register_all(&self) -> prometheus::Result<()> {
        let all: [Box<dyn prometheus::core::Collector>; 9] = [
            Box::new(self.http_requests.clone()),
            Box::new(self.http_duration.clone()),
            Box::new(self.action_submit.clone()),
            Box::new(self.mails_sent.clone()),
            Box::new(self.mails_failed.clone()),
            Box::new(self.jobs_queued.clone()),
            Box::new(self.jobs_oldest_age.clone()),
            Box::new(self.games_active.clone()),
            Box::new(self.database_read.clone()),
        ];
        for collector in all {
            self.registry.register(collector)?;
        }
        Ok(())
    }

    /// Counts one answered request. `route` is the matched pattern or [`UNMATCHED`].
    pub fn observe_request(&self, method: &str, route: &str, status: u16, seconds: f64) {
        self.http_requests
            .with_label_values(&[method, route, &status.to_string()])
            .inc();
        self.http_duration
            .with_label_values(&[method, route])
            .observe(seconds);
    }

    /// Sets the database gauges from `snapshot` and renders everything in the Prometheus text
    /// format. `None`: the database did not answer in time; the gauges keep their last values
    /// and `herald_metrics_database_read` says 0. Every kind in `kinds` is reported, 0 when none
    /// of its games is active, so the series exist before the first game.
    pub fn scrape(&self, snapshot: Option<&Snapshot>, kinds: &[&str]) -> String {
        let _one_at_a_time = self
            .scraping
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        self.refresh(snapshot, kinds);
        self.render()
    }

    fn refresh(&self, snapshot: Option<&Snapshot>, kinds: &[&str]) {
        let Some(s) = snapshot else {
            self.database_read.set(0);
            return;
        };
        self.database_read.set(1);
        self.jobs_queued.set(s.jobs_queued);
        self.jobs_oldest_age.set(s.oldest_queued_age_s);
        self.games_active.reset();
        for kind in kinds {
            self.games_active.with_label_values(&[kind]).set(0);
        }
        for (kind, n) in &s.games_active {
            self.games_active
                .with_label_values(&[kind.as_str()])
                .set(*n);
        }
    }

    fn render(&self) -> String {
        let mut out = String::new();
        if let Err(e) = TextEncoder::new().encode_utf8(&self.registry.gather(), &mut out) {
            tracing::warn!(error = %e, "metrics could not be encoded");
        }
        out
    }

    /// The content type of [`Metrics::render`].
    pub fn content_type() -> &'static str {
        prometheus::TEXT_FORMAT
    }
}

/// Whether `given` equals `expected`, in a time that does not depend on where they differ (nor
/// on their lengths: both are hashed first), so that the token cannot be guessed byte by byte.
pub fn token_matches(given: &str, expected: &str) -> bool {
    use sha2::{Digest, Sha256};
    let a = Sha256::digest(given.as_bytes());
    let b = Sha256::digest(expected.as_bytes());
    a.iter()
        .zip(b.iter())
        .fold(0u8, |acc, (x, y)| acc | (x ^ y))
        == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_series_is_named_and_two_instances_do_not_collide() {
        let a = Metrics::new().unwrap();
        let b = Metrics::new().unwrap();
        a.observe_request("GET", "/api/v1/games/{id}", 200, 0.01);
        a.mails_sent.inc();
        let text = a.scrape(
            Some(&Snapshot {
                jobs_queued: 3,
                oldest_queued_age_s: 4.5,
                games_active: vec![("magnate".to_owned(), 2)],
            }),
            &["magnate", "nim"],
        );
        for needle in [
            "herald_http_requests_total{method=\"GET\",route=\"/api/v1/games/{id}\",status=\"200\"} 1",
            "herald_http_request_duration_seconds_bucket",
            "herald_action_submit_seconds_count 0",
            "herald_mails_sent_total 1",
            "herald_mails_failed_total 0",
            "herald_jobs_queued 3",
            "herald_jobs_oldest_queued_age_seconds 4.5",
            "herald_games_active{kind=\"magnate\"} 2",
            "herald_games_active{kind=\"nim\"} 0",
            "herald_metrics_database_read 1",
        ] {
            assert!(text.contains(needle), "{needle} missing in\n{text}");
        }
        assert!(b.scrape(None, &[]).contains("herald_mails_sent_total 0"));
        let stale = a.scrape(None, &[]);
        assert!(stale.contains("herald_jobs_queued 3"), "{stale}");
        assert!(stale.contains("herald_metrics_database_read 0"), "{stale}");
    }

    #[test]
    fn tokens_compare_whole() {
        assert!(token_matches("s3cret-token", "s3cret-token"));
        assert!(!token_matches("s3cret-toke", "s3cret-token"));
        assert!(!token_matches("", "s3cret-token"));
        assert!(!token_matches("s3cret-tokeN", "s3cret-token"));
    }
}
