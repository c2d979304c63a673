//! Webhooks (design.md section 17): an account subscribes URLs to kinds of its events; each
//! event is delivered to each matching subscription by a job, signed with the subscription's
//! secret (`Herald-Signature: sha256=<hex HMAC-SHA256 of the body>`) and named by its event
//! number (`Herald-Event-Id`, the same on every retry, so receivers deduplicate). A failed try
//! is tried again later (5 s, 10 s, 20 s, ... at most an hour apart); a subscription whose
//! deliveries have all failed for 3 days is disabled and its owner mailed.
//!
//! Only http(s) URLs, never to loopback, private, link-local or unspecified addresses unless
//! `WEBHOOKS_ALLOW_PRIVATE=true`: checked at subscription and again before each delivery (an
//! address can change), and redirects are not followed.

use super::events::EventKind;
use crate::domain::UserId;
use crate::error::ApiError;
use crate::jobs::{BackgroundJob, Env, JobError};
use crate::schema::{webhook_deliveries, webhooks};
use chrono::{DateTime, Utc};
use diesel::prelude::*;
use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use sha2::Sha256;
use std::net::{IpAddr, ToSocketAddrs};
use std::time::Duration;
use uuid::Uuid;

/// Subscriptions per account.
pub const MAX_PER_ACCOUNT: i64 = 10;
/// A subscription failing this long is disabled.
pub const DISABLE_AFTER: chrono::TimeDelta = chrono::TimeDelta::days(3);
/// How long one delivery may take.
const TIMEOUT: Duration = Duration::from_secs(10);

/// A subscription as its owner sees it (the secret only once, at creation).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct WebhookResource {
    pub id: Uuid,
    pub url: String,
    pub events: Vec<String>,
    pub created_at: DateTime<Utc>,
    /// Since when every delivery failed.
    pub failing_since: Option<DateTime<Utc>>,
    /// Disabled after 3 days of failures (subscribe again to resume).
    pub disabled_at: Option<DateTime<Utc>>,
    /// The latest deliveries, newest first (one subscription read alone).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deliveries: Option<Vec<DeliveryResource>>,
}

/// A new subscription, with the secret that signs its deliveries.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct CreatedWebhook {
    #[serde(flatten)]
    pub webhook: WebhookResource,
    /// Shown this once: keep it to check `Herald-Signature`.
    pub secret: String,
}

/// One delivery of one event.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct DeliveryResource {
    /// The event number (`Herald-Event-Id`).
    pub event_id: i64,
    /// `pending`, `delivered` or `failed`.
    pub status: String,
    pub attempts: i32,
    /// The receiver's last HTTP status.
    pub last_status: Option<i32>,
    pub last_error: Option<String>,
    pub updated_at: DateTime<Utc>,
}

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = webhooks, check_for_backend(diesel::pg::Pg))]
struct WebhookRow {
    id: Uuid,
    user_id: Uuid,
    url: String,
    events: Vec<String>,
    secret: String,
    created_at: DateTime<Utc>,
    failing_since: Option<DateTime<Utc>>,
    disabled_at: Option<DateTime<Utc>>,
}

impl WebhookRow {
    fn resource(&self) -> WebhookResource {
        WebhookResource {
            id: self.id,
            url: self.url.clone(),
            events: self.events.clone(),
            created_at: self.created_at,
            failing_since: self.failing_since,
            disabled_at: self.disabled_at,
            deliveries: None,
        }
    }
}

/// IPv4 blocks that are not globally reachable (IANA's special-purpose registry): this network,
/// private, shared (carrier NAT), loopback, link-local (cloud metadata), IETF protocol
/// assignments, documentation, 6to4 relays, benchmarking, multicast, reserved and broadcast.
const NOT_GLOBAL_V4: &[([u8; 4], u32)] = &[
    ([0, 0, 0, 0], 8),
    ([10, 0, 0, 0], 8),
    ([100, 64, 0, 0], 10),
    ([127, 0, 0, 0], 8),
    ([169, 254, 0, 0], 16),
    ([172, 16, 0, 0], 12),
    ([192, 0, 0, 0], 24),
    ([192, 0, 2, 0], 24),
    ([192, 88, 99, 0], 24),
    ([192, 168, 0, 0], 16),
    ([198, 18, 0, 0], 15),
    ([198, 51, 100, 0], 24),
    ([203, 0, 113, 0], 24),
    ([224, 0, 0, 0], 4),
    ([240, 0, 0, 0], 4),
];

