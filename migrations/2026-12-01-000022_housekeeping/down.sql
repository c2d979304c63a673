DROP INDEX IF EXISTS email_links_by_expiry;
DROP INDEX IF EXISTS inbound_mails_by_age;
DROP INDEX IF EXISTS web_sessions_by_age;
DROP INDEX IF EXISTS idempotency_keys_by_age;
