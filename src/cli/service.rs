//! Service subcommands: serve, worker, migrate, openapi, verify, ratings rebuild.

use crate::config::Settings;
use crate::devdb::EmbeddedPostgres;
use crate::startup::{Application, ServerOptions};
use diesel::{Connection, PgConnection};
use std::process::ExitCode;

fn init_tracing() {
    crate::logging::init();
}

/// The settings, and the embedded cluster when `DATABASE_URL` is unset (its URL filled in).
fn settings_and_database() -> anyhow::Result<(Settings, Option<EmbeddedPostgres>)> {
    let mut settings = Settings::from_env()?;
    if settings.database.url.is_some() {
        return Ok((settings, None));
    }
    let pg = EmbeddedPostgres::start(&settings.data_dir.join("postgres"), &[])?;
    if let Err(e) = pg.create_database("herald", None) {
        pg.stop();
        return Err(e.into());
    }
    let dir = settings.data_dir.join("postgres");
    if pg.is_borrowed() {
        tracing::info!(dir = %dir.display(), "using the embedded PostgreSQL another herald runs");
    } else {
        tracing::info!(dir = %dir.display(), "embedded PostgreSQL started");
    }
    settings.database.url = Some(pg.url("herald"));
    Ok((settings, Some(pg)))
}

fn migrate_database(url: &str) -> anyhow::Result<usize> {
    let mut conn = PgConnection::establish(url)
        .map_err(|e| anyhow::anyhow!("cannot connect to the database: {e}"))?;
    crate::db::migrate(&mut conn)
}

/// The embedded database died and could not be started again: exit non-zero so that a
/// supervisor restarts herald, rather than serving 503 forever. The watchdog stops what is left.
fn database_lost(error: &crate::devdb::DevDbError) {
    let what = match error {
        crate::devdb::DevDbError::OwnerGone(_) => format!("herald: {error}; exiting"),
        _ => format!(
            "herald: the embedded PostgreSQL died and cannot be started again: {error}; exiting"
        ),
    };
    crate::logging::fatal(&what);
    std::process::exit(1);
}

fn fail(what: &str, error: &anyhow::Error) -> ExitCode {
    crate::logging::fatal(&format!("herald {what}: {error:#}"));
    ExitCode::FAILURE
}

/// `herald serve`: migrate, then serve until SIGINT/SIGTERM (logging that it shuts down); the
/// server drains for at most 5 s, the job worker finishes its job, and the embedded cluster is
/// stopped on the way out.
pub fn serve() -> ExitCode {
    init_tracing();
    let (settings, pg) = match settings_and_database() {
        Ok(found) => found,
        Err(e) => return fail("serve", &e),
    };
    let pg = pg.map(std::sync::Arc::new);
    if let Some(pg) = &pg {
        pg.supervise(database_lost);
    }
    let result = (|| -> anyhow::Result<()> {
        let url = settings.database.url.clone().unwrap_or_default();
        let ran = migrate_database(&url)?;
        if ran > 0 {
            tracing::info!(migrations = ran, "database migrated");
        }
        let bind = settings.http.bind_addr;
        // One set of metrics for the server and its worker: `/metrics` counts the mails sent.
        let metrics = std::sync::Arc::new(crate::metrics::Metrics::new()?);
        // The job worker runs beside the server and stops after it (finishing its current job).
        let pool = crate::jobs::worker::pool(&url)?;
        let worker = crate::jobs::Worker::counting(&settings, pool, metrics.clone())?.spawn();
        let cluster = pg.clone();
        let served = actix_web::rt::System::new().block_on(async move {
            // Signals are ours rather than actix's, so that the shutdown is logged by herald
            // (actix's own line is below the default filter) in the chosen format.
            let options = ServerOptions {
                handle_signals: false,
                ..ServerOptions::default()
            };
            let app = Application::build_with_metrics(settings, options, metrics)?;
            tracing::info!(%bind, port = app.port(), "serving");
            if let Some(port) = app.inbound_port() {
                tracing::info!(port, "listening for replies by mail (SMTP and LMTP)");
            }
            let handle = app.handle();
            let mut server = actix_web::rt::spawn(app.run_until_stopped());
            tokio::select! {
                finished = &mut server => return Ok(finished??),
                signal = shutdown_signal() => {
                    tracing::info!(signal = signal?, "shutting down: finishing open requests (5 s at most), the job in hand and the database");
                    if let Some(pg) = &cluster {
                        pg.shutting_down();
                    }
                }
            }
            handle.stop(true).await;
            server.await??;
            anyhow::Ok(())
        });
        worker.stop();
        served
    })();
    if let Some(pg) = pg {
        pg.stop();
    }
    match result {
        Ok(()) => {
            tracing::info!("herald stopped");
            ExitCode::SUCCESS
        }
        Err(e) => fail("serve", &e),
    }
}

/// Waits for SIGTERM or SIGINT (Ctrl-C) and names it.
///
/// # Errors
/// When the signal handlers cannot be installed.
async fn shutdown_signal() -> std::io::Result<&'static str> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut term = signal(SignalKind::terminate())?;
        tokio::select! {
            interrupted = tokio::signal::ctrl_c() => interrupted.map(|()| "SIGINT"),
            _ = term.recv() => Ok("SIGTERM"),
        }
    }
    #[cfg(not(unix))]
    {
        tokio::signal::ctrl_c().await.map(|()| "Ctrl-C")
    }
}

