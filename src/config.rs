//! Settings from the environment, one struct per concern. Read once at start-up by `herald serve`
//! and friends; tests build [`Settings`] by hand. Owns the generated JWT secret under `DATA_DIR`.
//!
//! Must not depend on actix or diesel: this is plain configuration.

use anyhow::Context;
use std::fmt;
use std::io::Write;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

/// Everything the service needs to know about its surroundings.
#[derive(Clone)]
pub struct Settings {
    pub http: HttpSettings,
    pub database: DatabaseSettings,
    pub auth: AuthSettings,
    pub email: EmailSettings,
    pub inbound: InboundSettings,
    pub games: GameSettings,
    pub webhooks: WebhookSettings,
    pub events: EventSettings,
    /// Where the embedded database, generated secrets and the mail folder live.
    pub data_dir: PathBuf,
}

/// Where the server listens and how it is reached from outside.
#[derive(Clone)]
pub struct HttpSettings {
    /// `BIND_ADDR`; port 0 asks the OS for a free port (tests).
    pub bind_addr: SocketAddr,
    /// `PUBLIC_URL` without a trailing slash: the base of links in emails.
    pub public_url: String,
    /// `TRUSTED_PROXIES`: addresses or CIDR ranges (comma-separated) whose `X-Forwarded-For`
    /// is believed; from anyone else the socket's peer address is the client.
    pub trusted_proxies: Vec<Cidr>,
    /// `CORS_ALLOWED_ORIGINS`: the origins (`https://client.example`, comma-separated) whose
    /// browser clients may call the API; none when unset.
    pub cors_allowed_origins: Vec<String>,
    /// `METRICS_TOKEN`: when set, `GET /metrics` needs `Authorization: Bearer <it>`.
    pub metrics_token: Option<String>,
}

/// An address range, `10.0.0.0/8` or a single address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cidr {
    pub addr: std::net::IpAddr,
    pub prefix: u8,
}

impl Cidr {
    /// Reads `a.b.c.d[/n]` or an IPv6 address with an optional prefix.
    pub fn parse(text: &str) -> Option<Cidr> {
        let (addr, prefix) = match text.trim().split_once('/') {
            Some((a, p)) => (a, Some(p)),
            None => (text.trim(), None),
        };
        let addr: std::net::IpAddr = addr.parse().ok()?;
        let max = if addr.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            Some(p) => p.parse::<u8>().ok().filter(|p| *p <= max)?,
            None => max,
        };
        Some(Cidr { addr, prefix })
    }

    pub fn contains(&self, ip: std::net::IpAddr) -> bool {
        use std::net::IpAddr;
        match (self.addr, ip) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                let mask = u32::MAX
                    .checked_shl(32 - u32::from(self.prefix))
                    .unwrap_or(0);
                u32::from(net) & mask == u32::from(ip) & mask
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                let mask = u128::MAX
                    .checked_shl(128 - u32::from(self.prefix))
                    .unwrap_or(0);
                u128::from(net) & mask == u128::from(ip) & mask
            }
            _ => false,
        }
    }
}

/// Which PostgreSQL to use.
#[derive(Clone)]
pub struct DatabaseSettings {
    /// `DATABASE_URL`; `None` means the embedded private cluster under `DATA_DIR/postgres`.
    pub url: Option<String>,
    /// `DATABASE_POOL_SIZE`: connections in the pool of this instance (default
    /// [`default_pool_size`]).
    pub pool_size: u32,
}

/// Secrets of authentication, and the rate limits (each set by its variable, today's values as
/// defaults; a bad value stops the server naming it).
#[derive(Clone)]
pub struct AuthSettings {
    /// The HS256 key for access tokens.
    pub jwt_secret: Vec<u8>,
    /// Lifetime of an access token, in seconds.
    pub access_token_ttl_s: i64,
    /// `SIGN_IN_PER_MINUTE` (default 10): sign-in and link requests allowed per e-mail address
    /// and per client address each minute (anonymous calls).
    pub sign_in_per_minute: u32,
    /// `REGISTRATIONS_PER_HOUR` (default 30): new accounts per client address each hour.
    pub registrations_per_hour: u32,
    /// `CHAT_PER_MINUTE` (default 10): chat messages per account and game each minute.
    pub chat_per_minute: u32,
    /// `ACCOUNT_REQUESTS_PER_MINUTE` (default 3000): authenticated API calls (access or personal
    /// token) and signed-in form posts per account each minute.
    pub account_requests_per_minute: u32,
}

