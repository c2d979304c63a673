//! The connection pool, the embedded migrations, and the bridge from async handlers to diesel's
//! blocking connections (actix's blocking thread pool).
//!
//! Must not depend on routes or services.

use diesel::PgConnection;
use diesel::expression::AsExpression;
use diesel::pg::Pg;
use diesel::query_builder::{AstPass, QueryFragment, QueryId};
use diesel::r2d2::{ConnectionManager, ManageConnection, Pool, PooledConnection};
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};
use std::time::{Duration, Instant};

/// The migrations of `migrations/`, compiled into the binary.
pub const MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations");

/// The pool, with one permit per connection: a request waits for a permit before it takes a
/// blocking thread (see [`run`]).
#[derive(Clone)]
pub struct PgPool {
    pool: Pool<Manager>,
    gate: std::sync::Arc<tokio::sync::Semaphore>,
}

impl std::ops::Deref for PgPool {
    type Target = Pool<Manager>;
    fn deref(&self) -> &Pool<Manager> {
        &self.pool
    }
}
pub type PgConn = PooledConnection<Manager>;

/// How long after a connection was last tested (or opened) the pool hands it out untested, as
/// HikariCP's `aliveBypassWindowMs`. r2d2 tests a connection with a `SELECT 1` at every
/// checkout: a round trip per request. Under load the test now runs at most twice a second per
/// connection. When the database restarts, a dead connection is handed out only within this
/// window after its last test; the next checkout after it tests it and drops it, so it fails at
/// most the requests of that half second.
const ALIVE_BYPASS: Duration = Duration::from_millis(500);

/// diesel's connection manager, testing a connection at checkout only when [`ALIVE_BYPASS`]
/// has passed since its last test.
#[derive(Debug)]
pub struct Manager(ConnectionManager<PgConnection>);

/// A pooled connection with the time it was last tested.
pub struct Conn {
    conn: PgConnection,
    alive_at: Instant,
}

impl std::ops::Deref for Conn {
    type Target = PgConnection;
    fn deref(&self) -> &PgConnection {
        &self.conn
    }
}

impl std::ops::DerefMut for Conn {
    fn deref_mut(&mut self) -> &mut PgConnection {
        &mut self.conn
    }
}

impl ManageConnection for Manager {
    type Connection = Conn;
    type Error = diesel::r2d2::Error;

    fn connect(&self) -> Result<Conn, Self::Error> {
        let conn = self.0.connect()?;
        Ok(Conn {
            conn,
            alive_at: Instant::now(),
        })
    }

    fn is_valid(&self, conn: &mut Conn) -> Result<(), Self::Error> {
        if conn.alive_at.elapsed() < ALIVE_BYPASS {
            return Ok(());
        }
        self.0.is_valid(&mut conn.conn)?;
        conn.alive_at = Instant::now();
        Ok(())
    }

    fn has_broken(&self, conn: &mut Conn) -> bool {
        self.0.has_broken(&mut conn.conn)
    }
}

/// A pool of at most `size` connections to `url`. Connections are opened lazily, so this
/// succeeds while the database is down (`/readyz` reports it).
///
/// # Errors
/// When the pool cannot be configured.
pub fn pool(url: &str, size: u32) -> anyhow::Result<PgPool> {
    pool_waiting(url, size, std::time::Duration::from_secs(10))
}

/// As [`pool`], waiting at most `wait` for a connection (a free one, or the database's answer).
///
/// # Errors
/// When the pool cannot be configured.
pub fn pool_waiting(url: &str, size: u32, wait: std::time::Duration) -> anyhow::Result<PgPool> {
    pool_with(url, size, wait, SessionSettings { prime: None })
}

/// As [`pool_waiting`], each new connection reading `prime` once before its first use (errors
/// ignored): a statement that names the tables the pool's work reads, so that a fresh
/// PostgreSQL backend loads their descriptions and indexes then, not on the first job. On a
/// fresh backend the first statement on a table took 0.7-1.9 ms against 0.13-0.18 after, 3-5
/// ms in all on the first turn mail of a server (`psql` with `\timing`, 2026-12-02).
///
/// # Errors
/// When the pool cannot be configured.
pub fn pool_primed(
    url: &str,
    size: u32,
    wait: std::time::Duration,
    prime: &'static str,
) -> anyhow::Result<PgPool> {
    pool_with(url, size, wait, SessionSettings { prime: Some(prime) })
}

