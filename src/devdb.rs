//! The embedded default database: a private PostgreSQL cluster in a directory of ours, started
//! with the `initdb`/`pg_ctl` found on this machine, reachable only through a unix socket in its
//! own directory. `herald serve` uses it when `DATABASE_URL` is unset; the test suite uses it for
//! its throw-away cluster.
//!
//! PostgreSQL refuses to run as root, so as root the cluster belongs to the `postgres` OS user and
//! every PostgreSQL program runs through `runuser`.
//!
//! Ownership: the process that starts a cluster holds an exclusive lock on `dir/lock` for the
//! cluster's whole life. A watchdog (a small shell) shares that lock and waits on a pipe whose
//! other end only the owner holds; when the owner dies (even by `kill -9`) the pipe closes, the
//! watchdog stops the cluster and exits, and only then is the lock free. A new owner therefore
//! waits for the lock and can never have its fresh cluster stopped by a dead owner's leftovers
//! (the race a polling watchdog had). A second `herald` beside a live owner borrows its cluster
//! and never stops it.
//!
//! Must not depend on actix; it uses diesel only to create the application database.

use diesel::{Connection, PgConnection, RunQueryDsl};
use std::fmt::Write as _;
use std::io;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// The database superuser of an embedded cluster (trust authentication over the private socket).
const SUPERUSER: &str = "herald";
/// The port number only names the socket file: nothing listens on TCP.
const PORT: u16 = 5432;
/// `sun_path` holds 108 bytes; the socket file name takes 17 of them.
const MAX_SOCKET_DIR_LEN: usize = 90;
/// Who runs the cluster: our pid and the socket directory, for a second `herald` to find it.
const OWNER_FILE: &str = "owner";
/// Held (exclusively) by the owner of the cluster and its watchdog.
const LOCK_FILE: &str = "lock";
/// How long a herald sharing a cluster whose owner has gone waits for another herald to run it
/// again (a supervisor restarting the owner) before it exits, rather than answer 503 for ever.
const ORPHAN_WAIT: std::time::Duration = std::time::Duration::from_secs(15);
/// How long a new owner waits for a dead owner's watchdog to stop its cluster.
const LOCK_WAIT: std::time::Duration = std::time::Duration::from_secs(90);