/// How mail leaves the server (used by the email worker).
#[derive(Clone)]
pub struct EmailSettings {
    /// `SMTP_URL`; `None` writes `.eml` files to `DATA_DIR/mail`.
    pub smtp_url: Option<String>,
    /// `SMTP_CA_FILE`: PEM certificates of authorities trusted besides the public ones, for a
    /// relay whose certificate a private authority signed.
    pub smtp_ca_file: Option<PathBuf>,
    /// `MAIL_FROM`: the sender of every mail.
    pub from: String,
    /// Lifetime of the links in "your move" mails (`PLAY_LINK_TTL_DAYS`, default 14 days).
    pub play_link_ttl_s: i64,
}

/// Moves by email (design.md section 18): the reply addresses of turn mails and the two ways
/// replies come in. Everything is off while its setting is unset.
#[derive(Clone, Default)]
pub struct InboundSettings {
    /// `MAIL_DOMAIN`: turn mails carry `Reply-To: play+<token>@<MAIL_DOMAIN>`, and only replies to
    /// that domain are read. Unset: no reply address, no reply block.
    pub mail_domain: Option<String>,
    /// `INBOUND_SMTP_ADDR`: where herald listens for SMTP or LMTP from a mail server (port 0
    /// asks the OS for a free port: tests). Unset: no listener.
    pub smtp_addr: Option<SocketAddr>,
    /// `INBOUND_SECRET`: what a forwarding service presents to `POST /api/v1/inbound-mail`.
    /// Unset: that route refuses every request.
    pub secret: Option<String>,
}

// The secret never shows; the domain and the address are not secret.
impl fmt::Debug for InboundSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("InboundSettings")
            .field("mail_domain", &self.mail_domain)
            .field("smtp_addr", &self.smtp_addr)
            .field("secret", &self.secret.as_ref().map(|_| "<set>"))
            .finish()
    }
}

/// Limits of the games themselves.
#[derive(Debug, Clone)]
pub struct GameSettings {
    /// `CLOCK_MIN_SECONDS` (default 3600): the shortest allowance a clock may give.
    pub clock_min_seconds: i64,
    /// `SEEN_CACHE_ENTRIES` (default 2048, 0 keeps none): how many (game, version, viewer) views
    /// a server keeps so that reading a game again runs no engine; and of how many games it keeps
    /// the last state it stored or read, so that the next move or read fetches and parses none.
    pub seen_cache_entries: usize,
}

/// Outgoing webhook deliveries.
#[derive(Clone)]
pub struct WebhookSettings {
    /// `WEBHOOKS_ALLOW_PRIVATE=true` lets webhooks call loopback and private addresses (tests,
    /// a receiver on the same network); otherwise such a URL is refused, at subscription and at
    /// each delivery.
    pub allow_private: bool,
}

/// The account event logs (design.md section 17).
#[derive(Debug, Clone)]
pub struct EventSettings {
    /// `EVENT_RETENTION_DAYS` (default 45): events older than this are deleted by the worker; a
    /// client resuming from before what is kept is told so (410 `cursor_expired`).
    pub retention_days: u32,
}

/// The longest absence the server plans for is a full vacation bank (30 days, during which no
/// deadline passes); two weeks more (the life of a play link) lets a client that was off all
/// that time still resume from its cursor. Longer only grows the logs: 11.9 KB per finished game.
const DEFAULT_EVENT_RETENTION_DAYS: u32 = 45;

const DEFAULT_CLOCK_MIN_SECONDS: i64 = 3600;
/// Sign-in and link requests per e-mail address and per client address each minute.
const DEFAULT_SIGN_IN_PER_MINUTE: u32 = 10;
const DEFAULT_REGISTRATIONS_PER_HOUR: u32 = 30;
const DEFAULT_CHAT_PER_MINUTE: u32 = 10;
/// 50 a second on average: a person clicking, or a client following its games (it has the event
/// stream, it need not poll), stays far below; a bot driving hundreds of games at once fits; a
/// runaway loop is stopped at about 1 % of what one server answers (game reads: some 4,500/s).
/// Load drivers that read harder from one account set it higher.
const DEFAULT_ACCOUNT_REQUESTS_PER_MINUTE: u32 = 3000;
const DEFAULT_SEEN_CACHE_ENTRIES: usize = 2048;

