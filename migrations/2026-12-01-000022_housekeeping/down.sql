DROP INDEX email_links_by_expiry;
DROP INDEX inbound_mails_by_age;
DROP INDEX web_sessions_by_age;
DROP INDEX idempotency_keys_by_age;