fn pool_with(
    url: &str,
    size: u32,
    wait: std::time::Duration,
    settings: SessionSettings,
) -> anyhow::Result<PgPool> {
    let pool = Pool::builder()
        .max_size(size)
        .min_idle(Some(0))
        .connection_timeout(wait)
        .connection_customizer(Box::new(settings))
        .build_unchecked(Manager(ConnectionManager::new(url)));
    Ok(PgPool {
        pool,
        gate: std::sync::Arc::new(tokio::sync::Semaphore::new(size as usize)),
    })
}

/// How the server's connections plan their statements.
///
/// Each kept statement is planned once per connection. diesel keeps its statements prepared,
/// but PostgreSQL re-plans a prepared statement for every execution while it judges the
/// parameters may matter; for our statements (keys, a user's seats, joins to names and ratings)
/// they do not, and that re-planning was more than half of the database's time on a game read
/// (`perf`, `bench_reads`: 2,900 reads/s before, 4,700 after). The due-time scans compare with
/// `now()` in their SQL, which no plan knows in advance anyway.
///
/// And no statement starts parallel workers. Every statement of the server reads a page of rows
/// at most, and starting workers costs milliseconds: the lobby's plan over 100,000 finished
/// games gathered from two workers and took 14–23 ms, against 0.3–0.6 ms without them (README,
/// benchmarks).
const SESSION_SETTINGS: &str =
    "SET plan_cache_mode = force_generic_plan; SET max_parallel_workers_per_gather = 0";

#[derive(Debug)]
struct SessionSettings {
    /// A statement a new connection runs once, for its side effect on the backend's caches.
    prime: Option<&'static str>,
}

impl diesel::r2d2::CustomizeConnection<Conn, diesel::r2d2::Error> for SessionSettings {
    fn on_acquire(&self, conn: &mut Conn) -> Result<(), diesel::r2d2::Error> {
        use diesel::connection::SimpleConnection;
        conn.batch_execute(SESSION_SETTINGS)
            .map_err(diesel::r2d2::Error::QueryError)?;
        if let Some(prime) = self.prime {
            // Only ever a head start: a table not there yet (a database not migrated) or any
            // other failure leaves the connection as it would be without.
            if let Err(e) = conn.batch_execute(prime) {
                tracing::debug!(error = %e, "priming a connection failed");
            }
        }
        Ok(())
    }
}

/// Applies every pending migration; returns how many ran.
///
/// # Errors
/// When the database cannot be reached or a migration fails.
pub fn migrate(conn: &mut PgConnection) -> anyhow::Result<usize> {
    use diesel::RunQueryDsl;
    // Several instances may start at once on one database: one migrates, the others wait.
    const MIGRATION_LOCK: i64 = 0x6865_7261_6c64; // "herald"
    diesel::sql_query(format!("SELECT pg_advisory_lock({MIGRATION_LOCK})")).execute(conn)?;
    let done = conn
        .run_pending_migrations(MIGRATIONS)
        .map(|done| done.len())
        .map_err(|e| anyhow::anyhow!("database migration failed: {e}"));
    diesel::sql_query(format!("SELECT pg_advisory_unlock({MIGRATION_LOCK})")).execute(conn)?;
    done
}