/// IPv6 blocks that are not globally reachable: the IPv4-compatible block (with `::` and
/// `::1`), local-use NAT64, discard-only, IETF protocol assignments (Teredo among them),
/// documentation (both blocks), segment routing, unique local, site-local, link-local and
/// multicast.
const NOT_GLOBAL_V6: &[([u16; 8], u32)] = &[
    ([0, 0, 0, 0, 0, 0, 0, 0], 96),
    ([0x64, 0xff9b, 1, 0, 0, 0, 0, 0], 48),
    ([0x100, 0, 0, 0, 0, 0, 0, 0], 64),
    ([0x2001, 0, 0, 0, 0, 0, 0, 0], 23),
    ([0x2001, 0xdb8, 0, 0, 0, 0, 0, 0], 32),
    ([0x3fff, 0, 0, 0, 0, 0, 0, 0], 20),
    ([0x5f00, 0, 0, 0, 0, 0, 0, 0], 16),
    ([0xfc00, 0, 0, 0, 0, 0, 0, 0], 7),
    ([0xfec0, 0, 0, 0, 0, 0, 0, 0], 10),
    ([0xfe80, 0, 0, 0, 0, 0, 0, 0], 10),
    ([0xff00, 0, 0, 0, 0, 0, 0, 0], 8),
];

/// Whether the bits of `apart` above the lowest `host` are all zero: the two addresses whose
/// difference it is share their first `32 - host` bits (a /0 shares all).
fn same_prefix(apart: u32, host: u32) -> bool {
    apart.checked_shr(host).unwrap_or(0) == 0
}

/// Whether an address is one a public webhook must not reach: any that is not globally
/// reachable, and an IPv6 address that carries such an IPv4 one (mapped, NAT64, 6to4).
fn private(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(a) => {
            let n = u32::from(a);
            NOT_GLOBAL_V4
                .iter()
                .any(|&(net, len)| same_prefix(n ^ u32::from_be_bytes(net), 32 - len))
        }
        IpAddr::V6(a) => {
            let n = u128::from(a);
            let within = |net: [u16; 8], len: u32| {
                let apart = n ^ u128::from(std::net::Ipv6Addr::from(net));
                apart.checked_shr(128 - len).unwrap_or(0) == 0
            };
            let carried = if let Some(v4) = a.to_ipv4_mapped() {
                Some(v4)
            } else if within([0x64, 0xff9b, 0, 0, 0, 0, 0, 0], 96) {
                // NAT64: the IPv4 address in the last 32 bits.
                Some(std::net::Ipv4Addr::from(n as u32))
            } else if within([0x2002, 0, 0, 0, 0, 0, 0, 0], 16) {
                // 6to4: the IPv4 address right after the prefix.
                Some(std::net::Ipv4Addr::from((n >> 80) as u32))
            } else {
                None
            };
            carried.is_some_and(|v4| private(IpAddr::V4(v4)))
                || NOT_GLOBAL_V6.iter().any(|&(net, len)| within(net, len))
        }
    }
}

/// The URL, checked: http(s), a host, and (unless allowed) no private address.
fn check_url(url: &str, allow_private: bool) -> Result<(), String> {
    if url.len() > 2000 || url.chars().any(|c| c.is_control() || c.is_whitespace()) {
        return Err(
            "url: at most 2000 characters, without spaces or control characters".to_owned(),
        );
    }
    let uri: ureq::http::Uri = url
        .parse()
        .map_err(|_| format!("url: {url:?} is not a URL"))?;
    let tls = match uri.scheme_str() {
        Some("https") => true,
        Some("http") => false,
        _ => return Err("url: only http and https URLs".to_owned()),
    };
    let host = uri.host().filter(|h| !h.is_empty()).ok_or("url: no host")?;
    // A port the URL names must be one a delivery can reach (and the one the address check
    // resolves), not dropped for the scheme's own.
    let port = match port_of(&uri) {
        None => {
            if tls {
                443
            } else {
                80
            }
        }
        Some(given) => match given.parse::<u16>() {
            Ok(port) if port > 0 => port,
            _ => {
                return Err(format!(
                    "url: the port {given:?} is not a port from 1 to 65535"
                ));
            }
        },
    };
    if allow_private {
        return Ok(());
    }
    let host = host.trim_start_matches('[').trim_end_matches(']');
    let addrs: Vec<IpAddr> = (host, port)
        .to_socket_addrs()
        .map_err(|_| format!("url: the host {host} cannot be resolved"))?
        .map(|a| a.ip())
        .collect();
    if addrs.is_empty() || addrs.iter().any(|a| private(*a)) {
        return Err(format!(
            "url: {host} is a loopback or private address; webhooks go to public addresses"
        ));
    }
    Ok(())
}