/// Why the embedded cluster could not be started.
#[derive(Debug, thiserror::Error)]
pub enum DevDbError {
    #[error(
        "PostgreSQL was not found: install it (for example `apt-get install postgresql`) or set DATABASE_URL to a PostgreSQL database"
    )]
    NotInstalled,
    #[error(
        "running as root, the embedded PostgreSQL needs the unprivileged `postgres` OS user: create it (installing PostgreSQL does) or set DATABASE_URL"
    )]
    NoPostgresUser,
    #[error(
        "the embedded PostgreSQL directory {0} contains a quote character; choose another DATA_DIR"
    )]
    BadPath(PathBuf),
    #[error(
        "the `postgres` OS user cannot reach {0}: choose a DATA_DIR outside private directories such as /root, or set DATABASE_URL"
    )]
    Unreachable(PathBuf),
    #[error(
        "the embedded PostgreSQL under {0} is held by another process that does not serve it: stop that herald or choose another DATA_DIR"
    )]
    Busy(PathBuf),
    #[error("{what} failed: {detail}")]
    Command { what: String, detail: String },
    #[error(
        "the herald that ran the embedded PostgreSQL this one shared stopped, and nobody started the cluster again within {0} s; start herald again to run it"
    )]
    OwnerGone(u64),
    #[error("{0}")]
    Io(#[from] io::Error),
    #[error("cannot connect to the embedded PostgreSQL: {0}")]
    Connect(#[from] diesel::ConnectionError),
    #[error("cannot create the database: {0}")]
    Query(#[from] diesel::result::Error),
}

/// Server settings for a cluster, beyond the defaults (the tests turn off fsync, for instance).
pub type Tuning<'a> = &'a [(&'a str, &'a str)];

/// A running private cluster. Call [`EmbeddedPostgres::stop`] to stop it; if the process dies
/// first, the watchdog stops it.
#[derive(Debug)]
pub struct EmbeddedPostgres {
    bin_dir: PathBuf,
    data: PathBuf,
    socket_dir: PathBuf,
    /// The OS user PostgreSQL runs as when we are root.
    run_as: Option<String>,
    socket_dir_is_temporary: bool,
    /// Another live `herald` runs this cluster: never stop it. Its pid, for the supervisor to
    /// notice when it has gone.
    borrowed: bool,
    owner_pid: Option<u32>,
    /// The watchdog; killed after a clean stop so that it releases the lock at once.
    watchdog: std::sync::Mutex<Option<Child>>,
    /// The exclusive lock on `dir/lock` (None when borrowed). Dropped last.
    _lock: Option<std::fs::File>,
    /// Where `pg_ctl start` sends the server log.
    log: PathBuf,
    /// The settings of the last start, for a restart.
    options: String,
    /// Set by [`EmbeddedPostgres::stop`]: the supervisor must not start it again.
    stopping: std::sync::atomic::AtomicBool,
    /// What [`EmbeddedPostgres::remove_after_exit`] asked to delete: a clean stop ends the
    /// watchdog that would have, so it deletes it itself.
    remove_on_stop: std::sync::Mutex<Option<PathBuf>>,
}

impl EmbeddedPostgres {
    /// Starts (creating on first use) the cluster under `dir`: `dir/data` holds the cluster,
    /// `dir/run` its socket, `dir/postgres.log` its log. A cluster left running by a killed
    /// previous owner is stopped first; a stale `postmaster.pid` is removed.
    ///
    /// # Errors
    /// [`DevDbError::NotInstalled`] when no PostgreSQL programs are found, or the failing step.
    pub fn start(dir: &Path, tuning: Tuning<'_>) -> Result<EmbeddedPostgres, DevDbError> {
        let bin_dir = find_bin_dir().ok_or(DevDbError::NotInstalled)?;
        let run_as = if running_as_root() {
            Some("postgres".to_owned())
        } else {
            None
        };
        let owner = match &run_as {
            Some(user) => Some(lookup_user(user).ok_or(DevDbError::NoPostgresUser)?),
            None => None,
        };
        if dir.to_string_lossy().contains('\'') {
            return Err(DevDbError::BadPath(dir.to_owned()));
        }
        std::fs::create_dir_all(dir)?;
        let data = dir.join("data");
        let lock = match Self::lock_or_borrow(&bin_dir, dir, &data, run_as.clone())? {
            Ownership::Borrowed(running) => return Ok(*running),
            Ownership::Owner(lock) => lock,
        };
        let mut socket_dir = dir.join("run");
        let socket_dir_is_temporary = socket_dir.as_os_str().len() > MAX_SOCKET_DIR_LEN;
        if socket_dir_is_temporary {
            // A deep DATA_DIR cannot hold a socket: use a short private directory instead.
            socket_dir = short_socket_dir(dir, owner.map(|(uid, _)| uid))?;
        }
        std::fs::create_dir_all(&socket_dir)?;
        if let Some((uid, gid)) = owner {
            chown_tree(dir, uid, gid)?;
            std::os::unix::fs::chown(&socket_dir, Some(uid), Some(gid))?;
        }
        set_mode(&socket_dir, 0o700)?;
        if let Some(user) = &run_as {
            // A cluster under a directory the user cannot traverse (say /root) fails later with an
            // obscure message: say it plainly now.
            let reachable = Command::new("runuser")
                .args(["-u", user, "--", "test", "-w"])
                .arg(dir)
                .status()
                .is_ok_and(|s| s.success());
            if !reachable {
                return Err(DevDbError::Unreachable(dir.to_owned()));
            }
        }
        let mut options = format!(
            "-c listen_addresses='' -k '{}' -p {PORT}",
            socket_dir.display()
        );
        for (name, value) in tuning {
            let _ = write!(options, " -c {name}={value}");
        }
        let watchdog_lock = lock.try_clone()?;
        let pg = EmbeddedPostgres {
            bin_dir,
            data,
            socket_dir,
            run_as,
            socket_dir_is_temporary,
            borrowed: false,
            owner_pid: None,
            watchdog: std::sync::Mutex::new(None),
            remove_on_stop: std::sync::Mutex::new(None),
            _lock: Some(lock),
            log: dir.join("postgres.log"),
            options,
            stopping: std::sync::atomic::AtomicBool::new(false),
        };
        if !pg.data.join("PG_VERSION").exists() {
            pg.initdb()?;
        }
        pg.clear_previous_run();
        // The watchdog comes first: a signal that kills us while PostgreSQL starts must not leave
        // it running.
        pg.set_watchdog(pg.spawn_watchdog(None, watchdog_lock).ok());
        pg.pg_ctl_start()?;
        std::fs::write(
            dir.join(OWNER_FILE),
            format!("{}\n{}\n", std::process::id(), pg.socket_dir.display()),
        )?;
        Ok(pg)
    }

    /// The cluster of a live `herald` that still runs it (`herald verify` beside `herald serve`):
    /// used as it is, and left running.
    fn borrow_running(
        bin_dir: &Path,
        dir: &Path,
        data: &Path,
        run_as: Option<String>,
    ) -> Option<EmbeddedPostgres> {
        let owner = std::fs::read_to_string(dir.join(OWNER_FILE)).ok()?;
        let mut lines = owner.lines();
        let owner_pid: u32 = lines.next()?.trim().parse().ok()?;
        let socket_dir = PathBuf::from(lines.next()?);
        let postmaster = std::fs::read_to_string(data.join("postmaster.pid")).ok()?;
        let postmaster_pid: u32 = postmaster.lines().next()?.trim().parse().ok()?;
        if owner_pid == std::process::id()
            || !process_runs(owner_pid, "herald")
            || !process_runs(postmaster_pid, "postgres")
        {
            return None;
        }
        Some(EmbeddedPostgres {
            bin_dir: bin_dir.to_owned(),
            data: data.to_owned(),
            socket_dir,
            run_as,
            socket_dir_is_temporary: false,
            borrowed: true,
            owner_pid: Some(owner_pid),
            watchdog: std::sync::Mutex::new(None),
            remove_on_stop: std::sync::Mutex::new(None),
            _lock: None,
            log: dir.join("postgres.log"),
            options: String::new(),
            stopping: std::sync::atomic::AtomicBool::new(false),
        })
    }

    /// The lock on `dir`, waiting while a dead owner's watchdog stops its cluster; or the cluster
    /// of a live owner, borrowed.
    fn lock_or_borrow(
        bin_dir: &Path,
        dir: &Path,
        data: &Path,
        run_as: Option<String>,
    ) -> Result<Ownership, DevDbError> {
        let lock = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(dir.join(LOCK_FILE))?;
        let began = std::time::Instant::now();
        let mut said = false;
        loop {
            match lock.try_lock() {
                Ok(()) => return Ok(Ownership::Owner(lock)),
                Err(std::fs::TryLockError::WouldBlock) => {}
                Err(std::fs::TryLockError::Error(e)) => return Err(e.into()),
            }
            if let Some(running) = Self::borrow_running(bin_dir, dir, data, run_as.clone()) {
                return Ok(Ownership::Borrowed(Box::new(running)));
            }
            if began.elapsed() > LOCK_WAIT {
                return Err(DevDbError::Busy(dir.to_owned()));
            }
            if !said {
                tracing::info!(
                    dir = %dir.display(),
                    "waiting for the embedded PostgreSQL of a previous run to stop"
                );
                said = true;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }

    fn set_watchdog(&self, child: Option<Child>) {
        if let Ok(mut slot) = self.watchdog.lock() {
            *slot = child;
        }
    }

    /// Whether another herald runs this cluster (this one only uses it).
    pub fn is_borrowed(&self) -> bool {
        self.borrowed
    }

    /// Whether the postmaster named by `postmaster.pid` runs (a zombie does not).
    pub fn is_running(&self) -> bool {
        let Some(pid) = std::fs::read_to_string(self.data.join("postmaster.pid"))
            .ok()
            .and_then(|text| {
                text.lines()
                    .next()
                    .and_then(|l| l.trim().parse::<u32>().ok())
            })
        else {
            return false;
        };
        process_runs(pid, "postgres")
    }

    /// Keeps the cluster of a long-running server alive: checks it every second and starts it
    /// again when it died (a `kill -9`, the OOM killer). Calls `give_up` when it cannot be
    /// started again within a minute, so that a supervisor restarts the whole server rather than
    /// it answering 503 forever. A borrowed cluster is its owner's to start again; but when the
    /// owner has gone (stopped, or killed and its watchdog stopped the cluster) and no herald
    /// runs the cluster again within [`ORPHAN_WAIT`], `give_up` is called too.
    pub fn supervise(self: &std::sync::Arc<Self>, give_up: fn(&DevDbError)) {
        if self.borrowed {
            self.watch_owner(give_up);
            return;
        }
        let pg = std::sync::Arc::clone(self);
        std::thread::spawn(move || {
            loop {
                std::thread::sleep(std::time::Duration::from_secs(1));
                if pg.stopping.load(std::sync::atomic::Ordering::SeqCst) {
                    return;
                }
                if pg.is_running() {
                    continue;
                }
                tracing::error!("the embedded PostgreSQL died; starting it again");
                let began = std::time::Instant::now();
                loop {
                    // A killed postmaster's backends leave within moments; until they have,
                    // PostgreSQL refuses to start on their shared memory.
                    match pg.pg_ctl_start() {
                        Ok(()) => {
                            tracing::info!("the embedded PostgreSQL is running again");
                            break;
                        }
                        Err(e) if began.elapsed() > std::time::Duration::from_secs(60) => {
                            give_up(&e);
                            return;
                        }
                        Err(e) => {
                            tracing::warn!(error = %e, "the embedded PostgreSQL did not start yet");
                            std::thread::sleep(std::time::Duration::from_millis(500));
                        }
                    }
                }
            }
        });
    }

    /// The supervisor of a borrowed cluster: see [`EmbeddedPostgres::supervise`].
    fn watch_owner(self: &std::sync::Arc<Self>, give_up: fn(&DevDbError)) {
        let pg = std::sync::Arc::clone(self);
        std::thread::spawn(move || {
            let mut orphaned: Option<std::time::Instant> = None;
            loop {
                std::thread::sleep(std::time::Duration::from_secs(1));
                if pg.stopping.load(std::sync::atomic::Ordering::SeqCst) {
                    return;
                }
                // While the owner lives, a cluster down is the owner's to start again.
                let owner_alive = pg.owner_pid.is_some_and(|pid| process_runs(pid, "herald"));
                if pg.is_running() || owner_alive {
                    orphaned = None;
                    continue;
                }
                let since = *orphaned.get_or_insert_with(|| {
                    tracing::error!(
                        "the herald running the embedded PostgreSQL has gone, and the cluster with it"
                    );
                    std::time::Instant::now()
                });
                if since.elapsed() > ORPHAN_WAIT {
                    give_up(&DevDbError::OwnerGone(ORPHAN_WAIT.as_secs()));
                    return;
                }
            }
        });
    }

    /// A diesel/libpq URL for `database` on this cluster.
    pub fn url(&self, database: &str) -> String {
        format!(
            "postgresql://{SUPERUSER}@/{database}?host={}&port={PORT}",
            percent_encode(&self.socket_dir.to_string_lossy())
        )
    }

    /// Creates `database` unless it exists.
    ///
    /// # Errors
    /// When the cluster cannot be reached or refuses.
    pub fn create_database(
        &self,
        database: &str,
        template: Option<&str>,
    ) -> Result<(), DevDbError> {
        let mut conn = PgConnection::establish(&self.url("postgres"))?;
        #[derive(diesel::QueryableByName)]
        struct Found {
            #[diesel(sql_type = diesel::sql_types::Integer)]
            #[expect(dead_code, reason = "only the row's presence matters")]
            one: i32,
        }
        let found: Vec<Found> =
            diesel::sql_query("SELECT 1 AS one FROM pg_database WHERE datname = $1")
                .bind::<diesel::sql_types::Text, _>(database)
                .load(&mut conn)?;
        if found.is_empty() {
            let mut sql = format!("CREATE DATABASE {}", quote_ident(database));
            if let Some(template) = template {
                let _ = write!(sql, " TEMPLATE {}", quote_ident(template));
            }
            match diesel::sql_query(sql).execute(&mut conn) {
                // Two heralds started at once on a new DATA_DIR: the other created it first
                // (PostgreSQL says so by the catalog's unique index, or by name).
                Err(diesel::result::Error::DatabaseError(
                    diesel::result::DatabaseErrorKind::UniqueViolation,
                    _,
                )) => {}
                Err(e) if e.to_string().contains("already exists") => {}
                other => {
                    other?;
                }
            }
        }
        Ok(())
    }

    /// Stops the cluster (fast shutdown: open sessions are ended) and waits for it; then the
    /// watchdog, so that the lock is free when this returns.
    /// Says the server is stopping: from now on neither supervisor acts, so a borrower whose
    /// owner stops first, while this server finishes its requests and its job, exits as asked
    /// (0) rather than as orphaned (1), and an owner does not start again a cluster it is about
    /// to stop.
    pub fn shutting_down(&self) {
        self.stopping
            .store(true, std::sync::atomic::Ordering::SeqCst);
    }

    pub fn stop(&self) {
        // First, for a borrower too: its watcher must not take the owner's own stop, during
        // this one's, for a death.
        self.shutting_down();
        if self.borrowed {
            return;
        }
        let ok = self
            .pg_command("pg_ctl")
            .arg("stop")
            .arg("-D")
            .arg(&self.data)
            .args(["-m", "fast", "-w", "-t", "30"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .map(|s| s.success())
            .unwrap_or(false);
        if !ok {
            tracing::warn!(dir = %self.data.display(), "the embedded PostgreSQL did not stop cleanly");
        }
        if let Ok(mut slot) = self.watchdog.lock()
            && let Some(mut watchdog) = slot.take()
        {
            let _ = watchdog.kill();
            let _ = watchdog.wait();
        }
        if ok && self.socket_dir_is_temporary {
            // Ours alone (the cluster stopped): the watchdog that would have removed it is gone.
            let _ = std::fs::remove_dir_all(&self.socket_dir);
        }
        if ok
            && let Ok(mut slot) = self.remove_on_stop.lock()
            && let Some(dir) = slot.take()
        {
            let _ = std::fs::remove_dir_all(dir);
        }
    }

    /// Starts a second watchdog that stops the cluster and deletes `remove` once this process is
    /// gone (tests use it to remove their temporary directory).
    ///
    /// # Errors
    /// When `sh` cannot be started.
    pub fn remove_after_exit(&mut self, remove: &Path) -> io::Result<()> {
        let Some(lock) = &self._lock else {
            return Ok(());
        };
        let lock = lock.try_clone()?;
        let new = self.spawn_watchdog(Some(remove), lock)?;
        if let Ok(mut slot) = self.remove_on_stop.lock() {
            *slot = Some(remove.to_path_buf());
        }
        if let Ok(mut slot) = self.watchdog.lock()
            && let Some(mut old) = slot.replace(new)
        {
            let _ = old.kill();
            let _ = old.wait();
        }
        Ok(())
    }

    /// The watchdog: its standard input is a pipe whose writing end only this process holds (the
    /// `Child` keeps it, close-on-exec), so `read` returns the moment we are gone, however we
    /// died. Its standard output is the lock file, which keeps our lock held until the cluster
    /// is stopped. It ignores the signals a process group gets when its leader is stopped.
    fn spawn_watchdog(&self, remove: Option<&Path>, lock: std::fs::File) -> io::Result<Child> {
        let mut script = format!(
            "trap '' TERM INT HUP; read _line; {} stop -D '{}' -m fast -w </dev/null >/dev/null 2>&1",
            self.shell_prefix(),
            self.data.display()
        );
        if let Some(remove) = remove {
            let _ = write!(script, "; rm -rf '{}'", remove.display());
        }
        if self.socket_dir_is_temporary {
            let _ = write!(script, "; rm -rf '{}'", self.socket_dir.display());
        }
        Command::new("sh")
            .arg("-c")
            .arg(script)
            .stdin(Stdio::piped())
            .stdout(Stdio::from(lock))
            .stderr(Stdio::null())
            .spawn()
    }

    fn shell_prefix(&self) -> String {
        let pg_ctl = self.bin_dir.join("pg_ctl");
        match &self.run_as {
            Some(user) => format!("runuser -u {user} -- '{}'", pg_ctl.display()),
            None => format!("'{}'", pg_ctl.display()),
        }
    }

    fn pg_command(&self, program: &str) -> Command {
        let path = self.bin_dir.join(program);
        match &self.run_as {
            Some(user) => {
                let mut cmd = Command::new("runuser");
                cmd.args(["-u", user, "--"]).arg(path);
                cmd
            }
            None => Command::new(path),
        }
    }

    fn initdb(&self) -> Result<(), DevDbError> {
        let out = self
            .pg_command("initdb")
            .arg("-D")
            .arg(&self.data)
            .args(["-U", SUPERUSER, "--auth=trust", "-E", "UTF8", "--locale=C"])
            .stdin(Stdio::null())
            .output()?;
        check("initdb", &out)
    }

    /// Makes a start possible after a previous owner died without stopping its cluster.
    fn clear_previous_run(&self) {
        let pid_file = self.data.join("postmaster.pid");
        let Some(pid) = std::fs::read_to_string(&pid_file).ok().and_then(|text| {
            text.lines()
                .next()
                .and_then(|l| l.trim().parse::<u32>().ok())
        }) else {
            return;
        };
        if process_runs(pid, "postgres") {
            tracing::info!(
                pid,
                "stopping an embedded PostgreSQL left over from a previous run"
            );
            let stopped = self
                .pg_command("pg_ctl")
                .arg("stop")
                .arg("-D")
                .arg(&self.data)
                .args(["-m", "immediate", "-w", "-t", "30"])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .map(|s| s.success())
                .unwrap_or(false);
            if stopped {
                return;
            }
        }
        // The recorded process is gone (or its pid now belongs to someone else): the lock is
        // stale, and so are socket lock files.
        let _ = std::fs::remove_file(&pid_file);
        if let Ok(entries) = std::fs::read_dir(&self.socket_dir) {
            for entry in entries.flatten() {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }

    fn pg_ctl_start(&self) -> Result<(), DevDbError> {
        let out = self
            .pg_command("pg_ctl")
            .arg("start")
            .arg("-D")
            .arg(&self.data)
            .arg("-l")
            .arg(&self.log)
            .args(["-w", "-t", "60", "-o"])
            .arg(&self.options)
            .stdin(Stdio::null())
            .output()?;
        check("pg_ctl start", &out).map_err(|e| match e {
            DevDbError::Command { what, detail } => DevDbError::Command {
                what,
                detail: format!("{detail} (see {})", self.log.display()),
            },
            other => other,
        })
    }
}

/// The socket directory of a cluster under a DATA_DIR too deep to hold its socket: a short
/// directory in the system's temporary directory, named after the DATA_DIR, so that a herald
/// sharing the cluster still finds it after the owner restarts it (a random name each start left
/// the sharer on a socket that no longer existed). A directory of that name that is not ours (a
/// symlink, another user's) is never used: a random name is taken instead.
fn short_socket_dir(dir: &Path, pg_uid: Option<u32>) -> io::Result<PathBuf> {
    use sha2::{Digest, Sha256};
    use std::os::unix::fs::MetadataExt;
    let path = std::fs::canonicalize(dir)?;
    let digest = Sha256::digest(path.as_os_str().as_encoded_bytes());
    let named = std::env::temp_dir().join(format!(
        "herald-pg-{}",
        hex::encode(digest.get(..6).unwrap_or_default())
    ));
    let ours = |uid: u32| Some(uid) == current_uid() || Some(uid) == pg_uid;
    match std::fs::symlink_metadata(&named) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(named),
        Ok(meta) if meta.file_type().is_dir() && ours(meta.uid()) => Ok(named),
        _ => {
            tracing::warn!(
                dir = %named.display(),
                "the socket directory named after DATA_DIR is not this server's; using another"
            );
            Ok(std::env::temp_dir().join(format!(
                "herald-pg-{}",
                hex::encode(crate::auth::random_bytes::<6>())
            )))
        }
    }
}

fn check(what: &str, out: &std::process::Output) -> Result<(), DevDbError> {
    if out.status.success() {
        return Ok(());
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let detail = if stderr.trim().is_empty() {
        stdout
    } else {
        stderr
    };
    Err(DevDbError::Command {
        what: what.to_owned(),
        detail: detail
            .trim()
            .lines()
            .last()
            .unwrap_or("no output")
            .to_owned(),
    })
}

/// The directory of `initdb`, `pg_ctl` and `postgres`: from `PATH`, else the newest
/// `/usr/lib/postgresql/*/bin`.
fn find_bin_dir() -> Option<PathBuf> {
    let complete = |dir: &Path| {
        ["initdb", "pg_ctl", "postgres"]
            .iter()
            .all(|p| dir.join(p).is_file())
    };
    if let Some(path) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&path) {
            let pg_ctl = dir.join("pg_ctl");
            if pg_ctl.is_file() {
                // Symlinks (Debian's /usr/local/bin) point into the real installation.
                let real = std::fs::canonicalize(&pg_ctl).ok()?;
                let real_dir = real.parent()?.to_owned();
                if complete(&real_dir) {
                    return Some(real_dir);
                }
                if complete(&dir) {
                    return Some(dir);
                }
            }
        }
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .flatten()
        .filter_map(|e| {
            let version = e.file_name().to_string_lossy().parse::<u32>().ok()?;
            Some((version, e.path().join("bin")))
        })
        .filter(|(_, dir)| complete(dir))
        .collect();
    versions.sort();
    versions.pop().map(|(_, dir)| dir)
}

/// Whether `pid` is a live (not zombie) process whose command line contains `name`.
fn process_runs(pid: u32, name: &str) -> bool {
    let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
    if !String::from_utf8_lossy(&cmdline).contains(name) {
        return false;
    }
    // The state follows the parenthesised command name in /proc/PID/stat.
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        stat.rsplit(')')
            .next()
            .and_then(|rest| rest.split_whitespace().next())
            .is_some_and(|state| state != "Z")
    })
}

/// What [`EmbeddedPostgres::start`] found: the lock (we own the cluster) or a live owner's cluster.
enum Ownership {
    Owner(std::fs::File),
    Borrowed(Box<EmbeddedPostgres>),
}

fn running_as_root() -> bool {
    current_uid() == Some(0)
}

/// Our own uid (the owner of `/proc/self`).
fn current_uid() -> Option<u32> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self").map(|m| m.uid()).ok()
}

/// `(uid, gid)` of an OS user, from `/etc/passwd`.
fn lookup_user(name: &str) -> Option<(u32, u32)> {
    let passwd = std::fs::read_to_string("/etc/passwd").ok()?;
    passwd.lines().find_map(|line| {
        let mut fields = line.split(':');
        if fields.next()? != name {
            return None;
        }
        let _password = fields.next()?;
        let uid = fields.next()?.parse().ok()?;
        let gid = fields.next()?.parse().ok()?;
        Some((uid, gid))
    })
}

fn chown_tree(path: &Path, uid: u32, gid: u32) -> io::Result<()> {
    std::os::unix::fs::lchown(path, Some(uid), Some(gid))?;
    if path.is_dir() && !path.is_symlink() {
        for entry in std::fs::read_dir(path)? {
            chown_tree(&entry?.path(), uid, gid)?;
        }
    }
    Ok(())
}

fn set_mode(path: &Path, mode: u32) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
}

fn percent_encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b'/' => {
                char::from(b).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

fn quote_ident(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}