/// Why a database call from a handler failed.
#[derive(Debug, thiserror::Error)]
pub enum BlockingError<E> {
    /// No connection could be had (the database is down or the pool exhausted).
    #[error("no database connection: {0}")]
    Pool(#[from] diesel::r2d2::PoolError),
    /// The blocking pool is shutting down.
    #[error("the blocking thread pool is gone")]
    Canceled,
    /// Every connection stayed taken by other requests for the pool's whole wait.
    #[error("every database connection stayed busy")]
    Busy,
    /// The work itself failed.
    #[error(transparent)]
    Work(E),
}

/// Runs `work` with a pooled connection on actix's blocking thread pool.
///
/// A request first waits, without a thread, for one of the pool's permits (one per connection,
/// served in turn), and only then takes a blocking thread, which finds a connection free unless
/// one is held outside these permits (the event streams' listener keeps one while streams are
/// open; the probes and the metrics take theirs directly, so that they answer while requests
/// queue): then at most that many permit holders wait in the checkout, as all did before. Taking
/// the thread first had every waiting request hold one asleep in the pool's checkout: under 32
/// clients on a pool of 8, some 25 blocking threads took turns, each waking on its own cold
/// caches and allocator pages, and the checkout's condition variable woke them in no order. With
/// the permits, `bench_submit` ran 4–6 % more submissions with less CPU per submission and a
/// shorter tail (README, Benchmarks, 2026-12-02).
///
/// # Errors
/// [`BlockingError`]: no connection within the pool's wait, or the error `work` returned.
pub async fn run<T, E, F>(pool: &PgPool, work: F) -> Result<T, BlockingError<E>>
where
    F: FnOnce(&mut PgConnection) -> Result<T, E> + Send + 'static,
    T: Send + 'static,
    E: Send + 'static,
{
    let wait = pool.connection_timeout();
    let asked = Instant::now();
    let permit = actix_web::rt::time::timeout(wait, pool.gate.clone().acquire_owned())
        .await
        .map_err(|_| BlockingError::Busy)?
        .map_err(|_| BlockingError::Canceled)?;
    let pool = pool.clone();
    actix_web::web::block(move || {
        // The wait is the pool's in all: what the permit took is not waited again, but a
        // second is left at least, for a connection the pool must open anew.
        let left = wait
            .saturating_sub(asked.elapsed())
            .max(Duration::from_secs(1).min(wait));
        let done = match pool.get_timeout(left) {
            Ok(mut conn) => work(&mut conn).map_err(BlockingError::Work),
            Err(e) => Err(BlockingError::Pool(e)),
        };
        // Held until the connection is back in the pool (it was dropped above), so the next
        // request let in finds it there.
        drop(permit);
        done
    })
    .await
    .map_err(|_| BlockingError::Canceled)?
}

/// Runs `work` like [`run`], but answers `None` once `limit` has passed (or when no connection
/// could be had, or the work failed). For the probes and the metrics, which must answer quickly
/// even when the database hangs: a stopped server accepts connections and never replies, so
/// neither the pool's checkout (which tests the connection) nor a query can be trusted to
/// return. The blocking thread stays with its query until the database answers or the
/// connection breaks; the caller does not wait for it.
pub async fn run_within<T, F>(pool: &PgPool, limit: std::time::Duration, work: F) -> Option<T>
where
    F: FnOnce(&mut PgConnection) -> diesel::QueryResult<T> + Send + 'static,
    T: Send + 'static,
{
    let pool = pool.clone();
    let job = actix_web::web::block(move || {
        let mut conn = pool.get_timeout(limit).ok()?;
        work(&mut conn).ok()
    });
    match actix_web::rt::time::timeout(limit, job).await {
        Ok(Ok(answer)) => answer,
        Ok(Err(_)) | Err(_) => None,
    }
}

/// A statement written as SQL text with `$n` markers that each connection prepares once and keeps,
/// as diesel keeps its built queries. diesel's `sql_query` is never kept: PostgreSQL parses and
/// plans it again on every call, and for the submission path's one write (a common table
/// expression over five tables) that was a tenth of the database's time (`perf`,
/// `bench_submit`). A marker may appear more than once; each appearance is sent as its own
/// parameter, which keeps the text (the key diesel keeps the statement under) the same.
///
/// Its rows load into a `QueryableByName` type, as `sql_query`'s do.
pub struct Kept<'a> {
    sql: std::borrow::Cow<'a, str>,
    binds: Vec<Box<dyn QueryFragment<Pg> + 'a>>,
}