/// The pool's size when `DATABASE_POOL_SIZE` is unset: four connections per core of this
/// machine, between 8 and 32.
///
/// A request holds its connection for its transaction, and the server's statements are short,
/// so connections beyond what the cores keep busy only add PostgreSQL backends that take turns
/// on the same cores: on two cores with the embedded database, `bench_submit` had a shorter
/// tail with 8 than with 16 or 32, and a third less throughput with 4 (README, Benchmarks).
/// The cores counted are this machine's: with a database elsewhere, its cores and the round
/// trip matter more, and `DATABASE_POOL_SIZE` says what fits.
#[must_use]
pub fn default_pool_size() -> u32 {
    let cores = std::thread::available_parallelism()
        .map_or(2, |n| u32::try_from(n.get()).unwrap_or(u32::MAX));
    pool_for_cores(cores)
}

/// `DATABASE_POOL_SIZE` as `herald serve` reads it (`value` is the variable's value, `None`
/// when unset): for the programs that build their settings another way, such as the benchmarks.
///
/// # Errors
/// A value that is not a whole number of at least 1, named.
pub fn pool_size_from(value: Option<String>) -> anyhow::Result<u32> {
    at_least_one(
        &|_: &str| value.clone().filter(|v| !v.trim().is_empty()),
        "DATABASE_POOL_SIZE",
        default_pool_size(),
    )
}

fn pool_for_cores(cores: u32) -> u32 {
    cores.saturating_mul(4).clamp(8, 32)
}

const DEFAULT_MAIL_FROM: &str = "herald <herald@localhost>";
const DEFAULT_PLAY_LINK_TTL_S: i64 = 14 * 24 * 3600;

// Secrets stay out of `{:?}` so a settings dump in a log line cannot leak them.
impl fmt::Debug for Settings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Settings")
            .field("http", &self.http)
            .field("database", &self.database)
            .field("email", &self.email)
            .field("inbound", &self.inbound)
            .field("games", &self.games)
            .field("events", &self.events)
            .field("data_dir", &self.data_dir)
            .finish_non_exhaustive()
    }
}

impl fmt::Debug for HttpSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HttpSettings")
            .field("bind_addr", &self.bind_addr)
            .field("public_url", &self.public_url)
            .field("trusted_proxies", &self.trusted_proxies)
            .field("cors_allowed_origins", &self.cors_allowed_origins)
            .field(
                "metrics_token",
                &self.metrics_token.as_ref().map(|_| "<set>"),
            )
            .finish()
    }
}

impl fmt::Debug for DatabaseSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DatabaseSettings")
            .field("url", &self.url.as_ref().map(|_| "<set>"))
            .field("pool_size", &self.pool_size)
            .finish()
    }
}

// `SMTP_URL` may carry a password (`smtps://user:pass@host`): only its scheme and host show.
impl fmt::Debug for EmailSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let smtp = self.smtp_url.as_ref().map(|url| {
            let (scheme, rest) = url.split_once("://").unwrap_or(("?", url));
            let host = rest.rsplit_once('@').map_or(rest, |(_, host)| host);
            format!("{scheme}://{}", host.split(['/', '?']).next().unwrap_or(""))
        });
        f.debug_struct("EmailSettings")
            .field("smtp_url", &smtp)
            .field("smtp_ca_file", &self.smtp_ca_file)
            .field("from", &self.from)
            .field("play_link_ttl_s", &self.play_link_ttl_s)
            .finish()
    }
}

impl fmt::Debug for AuthSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AuthSettings")
            .field("access_token_ttl_s", &self.access_token_ttl_s)
            .field("sign_in_per_minute", &self.sign_in_per_minute)
            .field("registrations_per_hour", &self.registrations_per_hour)
            .field("chat_per_minute", &self.chat_per_minute)
            .field(
                "account_requests_per_minute",
                &self.account_requests_per_minute,
            )
            .finish_non_exhaustive()
    }
}

const DEFAULT_BIND_ADDR: &str = "127.0.0.1:8080";

/// A limit from the variable `name` (a rate, a number of days, the pool's size): a whole number
/// of at least 1, else `default` when unset.
fn at_least_one(
    var: &impl Fn(&str) -> Option<String>,
    name: &str,
    default: u32,
) -> anyhow::Result<u32> {
    match var(name) {
        None => Ok(default),
        Some(v) => v
            .trim()
            .parse::<u32>()
            .ok()
            .filter(|n| *n >= 1)
            .with_context(|| format!("{name} {v:?} is not a whole number, at least 1")),
    }
}

