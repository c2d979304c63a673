//! Deleting rows that have served their purpose, so that no table grows for ever with use:
//! answers kept for retried requests, browser sessions past their cookie's life, replies read
//! from mail, and mailed links long expired. Each goes by age, oldest first, in the bounded
//! batches account events are pruned in ([`super::events::prune_in_batches`]); the worker runs
//! this hourly with those.

use chrono::{DateTime, TimeDelta, Utc};
use diesel::prelude::*;

/// How long the answer to a request with an `Idempotency-Key` is kept for its retries: a client
/// offline over a long weekend can still retry safely. Later, a retried submission is refused
/// as stale by its `expected_version`; a retried creation creates again.
pub const KEEP_IDEMPOTENCY_KEYS: TimeDelta = TimeDelta::days(7);

/// A browser session's row is kept until its cookie has expired (30 days,
/// `web::session::USER_SESSION_TTL_S`; a test holds the two together), and a day more for
/// clocks that differ. Services do not depend on the web layer, hence the number.
pub const KEEP_WEB_SESSIONS: TimeDelta = TimeDelta::days(31);

/// A reply read from mail is remembered by its Message-ID for this long: far beyond any relay's
/// redelivery (days), so that a message delivered twice still plays once, and beyond the day
/// over which answers to one address are counted.
pub const KEEP_INBOUND_MAILS: TimeDelta = TimeDelta::days(30);

/// A sign-in or sign-up link's row is kept this long after the link expired, to trace a mail
/// that went astray; it can never be used again.
pub const KEEP_EXPIRED_LINKS: TimeDelta = TimeDelta::days(30);

/// What is pruned, each with its oldest-first batched delete (`$1` the age bound, `$2` the
/// batch size) and how long its rows are kept.
const PRUNED: [(&str, &str, TimeDelta); 4] = [
    (
        "idempotency keys",
        "DELETE FROM idempotency_keys k USING ( \
           SELECT user_id, key FROM idempotency_keys WHERE created_at < $1 \
           ORDER BY created_at LIMIT $2) old \
         WHERE k.user_id = old.user_id AND k.key = old.key",
        KEEP_IDEMPOTENCY_KEYS,
    ),
    (
        "web sessions",
        "DELETE FROM web_sessions s USING ( \
           SELECT id FROM web_sessions WHERE created_at < $1 ORDER BY created_at LIMIT $2) old \
         WHERE s.id = old.id",
        KEEP_WEB_SESSIONS,
    ),
    (
        "inbound mails",
        "DELETE FROM inbound_mails m USING ( \
           SELECT sender, message_id FROM inbound_mails WHERE received_at < $1 \
           ORDER BY received_at LIMIT $2) old \
         WHERE m.sender = old.sender AND m.message_id = old.message_id",
        KEEP_INBOUND_MAILS,
    ),
    (
        "expired links",
        "DELETE FROM email_links l USING ( \
           SELECT id FROM email_links WHERE expires_at < $1 ORDER BY expires_at LIMIT $2) old \
         WHERE l.id = old.id",
        KEEP_EXPIRED_LINKS,
    ),
];

/// Prunes each table of rows older than it keeps, as of `now`: for each, what, and how many
/// rows went with whether older ones are left for the next call. A failure on one table does
/// not stop the others.
pub fn prune(
    conn: &mut PgConnection,
    now: DateTime<Utc>,
) -> Vec<(&'static str, QueryResult<(usize, bool)>)> {
    PRUNED
        .iter()
        .map(|&(what, delete, keep)| {
            (
                what,
                super::events::prune_in_batches(conn, delete, now - keep),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_row_outlives_its_cookie_by_a_day() {
        assert_eq!(
            KEEP_WEB_SESSIONS.num_seconds(),
            crate::web::session::USER_SESSION_TTL_S + 24 * 3600
        );
    }

    #[test]
    fn links_and_mails_are_kept_past_their_use() {
        // A sign-in link lives an hour; a relay redelivers for days; answers are counted a day.
        assert!(KEEP_EXPIRED_LINKS.num_seconds() > crate::web::session::SIGN_IN_LINK_TTL_S);
        assert!(KEEP_INBOUND_MAILS > TimeDelta::days(7));
    }
}