/// The port a URL names, as written (`http`'s own parser forgets one that is out of range).
fn port_of(uri: &ureq::http::Uri) -> Option<&str> {
    let authority = uri.authority()?.as_str();
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, hp)| hp);
    let after_host = match host_port.rfind(']') {
        Some(end) => host_port.get(end + 1..)?,
        None => host_port,
    };
    // An empty port ("host:") is the scheme's own (RFC 3986 section 3.2.3).
    after_host
        .rsplit_once(':')
        .map(|(_, port)| port)
        .filter(|port| !port.is_empty())
}

/// Subscribes `url` to `events` of `user`.
///
/// # Errors
/// 422 for a bad URL or event kind, 409 beyond [`MAX_PER_ACCOUNT`].
pub fn create(
    conn: &mut PgConnection,
    user: UserId,
    url: &str,
    events: &[String],
    allow_private: bool,
) -> Result<CreatedWebhook, ApiError> {
    check_url(url, allow_private).map_err(ApiError::Validation)?;
    if events.is_empty() {
        return Err(ApiError::Validation(
            "events: at least one kind of event".to_owned(),
        ));
    }
    let mut kinds: Vec<String> = Vec::new();
    for e in events {
        let kind = EventKind::parse(e).ok_or_else(|| {
            ApiError::Validation(format!(
                "events: {e:?} is not a kind of event ({})",
                EventKind::ALL.map(EventKind::as_str).join(", ")
            ))
        })?;
        if kinds.iter().any(|k| k == kind.as_str()) {
            return Err(ApiError::Validation(format!("events: {e} is listed twice")));
        }
        kinds.push(kind.as_str().to_owned());
    }
    conn.transaction(|conn| {
        let count: i64 = webhooks::table
            .filter(webhooks::user_id.eq(user.0))
            .count()
            .get_result(conn)?;
        if count >= MAX_PER_ACCOUNT {
            return Err(ApiError::Conflict(format!(
                "an account has at most {MAX_PER_ACCOUNT} webhooks: delete one first"
            )));
        }
        let secret = format!("whsec_{}", hex::encode(crate::auth::random_bytes::<32>()));
        let row: WebhookRow = diesel::insert_into(webhooks::table)
            .values((
                webhooks::id.eq(Uuid::new_v4()),
                webhooks::user_id.eq(user.0),
                webhooks::url.eq(url),
                webhooks::events.eq(&kinds),
                webhooks::secret.eq(&secret),
            ))
            .returning(WebhookRow::as_returning())
            .get_result(conn)?;
        tracing::info!(user.id = %user, webhook.id = %row.id, "webhook subscribed");
        Ok(CreatedWebhook {
            webhook: row.resource(),
            secret,
        })
    })
}

/// The account's subscriptions.
///
/// # Errors
/// Database failures.
pub fn list(conn: &mut PgConnection, user: UserId) -> Result<Vec<WebhookResource>, ApiError> {
    let rows: Vec<WebhookRow> = webhooks::table
        .filter(webhooks::user_id.eq(user.0))
        .order(webhooks::created_at)
        .select(WebhookRow::as_select())
        .load(conn)?;
    Ok(rows.iter().map(WebhookRow::resource).collect())
}

fn owned(conn: &mut PgConnection, user: UserId, id: Uuid) -> Result<WebhookRow, ApiError> {
    webhooks::table
        .find(id)
        .filter(webhooks::user_id.eq(user.0))
        .select(WebhookRow::as_select())
        .first(conn)
        .optional()?
        .ok_or_else(|| ApiError::NotFound(format!("you have no webhook {id}")))
}

/// One subscription with its latest 50 deliveries.
///
/// # Errors
/// 404 for someone else's or no such subscription.
pub fn get(conn: &mut PgConnection, user: UserId, id: Uuid) -> Result<WebhookResource, ApiError> {
    let row = owned(conn, user, id)?;
    type Line = (i64, String, i32, Option<i32>, Option<String>, DateTime<Utc>);
    let lines: Vec<Line> = webhook_deliveries::table
        .filter(webhook_deliveries::webhook_id.eq(id))
        .order(webhook_deliveries::seq.desc())
        .limit(50)
        .select((
            webhook_deliveries::seq,
            webhook_deliveries::status,
            webhook_deliveries::attempts,
            webhook_deliveries::last_status,
            webhook_deliveries::last_error,
            webhook_deliveries::updated_at,
        ))
        .load(conn)?;
    let mut resource = row.resource();
    resource.deliveries = Some(
        lines
            .into_iter()
            .map(
                |(event_id, status, attempts, last_status, last_error, updated_at)| {
                    DeliveryResource {
                        event_id,
                        status,
                        attempts,
                        last_status,
                        last_error,
                        updated_at,
                    }
                },
            )
            .collect(),
    );
    Ok(resource)
}