/// `herald worker`: run queued jobs until SIGINT/SIGTERM, without serving HTTP. Migrates first
/// (under the migration lock), so it may start before or beside `herald serve`.
pub fn worker() -> ExitCode {
    init_tracing();
    let (settings, pg) = match settings_and_database() {
        Ok(found) => found,
        Err(e) => return fail("worker", &e),
    };
    let pg = pg.map(std::sync::Arc::new);
    if let Some(pg) = &pg {
        pg.supervise(database_lost);
    }
    let result = (|| -> anyhow::Result<()> {
        let url = settings.database.url.clone().unwrap_or_default();
        migrate_database(&url)?;
        let pool = crate::jobs::worker::pool(&url)?;
        let worker = crate::jobs::Worker::new(&settings, pool)?.spawn();
        tracing::info!("job worker running");
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let signal = runtime.block_on(shutdown_signal())?;
        tracing::info!(signal, "shutting down: finishing the job in hand");
        worker.stop();
        Ok(())
    })();
    if let Some(pg) = pg {
        pg.stop();
    }
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail("worker", &e),
    }
}

/// `herald migrate`: apply pending migrations and exit.
pub fn migrate() -> ExitCode {
    init_tracing();
    let (settings, pg) = match settings_and_database() {
        Ok(found) => found,
        Err(e) => return fail("migrate", &e),
    };
    let result = migrate_database(&settings.database.url.clone().unwrap_or_default());
    if let Some(pg) = pg {
        pg.stop();
    }
    match result {
        Ok(n) => {
            eprintln!("herald migrate: {n} migration(s) applied");
            ExitCode::SUCCESS
        }
        Err(e) => fail("migrate", &e),
    }
}

/// `herald demo`: on the configured database (migrated first), two demo accounts and a Magnate
/// game between them; prints one sign-in link per seat.
pub fn demo() -> ExitCode {
    init_tracing();
    let (settings, pg) = match settings_and_database() {
        Ok(found) => found,
        Err(e) => return fail("demo", &e),
    };
    let result = (|| -> anyhow::Result<crate::web::demo::Demo> {
        let url = settings.database.url.clone().unwrap_or_default();
        migrate_database(&url)?;
        let mut conn = PgConnection::establish(&url)?;
        let links = crate::auth::links::LinkKeys::new(&settings.auth.jwt_secret);
        crate::web::demo::create(&mut conn, &links).map_err(|e| anyhow::anyhow!("{e}"))
    })();
    if let Some(pg) = pg {
        pg.stop();
    }
    match result {
        Ok(demo) => {
            let base = settings.http.public_url.trim_end_matches('/');
            println!("Magnate demo game {}", demo.game);
            for (seat, (name, link)) in demo.seats.iter().enumerate() {
                println!("seat {seat} ({name}): {base}{link}");
            }
            println!(
                "Open each link in its own browser (or a private window): cookies are per browser."
            );
            ExitCode::SUCCESS
        }
        Err(e) => fail("demo", &e),
    }
}

/// `herald openapi`: print the OpenAPI document (the bytes of `openapi/openapi.json`).
pub fn openapi() -> ExitCode {
    print!("{}", crate::routes::openapi_json());
    ExitCode::SUCCESS
}

/// `herald verify <game-id>`: replay the game from its seed and stored actions; exit 0 when the
/// replay reproduces the stored state and outcome.
pub fn verify(game_id: &str) -> ExitCode {
    init_tracing();
    let Ok(id) = game_id.parse::<uuid::Uuid>() else {
        eprintln!("herald verify: {game_id:?} is not a game id (a UUID)");
        return ExitCode::FAILURE;
    };
    let (settings, pg) = match settings_and_database() {
        Ok(found) => found,
        Err(e) => return fail("verify", &e),
    };
    let result = (|| -> anyhow::Result<crate::services::games::Verification> {
        let url = settings.database.url.clone().unwrap_or_default();
        let mut conn = PgConnection::establish(&url)
            .map_err(|e| anyhow::anyhow!("cannot connect to the database: {e}"))?;
        crate::services::games::verify(&mut conn, crate::domain::GameId(id))
            .map_err(|e| anyhow::anyhow!("{e}"))
    })();
    if let Some(pg) = pg {
        pg.stop();
    }
    match result {
        Ok(v) if v.replay_ok => {
            let when = if v.finished {
                "from its revealed seed"
            } else {
                "from its seed (the game is still in progress: the seed stays secret)"
            };
            println!(
                "game {id}: replaying its {} actions {when} reproduces the stored state and outcome",
                v.actions
            );
            ExitCode::SUCCESS
        }
        Ok(v) => {
            println!(
                "game {id}: {}",
                v.problem
                    .unwrap_or_else(|| "the replay does not match".to_owned())
            );
            ExitCode::FAILURE
        }
        Err(e) => fail("verify", &e),
    }
}

/// `herald ratings rebuild`: migrate, then recompute every rating from the stored results.
pub fn rebuild_ratings() -> ExitCode {
    init_tracing();
    let (settings, pg) = match settings_and_database() {
        Ok(found) => found,
        Err(e) => return fail("ratings rebuild", &e),
    };
    let result = (|| -> anyhow::Result<crate::services::ratings::Rebuilt> {
        let url = settings.database.url.clone().unwrap_or_default();
        migrate_database(&url)?;
        let mut conn = PgConnection::establish(&url)
            .map_err(|e| anyhow::anyhow!("cannot connect to the database: {e}"))?;
        crate::services::ratings::rebuild(&mut conn).map_err(|e| anyhow::anyhow!("{e}"))
    })();
    if let Some(pg) = pg {
        pg.stop();
    }
    match result {
        Ok(r) => {
            println!(
                "rebuilt {} ratings from {} rated games; {} ratings and {} history rows differed from the stored values",
                r.ratings, r.games, r.ratings_changed, r.history_changed
            );
            ExitCode::SUCCESS
        }
        Err(e) => fail("ratings rebuild", &e),
    }
}