impl Settings {
    /// Reads the environment: `BIND_ADDR`, `DATABASE_URL`, `DATABASE_POOL_SIZE`, `DATA_DIR`,
    /// `PUBLIC_URL`, `JWT_SECRET`, `SMTP_URL`, `METRICS_TOKEN`, `MAIL_DOMAIN`,
    /// `INBOUND_SMTP_ADDR`, `INBOUND_SECRET`, ... Creates `DATA_DIR` and, when `JWT_SECRET` is
    /// unset, a secret kept in `DATA_DIR/jwt_secret` (mode 0600) so tokens survive restarts.
    ///
    /// # Errors
    /// An unparsable `BIND_ADDR`, `MAIL_DOMAIN` or `INBOUND_SMTP_ADDR`, a rate limit or
    /// `DATABASE_POOL_SIZE` that is not a whole number of at least 1, or a `DATA_DIR` that cannot
    /// be created or written.
    pub fn from_env() -> anyhow::Result<Settings> {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        let bind = var("BIND_ADDR").unwrap_or_else(|| DEFAULT_BIND_ADDR.to_owned());
        let bind_addr: SocketAddr = bind.parse().with_context(|| {
            format!("BIND_ADDR {bind:?} is not an address such as {DEFAULT_BIND_ADDR}")
        })?;
        let data_dir = absolute(Path::new(
            &var("DATA_DIR").unwrap_or_else(|| ".data".to_owned()),
        ))?;
        std::fs::create_dir_all(&data_dir)
            .with_context(|| format!("cannot create DATA_DIR {}", data_dir.display()))?;
        let public_url = var("PUBLIC_URL").unwrap_or_else(|| format!("http://{bind_addr}"));
        let trusted_proxies = var("TRUSTED_PROXIES")
            .unwrap_or_default()
            .split(',')
            .filter(|p| !p.trim().is_empty())
            .map(|p| {
                Cidr::parse(p).with_context(|| {
                    format!("TRUSTED_PROXIES: {p:?} is not an address or a CIDR range")
                })
            })
            .collect::<anyhow::Result<Vec<Cidr>>>()?;
        let cors_allowed_origins = var("CORS_ALLOWED_ORIGINS")
            .unwrap_or_default()
            .split(',')
            .map(|o| o.trim().trim_end_matches('/').to_owned())
            .filter(|o| !o.is_empty())
            .map(|o| {
                if o.starts_with("http://") || o.starts_with("https://") {
                    Ok(o)
                } else {
                    anyhow::bail!("CORS_ALLOWED_ORIGINS: {o:?} is not an origin such as https://client.example")
                }
            })
            .collect::<anyhow::Result<Vec<String>>>()?;
        let inbound = inbound_settings(&var)?;
        // A load driver or an organiser's bot signing many clients in from one address raises it.
        let sign_in_per_minute =
            at_least_one(&var, "SIGN_IN_PER_MINUTE", DEFAULT_SIGN_IN_PER_MINUTE)?;
        let registrations_per_hour = at_least_one(
            &var,
            "REGISTRATIONS_PER_HOUR",
            DEFAULT_REGISTRATIONS_PER_HOUR,
        )?;
        let chat_per_minute = at_least_one(&var, "CHAT_PER_MINUTE", DEFAULT_CHAT_PER_MINUTE)?;
        let account_requests_per_minute = at_least_one(
            &var,
            "ACCOUNT_REQUESTS_PER_MINUTE",
            DEFAULT_ACCOUNT_REQUESTS_PER_MINUTE,
        )?;
        let jwt_secret = match var("JWT_SECRET") {
            Some(secret) => secret.into_bytes(),
            None => stored_secret(&data_dir.join("jwt_secret"))?,
        };
        Ok(Settings {
            http: HttpSettings {
                bind_addr,
                public_url: public_url.trim_end_matches('/').to_owned(),
                trusted_proxies,
                cors_allowed_origins,
                metrics_token: var("METRICS_TOKEN").map(|t| t.trim().to_owned()),
            },
            database: DatabaseSettings {
                url: var("DATABASE_URL"),
                pool_size: pool_size_from(var("DATABASE_POOL_SIZE"))?,
            },
            auth: AuthSettings {
                jwt_secret,
                access_token_ttl_s: 24 * 3600,
                sign_in_per_minute,
                registrations_per_hour,
                chat_per_minute,
                account_requests_per_minute,
            },
            email: EmailSettings {
                smtp_url: var("SMTP_URL"),
                smtp_ca_file: var("SMTP_CA_FILE").map(PathBuf::from),
                from: var("MAIL_FROM").unwrap_or_else(|| DEFAULT_MAIL_FROM.to_owned()),
                play_link_ttl_s: var("PLAY_LINK_TTL_DAYS")
                    .and_then(|d| d.trim().parse::<i64>().ok())
                    .filter(|d| (1..=365).contains(d))
                    .map_or(DEFAULT_PLAY_LINK_TTL_S, |d| d * 24 * 3600),
            },
            inbound,
            games: GameSettings {
                clock_min_seconds: match var("CLOCK_MIN_SECONDS") {
                    None => DEFAULT_CLOCK_MIN_SECONDS,
                    Some(v) => v
                        .trim()
                        .parse::<i64>()
                        .ok()
                        .filter(|n| *n >= 1)
                        .with_context(|| {
                            format!("CLOCK_MIN_SECONDS {v:?} is not a whole number of seconds, at least 1")
                        })?,
                },
                seen_cache_entries: match var("SEEN_CACHE_ENTRIES") {
                    None => DEFAULT_SEEN_CACHE_ENTRIES,
                    Some(v) => v.trim().parse::<usize>().ok().with_context(|| {
                        format!("SEEN_CACHE_ENTRIES {v:?} is not a whole number (0 keeps none)")
                    })?,
                },
            },
            webhooks: WebhookSettings {
                allow_private: match var("WEBHOOKS_ALLOW_PRIVATE").as_deref().map(str::trim) {
                    None | Some("" | "false" | "0") => false,
                    Some("true" | "1") => true,
                    Some(v) => anyhow::bail!("WEBHOOKS_ALLOW_PRIVATE {v:?} is not true or false"),
                },
            },
            events: EventSettings {
                retention_days: at_least_one(
                    &var,
                    "EVENT_RETENTION_DAYS",
                    DEFAULT_EVENT_RETENTION_DAYS,
                )?,
            },
            data_dir,
        })
    }