/// Deletes a subscription (its pending deliveries stop).
///
/// # Errors
/// 404 for someone else's or no such subscription.
pub fn delete(conn: &mut PgConnection, user: UserId, id: Uuid) -> Result<(), ApiError> {
    let row = owned(conn, user, id)?;
    diesel::delete(webhooks::table.find(row.id)).execute(conn)?;
    Ok(())
}

/// Deletes the deliveries written before `before` (the retention of account events), oldest
/// first, in batches as [`super::events::prune`]: the finished ones (delivered or given up),
/// and the pending ones whose event is gone (pruned: it can no longer be sent). A pending one
/// whose event is still kept stays, to be tried. Returns how many, and whether some are left
/// for another call.
///
/// A delivery is written in the statement of its event, so it is as old as the event; a
/// subscription's log (the latest 50, by event number) loses only lines whose events are gone.
///
/// # Errors
/// Database failures.
pub fn prune_deliveries(
    conn: &mut PgConnection,
    before: DateTime<Utc>,
) -> QueryResult<(usize, bool)> {
    super::events::prune_in_batches(
        conn,
        "DELETE FROM webhook_deliveries d USING ( \
           SELECT webhook_id, seq FROM webhook_deliveries x \
           WHERE created_at < $1 AND (status <> 'pending' OR NOT EXISTS ( \
             SELECT 1 FROM webhooks w JOIN account_events e ON e.user_id = w.user_id \
             WHERE w.id = x.webhook_id AND e.seq = x.seq)) \
           ORDER BY created_at LIMIT $2) old \
         WHERE d.webhook_id = old.webhook_id AND d.seq = old.seq",
        before,
    )
}

/// One try at delivering event `seq` to webhook `webhook_id`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DeliverWebhook {
    pub webhook_id: Uuid,
    pub seq: i64,
}

/// The wait before try `attempts + 1`: 5 s, 10 s, 20 s, ... at most an hour.
fn backoff(attempts: i32) -> chrono::TimeDelta {
    let exp = u32::try_from(attempts.saturating_sub(1))
        .unwrap_or(0)
        .min(12);
    chrono::TimeDelta::seconds((5i64 << exp).min(3600))
}

/// The signature header's value for `body`.
pub fn signature(secret: &str, body: &[u8]) -> String {
    let mut mac = match Hmac::<Sha256>::new_from_slice(secret.as_bytes()) {
        Ok(m) => m,
        // HMAC takes keys of any length.
        Err(_) => return String::new(),
    };
    mac.update(body);
    format!("sha256={}", hex::encode(mac.finalize().into_bytes()))
}

/// Resolves a receiver's host and keeps only public addresses (unless private ones are
/// allowed). The check is made on the very addresses the delivery connects to, so a name that
/// resolved to a public address when the hook was made and to a private one now (DNS rebinding)
/// is refused at delivery.
#[derive(Debug)]
struct PublicOnly {
    allow_private: bool,
    inner: ureq::unversioned::resolver::DefaultResolver,
}

impl ureq::unversioned::resolver::Resolver for PublicOnly {
    fn resolve(
        &self,
        uri: &ureq::http::Uri,
        config: &ureq::config::Config,
        timeout: ureq::unversioned::transport::NextTimeout,
    ) -> Result<ureq::unversioned::resolver::ResolvedSocketAddrs, ureq::Error> {
        let found = self.inner.resolve(uri, config, timeout)?;
        if self.allow_private {
            return Ok(found);
        }
        let mut public = self.empty();
        for addr in found.iter().filter(|a| !private(a.ip())) {
            public.push(*addr);
        }
        if public.is_empty() {
            // Said plainly in the delivery log: the receiver is not on a public address.
            return Err(ureq::Error::BadUri(
                "the receiver's host resolves to loopback or private addresses only".to_owned(),
            ));
        }
        Ok(public)
    }
}

