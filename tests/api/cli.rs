//! The binary itself: `herald serve` on the embedded database, `herald migrate`, `herald openapi`,
//! and migrations that really revert.

use diesel::{Connection, PgConnection};
use diesel_migrations::MigrationHarness;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

#[actix_web::test]
async fn herald_serve_starts_its_own_database_answers_and_stops_it_on_sigterm() {
    let dir = std::env::temp_dir().join(format!(
        "herald-serve-{}-{}",
        std::process::id(),
        free_port()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let port = free_port();
    let mut child = Command::new(env!("CARGO_BIN_EXE_herald"))
        .arg("serve")
        .current_dir(&dir)
        .env_remove("DATABASE_URL")
        .env("BIND_ADDR", format!("127.0.0.1:{port}"))
        .env("DATA_DIR", dir.join("data"))
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let client = awc::Client::builder()
        .timeout(Duration::from_secs(5))
        .finish();
    let started = Instant::now();
    let mut ready = false;
    while started.elapsed() < Duration::from_secs(90) {
        if let Ok(res) = client
            .get(format!("http://127.0.0.1:{port}/readyz"))
            .send()
            .await
            && res.status().as_u16() == 200
        {
            ready = true;
            break;
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "herald serve exited early"
        );
        actix_web::rt::time::sleep(Duration::from_millis(200)).await;
    }
    assert!(ready, "herald serve did not become ready");
    let pid_file = dir.join("data/postgres/data/postmaster.pid");
    assert!(
        pid_file.exists(),
        "the embedded cluster lives under DATA_DIR/postgres"
    );
    assert!(dir.join("data/jwt_secret").exists());

    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let exit = child.wait().unwrap();
    assert!(exit.success(), "{exit:?}");
    assert!(!pid_file.exists(), "PostgreSQL is stopped with the server");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn herald_openapi_prints_the_committed_document() {
    let out = Command::new(env!("CARGO_BIN_EXE_herald"))
        .arg("openapi")
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        herald::routes::openapi_json()
    );
}

#[actix_web::test]
async fn herald_migrate_migrates_a_database_and_every_migration_reverts() {
    let app = crate::helpers::spawn_empty_database().await;
    let data_dir = std::env::temp_dir().join(format!("herald-migrate-{}", std::process::id()));
    let out = Command::new(env!("CARGO_BIN_EXE_herald"))
        .arg("migrate")
        .env("DATABASE_URL", &app)
        .env("DATA_DIR", &data_dir)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&data_dir);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut conn = PgConnection::establish(&app).unwrap();
    assert!(!conn.has_pending_migration(herald::db::MIGRATIONS).unwrap());
    conn.revert_all_migrations(herald::db::MIGRATIONS).unwrap();
    let all =
        diesel::migration::MigrationSource::<diesel::pg::Pg>::migrations(&herald::db::MIGRATIONS)
            .unwrap()
            .len();
    assert_eq!(
        herald::db::migrate(&mut conn).unwrap(),
        all,
        "down.sql undid everything up.sql did"
    );
}