impl<'a> Kept<'a> {
    /// The statement `sql`; its `$1`, `$2`, ... are the values given to [`Kept::bind`] in order.
    /// Statements built at run time are kept too, each text as its own statement: build them
    /// from a few fixed parts only.
    #[must_use]
    pub fn new(sql: impl Into<std::borrow::Cow<'a, str>>) -> Self {
        Kept {
            sql: sql.into(),
            binds: Vec::new(),
        }
    }

    /// How many values are bound so far.
    #[must_use]
    pub fn values(&self) -> usize {
        self.binds.len()
    }

    /// The next parameter, sent as SQL type `ST`.
    #[must_use]
    pub fn bind<ST, T>(mut self, value: T) -> Self
    where
        ST: diesel::sql_types::SqlType + diesel::expression::TypedExpressionType,
        Pg: diesel::sql_types::HasSqlType<ST>,
        T: AsExpression<ST>,
        T::Expression: QueryFragment<Pg> + 'a,
    {
        self.binds.push(Box::new(value.as_expression()));
        self
    }
}

impl QueryFragment<Pg> for Kept<'_> {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Pg>) -> diesel::QueryResult<()> {
        let mut rest = &*self.sql;
        while let Some(at) = rest.find('$') {
            out.push_sql(&rest[..at]);
            let digits = rest[at + 1..]
                .bytes()
                .take_while(u8::is_ascii_digit)
                .count();
            let marker = &rest[at + 1..at + 1 + digits];
            let bind = marker
                .parse::<usize>()
                .ok()
                .and_then(|n| self.binds.get(n.checked_sub(1)?))
                .ok_or_else(|| {
                    diesel::result::Error::QueryBuilderError(
                        format!("no value bound for ${marker} in a kept statement").into(),
                    )
                })?;
            bind.walk_ast(out.reborrow())?;
            rest = &rest[at + 1 + digits..];
        }
        out.push_sql(rest);
        Ok(())
    }
}

impl QueryId for Kept<'_> {
    // Kept by its text, like any statement without a type of its own.
    type QueryId = ();
    const HAS_STATIC_QUERY_ID: bool = false;
}

impl<Conn> diesel::RunQueryDsl<Conn> for Kept<'_> {}

impl diesel::query_builder::Query for Kept<'_> {
    type SqlType = diesel::sql_types::Untyped;
}

/// A `json` column (a game's state) read and written as its JSON text, which PostgreSQL keeps as
/// sent: the state goes straight from these bytes to its typed form and back. Going through a
/// `serde_json::Value` tree (a map per object) took a few percent of the machine's CPU in `perf`
/// of every submission and game read, and PostgreSQL's parse into `jsonb` a few more.
#[derive(Clone, PartialEq, Eq, diesel::deserialize::FromSqlRow, AsExpression)]
#[diesel(sql_type = diesel::sql_types::Json)]
pub struct JsonText(pub Vec<u8>);

/// Its length only: a state holds hands and the deck's order, which no log line may show.
impl std::fmt::Debug for JsonText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "JsonText({} bytes)", self.0.len())
    }
}

/// PostgreSQL's binary form of `json` is its text.
impl diesel::deserialize::FromSql<diesel::sql_types::Json, Pg> for JsonText {
    fn from_sql(value: diesel::pg::PgValue<'_>) -> diesel::deserialize::Result<Self> {
        Ok(JsonText(value.as_bytes().to_vec()))
    }
}

impl diesel::serialize::ToSql<diesel::sql_types::Json, Pg> for JsonText {
    fn to_sql<'b>(
        &'b self,
        out: &mut diesel::serialize::Output<'b, '_, Pg>,
    ) -> diesel::serialize::Result {
        use std::io::Write;
        out.write_all(&self.0)?;
        Ok(diesel::serialize::IsNull::No)
    }
}

#[cfg(test)]
mod tests {
    use super::JsonText;

    #[test]
    fn a_json_text_in_a_log_line_shows_its_length_and_never_its_content() {
        let state = JsonText(br#"{"hand":["the Sailor"]}"#.to_vec());
        let shown = format!("{state:?}");
        assert_eq!(shown, "JsonText(23 bytes)");
        assert!(!shown.contains("Sailor"));
    }
}
