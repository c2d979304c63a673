//! The embedded default database: a private PostgreSQL cluster in a directory of ours, started
//! with the `initdb`/`pg_ctl` found on this machine, reachable only through a unix socket in its
//! own directory. `herald serve` uses it when `DATABASE_URL` is unset; the test suite uses it for
//! its throw-away cluster.
//!
//! PostgreSQL refuses to run as root, so as root the cluster belongs to the `postgres` OS user and
//! every PostgreSQL program runs through `runuser`. A watchdog process stops the cluster when its
//! owner disappears without a clean shutdown, so a killed server never leaves PostgreSQL behind.
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
    #[error("{what} failed: {detail}")]
    Command { what: String, detail: String },
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
    /// Another live `herald` runs this cluster: never stop it.
    borrowed: bool,
    watchdog: Option<Child>,
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
        if let Some(running) = Self::borrow_running(&bin_dir, dir, &data, run_as.clone()) {
            return Ok(running);
        }
        let mut socket_dir = dir.join("run");
        let socket_dir_is_temporary = socket_dir.as_os_str().len() > MAX_SOCKET_DIR_LEN;
        if socket_dir_is_temporary {
            // A deep DATA_DIR cannot hold a socket: use a short private directory instead.
            socket_dir = std::env::temp_dir().join(format!(
                "herald-pg-{}",
                hex::encode(crate::auth::random_bytes::<6>())
            ));
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
        let mut pg = EmbeddedPostgres {
            bin_dir,
            data,
            socket_dir,
            run_as,
            socket_dir_is_temporary,
            borrowed: false,
            watchdog: None,
        };
        if !pg.data.join("PG_VERSION").exists() {
            pg.initdb()?;
        }
        pg.clear_previous_run();
        // The watchdog comes first: a signal that kills us while PostgreSQL starts must not leave
        // it running.
        pg.watchdog = pg.spawn_watchdog(None).ok();
        pg.pg_ctl_start(dir, tuning)?;
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
        let alive = |pid: u32, name: &str| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .is_ok_and(|c| String::from_utf8_lossy(&c).contains(name))
        };
        if owner_pid == std::process::id()
            || !alive(owner_pid, "herald")
            || !alive(postmaster_pid, "postgres")
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
            watchdog: None,
        })
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
            diesel::sql_query(sql).execute(&mut conn)?;
        }
        Ok(())
    }

    /// Stops the cluster (fast shutdown: open sessions are ended) and waits for it.
    pub fn stop(&self) {
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
    }

    /// Starts a second watchdog that stops the cluster and deletes `remove` once this process is
    /// gone (tests use it to remove their temporary directory).
    ///
    /// # Errors
    /// When `sh` cannot be started.
    pub fn remove_after_exit(&mut self, remove: &Path) -> io::Result<()> {
        if let Some(mut old) = self.watchdog.take() {
            let _ = old.kill();
            let _ = old.wait();
        }
        self.watchdog = Some(self.spawn_watchdog(Some(remove))?);
        Ok(())
    }

    fn spawn_watchdog(&self, remove: Option<&Path>) -> io::Result<Child> {
        // Ignores the signals a process group gets when its leader is stopped, outlives us, then
        // stops the cluster. `sleep` inherits the ignored signals.
        let mut script = format!(
            "trap '' TERM INT HUP; while kill -0 {} 2>/dev/null; do sleep 1; done; {} stop -D '{}' -m fast -w >/dev/null 2>&1",
            std::process::id(),
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
            .stdin(Stdio::null())
            .stdout(Stdio::null())
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
        let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
        if String::from_utf8_lossy(&cmdline).contains("postgres") {
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

    fn pg_ctl_start(&self, dir: &Path, tuning: Tuning<'_>) -> Result<(), DevDbError> {
        let mut options = format!(
            "-c listen_addresses='' -k '{}' -p {PORT}",
            self.socket_dir.display()
        );
        for (name, value) in tuning {
            let _ = write!(options, " -c {name}={value}");
        }
        let out = self
            .pg_command("pg_ctl")
            .arg("start")
            .arg("-D")
            .arg(&self.data)
            .arg("-l")
            .arg(dir.join("postgres.log"))
            .args(["-w", "-t", "60", "-o"])
            .arg(options)
            .stdin(Stdio::null())
            .output()?;
        check("pg_ctl start", &out).map_err(|e| match e {
            DevDbError::Command { what, detail } => DevDbError::Command {
                what,
                detail: format!("{detail} (see {})", dir.join("postgres.log").display()),
            },
            other => other,
        })
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

fn running_as_root() -> bool {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self")
        .map(|m| m.uid() == 0)
        .unwrap_or(false)
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