    /// Settings for a server in a test: port 0, the given database, a fresh random secret.
    pub fn for_tests(database_url: String, data_dir: PathBuf) -> Settings {
        Settings {
            http: HttpSettings {
                bind_addr: SocketAddr::from(([127, 0, 0, 1], 0)),
                public_url: "http://127.0.0.1".to_owned(),
                trusted_proxies: Vec::new(),
                cors_allowed_origins: Vec::new(),
                metrics_token: None,
            },
            database: DatabaseSettings {
                url: Some(database_url),
                pool_size: 8,
            },
            auth: AuthSettings {
                jwt_secret: crate::auth::random_bytes::<32>().to_vec(),
                access_token_ttl_s: 3600,
                sign_in_per_minute: DEFAULT_SIGN_IN_PER_MINUTE,
                registrations_per_hour: DEFAULT_REGISTRATIONS_PER_HOUR,
                chat_per_minute: DEFAULT_CHAT_PER_MINUTE,
                // Tests play whole games through the API as fast as it answers (several thousand
                // reads a minute per seat); those about the limit set a low one.
                account_requests_per_minute: 1_000_000,
            },
            email: EmailSettings {
                smtp_url: None,
                smtp_ca_file: None,
                from: DEFAULT_MAIL_FROM.to_owned(),
                play_link_ttl_s: DEFAULT_PLAY_LINK_TTL_S,
            },
            inbound: InboundSettings::default(),
            // Clocks of a few seconds, so that tests can wait for a timeout.
            games: GameSettings {
                clock_min_seconds: 1,
                seen_cache_entries: DEFAULT_SEEN_CACHE_ENTRIES,
            },
            // Test receivers listen on 127.0.0.1.
            webhooks: WebhookSettings {
                allow_private: true,
            },
            events: EventSettings {
                retention_days: DEFAULT_EVENT_RETENTION_DAYS,
            },
            data_dir,
        }
    }
}

/// `MAIL_DOMAIN`, `INBOUND_SMTP_ADDR` and `INBOUND_SECRET`, checked.
fn inbound_settings(var: &dyn Fn(&str) -> Option<String>) -> anyhow::Result<InboundSettings> {
    let mail_domain = match var("MAIL_DOMAIN") {
        None => None,
        Some(domain) => {
            let domain = domain.trim().trim_start_matches('@').to_ascii_lowercase();
            let fine = domain.contains('.')
                && domain.split('.').all(|label| {
                    !label.is_empty()
                        && label.len() <= 63
                        && !label.starts_with('-')
                        && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
                });
            anyhow::ensure!(
                fine,
                "MAIL_DOMAIN {domain:?} is not a domain name such as play.example.org"
            );
            Some(domain)
        }
    };
    let smtp_addr = match var("INBOUND_SMTP_ADDR") {
        None => None,
        Some(addr) => Some(addr.trim().parse::<SocketAddr>().with_context(|| {
            format!("INBOUND_SMTP_ADDR {addr:?} is not an address such as 127.0.0.1:2525")
        })?),
    };
    let secret = var("INBOUND_SECRET").map(|s| s.trim().to_owned());
    Ok(InboundSettings {
        mail_domain,
        smtp_addr,
        secret,
    })
}