/// Posts `body` to `url`: the receiver's status, or why there is none.
fn post(
    url: &str,
    body: &[u8],
    signature: &str,
    seq: i64,
    allow_private: bool,
) -> Result<u16, String> {
    let config = ureq::Agent::config_builder()
        .timeout_global(Some(TIMEOUT))
        .http_status_as_error(false)
        .max_redirects(0)
        .user_agent("herald-webhooks/1")
        .build();
    let agent = ureq::Agent::with_parts(
        config,
        ureq::unversioned::transport::DefaultConnector::default(),
        PublicOnly {
            allow_private,
            inner: ureq::unversioned::resolver::DefaultResolver::default(),
        },
    );
    agent
        .post(url)
        .header("Content-Type", "application/json")
        .header("Herald-Signature", signature)
        .header("Herald-Event-Id", seq.to_string())
        .send(body)
        .map(|r| r.status().as_u16())
        .map_err(|e| e.to_string())
}

impl BackgroundJob for DeliverWebhook {
    const KIND: &'static str = "webhook.deliver";

    fn run(&self, env: &Env, conn: &mut PgConnection) -> Result<(), JobError> {
        let hook: Option<WebhookRow> = webhooks::table
            .find(self.webhook_id)
            .for_update()
            .select(WebhookRow::as_select())
            .first(conn)
            .optional()?;
        let Some(hook) = hook.filter(|h| h.disabled_at.is_none()) else {
            return Ok(());
        };
        let delivery: Option<(String, i32, DateTime<Utc>)> = webhook_deliveries::table
            .find((self.webhook_id, self.seq))
            .select((
                webhook_deliveries::status,
                webhook_deliveries::attempts,
                webhook_deliveries::created_at,
            ))
            .first(conn)
            .optional()?;
        let Some(("pending", attempts, created)) =
            delivery.as_ref().map(|(s, a, c)| (s.as_str(), *a, *c))
        else {
            return Ok(());
        };
        let Some(event) = super::events::one(conn, hook.user_id, self.seq)? else {
            return Ok(());
        };
        let body = serde_json::to_vec(&event).map_err(|e| JobError::Permanent(e.to_string()))?;
        // The addresses are checked by the resolver of the delivery itself (`PublicOnly`).
        let answer = check_url(&hook.url, true).and_then(|()| {
            post(
                &hook.url,
                &body,
                &signature(&hook.secret, &body),
                self.seq,
                env.webhooks_allow_private,
            )
        });
        let now = Utc::now();
        let attempts = attempts + 1;
        if let Ok(status @ 200..=299) = answer {
            diesel::update(webhook_deliveries::table.find((self.webhook_id, self.seq)))
                .set((
                    webhook_deliveries::status.eq("delivered"),
                    webhook_deliveries::attempts.eq(attempts),
                    webhook_deliveries::last_status.eq(Some(i32::from(status))),
                    webhook_deliveries::last_error.eq(None::<String>),
                    webhook_deliveries::updated_at.eq(now),
                ))
                .execute(conn)?;
            diesel::update(webhooks::table.find(hook.id))
                .set(webhooks::failing_since.eq(None::<DateTime<Utc>>))
                .execute(conn)?;
            return Ok(());
        }
        let (status, error) = match answer {
            Ok(s) => (Some(i32::from(s)), format!("the receiver answered {s}")),
            Err(e) => (None, e),
        };
        diesel::update(webhook_deliveries::table.find((self.webhook_id, self.seq)))
            .set((
                webhook_deliveries::attempts.eq(attempts),
                webhook_deliveries::last_status.eq(status),
                webhook_deliveries::last_error.eq(Some(&error)),
                webhook_deliveries::updated_at.eq(now),
            ))
            .execute(conn)?;
        let since = hook.failing_since.unwrap_or(now);
        if now - since >= DISABLE_AFTER {
            diesel::update(webhooks::table.find(hook.id))
                .set(webhooks::disabled_at.eq(Some(now)))
                .execute(conn)?;
            diesel::update(
                webhook_deliveries::table
                    .filter(webhook_deliveries::webhook_id.eq(hook.id))
                    .filter(webhook_deliveries::status.eq("pending")),
            )
            .set(webhook_deliveries::status.eq("failed"))
            .execute(conn)?;
            crate::jobs::enqueue(
                conn,
                &[crate::email::jobs::WebhookDisabledMail {
                    webhook_id: hook.id,
                    message_id: crate::email::jobs::message_id(),
                }
                .job()],
            )?;
            tracing::warn!(webhook.id = %hook.id, "webhook disabled after 3 days of failures");
            return Ok(());
        }
        if hook.failing_since.is_none() {
            diesel::update(webhooks::table.find(hook.id))
                .set(webhooks::failing_since.eq(Some(now)))
                .execute(conn)?;
        }
        if now - created >= DISABLE_AFTER {
            // A receiver that takes the other events but never this one (it answers 400 to
            // it, say) would keep the hook alive and this try going for ever: after as long as
            // a failing hook is given, this one delivery stops, marked failed in the log.
            diesel::update(webhook_deliveries::table.find((self.webhook_id, self.seq)))
                .set(webhook_deliveries::status.eq("failed"))
                .execute(conn)?;
            tracing::warn!(webhook.id = %hook.id, event = self.seq, attempts, "webhook delivery given up after 3 days");
            return Ok(());
        }
        crate::jobs::enqueue_at(conn, &self.job(), now + backoff(attempts))?;
        tracing::info!(webhook.id = %hook.id, event = self.seq, attempts, error = %error, "webhook delivery failed; tried again later");
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_addresses_are_refused_unless_allowed() {
        for url in [
            "http://127.0.0.1:9/x",
            "http://10.1.2.3/",
            "http://[::1]/",
            "http://192.168.0.1/",
            "http://169.254.169.254/latest/meta-data",
            "http://0.0.0.0/",
            // Not globally reachable, and IPv6 spellings that carry a private IPv4 address.
            "http://0.1.2.3/",
            "http://198.18.0.1/",
            "http://192.0.0.1/",
            "http://240.0.0.1/",
            "http://255.255.255.255/",
            "http://[::127.0.0.1]/",
            "http://[::ffff:10.0.0.1]/",
            "http://[64:ff9b::7f00:1]/",
            "http://[64:ff9b::a9fe:a9fe]/",
            "http://[64:ff9b:1::1]/",
            "http://[2002:a9fe:a9fe::1]/",
            "http://[fec0::1]/",
            "http://[fd00::1]/",
            "http://[2001:db8::1]/",
        ] {
            assert!(check_url(url, false).is_err(), "{url}");
            assert!(check_url(url, true).is_ok(), "{url}");
        }
        for url in [
            "ftp://example.org/",
            "example.org",
            "http:///x",
            "http://a b/",
            "http://93.184.215.14:99999/x",
            "http://93.184.215.14:65536/",
            "http://93.184.215.14:0/",
        ] {
            assert!(check_url(url, true).is_err(), "{url}");
        }
        let err = check_url("http://93.184.215.14:99999/x", false).unwrap_err();
        assert!(err.contains("99999") && err.contains("port"), "{err}");
        assert!(check_url("http://example.org:8443/hook", true).is_ok());
        assert!(check_url("http://example.org:/hook", true).is_ok());
    }

    #[test]
    fn public_addresses_pass_in_every_spelling() {
        for ip in [
            "93.184.215.14",
            "8.8.8.8",
            "2606:4700::1111",
            "::ffff:8.8.8.8",
            "64:ff9b::808:808",
            "2002:808:808::1",
        ] {
            let ip: IpAddr = ip.parse().unwrap();
            assert!(!private(ip), "{ip}");
        }
    }

    #[test]
    fn a_delivery_never_connects_to_a_private_address_unless_allowed() {
        // Checked on the addresses the delivery resolves now, not those seen at subscription.
        let refused = post("http://127.0.0.1:9/hook", b"{}", "sha256=0", 1, false);
        assert!(
            refused
                .as_ref()
                .is_err_and(|e| e.contains("loopback or private")),
            "{refused:?}"
        );
        // Allowed, it tries to connect (nothing listens on the discard port).
        let tried = post("http://127.0.0.1:9/hook", b"{}", "sha256=0", 1, true);
        assert!(
            tried.as_ref().is_err_and(|e| !e.contains("private")),
            "{tried:?}"
        );
    }

    #[test]
    fn the_signature_is_the_hex_hmac_sha256_of_the_body() {
        // RFC 4231 test case 2.
        assert_eq!(
            signature("Jefe", b"what do ya want for nothing?"),
            "sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }

    #[test]
    fn retries_back_off_to_an_hour() {
        assert_eq!(backoff(1).num_seconds(), 5);
        assert_eq!(backoff(2).num_seconds(), 10);
        assert_eq!(backoff(5).num_seconds(), 80);
        assert_eq!(backoff(40).num_seconds(), 3600);
    }
}