fn absolute(path: &Path) -> anyhow::Result<PathBuf> {
    if path.is_absolute() {
        return Ok(path.to_owned());
    }
    Ok(std::env::current_dir()
        .context("cannot read the current directory")?
        .join(path))
}

/// The secret in `path`, created with OS randomness on first use.
fn stored_secret(path: &Path) -> anyhow::Result<Vec<u8>> {
    if let Ok(text) = std::fs::read_to_string(path) {
        let text = text.trim();
        if text.len() >= 32 {
            return Ok(text.as_bytes().to_vec());
        }
    }
    let secret = hex::encode(crate::auth::random_bytes::<32>());
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options
        .open(path)
        .with_context(|| format!("cannot write the JWT secret to {}", path.display()))?;
    file.write_all(secret.as_bytes())?;
    Ok(secret.into_bytes())
}

#[cfg(test)]
mod email_settings_tests {
    use super::*;

    #[test]
    fn the_smtp_password_never_shows_in_a_settings_dump() {
        let email = EmailSettings {
            smtp_url: Some("smtps://mailer:hunter2@mail.example.org:465".to_owned()),
            smtp_ca_file: None,
            from: DEFAULT_MAIL_FROM.to_owned(),
            play_link_ttl_s: DEFAULT_PLAY_LINK_TTL_S,
        };
        let dump = format!("{email:?}");
        assert!(
            !dump.contains("hunter2") && !dump.contains("mailer"),
            "{dump}"
        );
        assert!(dump.contains("smtps://mail.example.org:465"), "{dump}");
    }

    #[test]
    fn the_inbound_secret_never_shows_and_bad_inbound_settings_are_refused() {
        let inbound = InboundSettings {
            mail_domain: Some("play.example.org".to_owned()),
            smtp_addr: Some("127.0.0.1:2525".parse().unwrap()),
            secret: Some("hunter2".to_owned()),
        };
        let dump = format!("{inbound:?}");
        assert!(!dump.contains("hunter2"), "{dump}");
        assert!(dump.contains("play.example.org"), "{dump}");
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| (*v).to_owned())
            }
        };
        let read = inbound_settings(&env(&[("MAIL_DOMAIN", "@Play.Example.org")])).unwrap();
        assert_eq!(read.mail_domain.as_deref(), Some("play.example.org"));
        assert_eq!((read.smtp_addr, read.secret), (None, None));
        for bad in [
            &[("MAIL_DOMAIN", "localhost")][..],
            &[("MAIL_DOMAIN", "play example.org")][..],
            &[("INBOUND_SMTP_ADDR", "2525")][..],
        ] {
            assert!(inbound_settings(&env(bad)).is_err(), "{bad:?}");
        }
    }
}

#[cfg(test)]
mod limit_tests {
    use super::*;

    #[test]
    fn the_default_pool_is_four_connections_per_core_between_8_and_32() {
        let pools: Vec<u32> = [1, 2, 3, 4, 8, 64].map(pool_for_cores).to_vec();
        assert_eq!(pools, [8, 8, 12, 16, 32, 32]);
    }

    #[test]
    fn a_rate_limit_is_its_default_when_unset_its_value_when_set_and_refused_when_bad() {
        let env = |value: Option<&'static str>| move |_: &str| value.map(str::to_owned);
        assert_eq!(at_least_one(&env(None), "CHAT_PER_MINUTE", 10).unwrap(), 10);
        assert_eq!(
            at_least_one(&env(Some(" 600 ")), "CHAT_PER_MINUTE", 10).unwrap(),
            600
        );
        for bad in ["0", "-3", "ten", "1.5"] {
            let said = at_least_one(&env(Some(bad)), "CHAT_PER_MINUTE", 10)
                .unwrap_err()
                .to_string();
            assert!(
                said.contains("CHAT_PER_MINUTE") && said.contains(bad),
                "{said}"
            );
        }
    }
}
