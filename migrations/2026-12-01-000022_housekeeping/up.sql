-- The ages by which the worker prunes rows that have served their purpose
-- (services/housekeeping.rs), oldest first in batches: without them each batch would scan its table.
-- Building them holds writes to these four tables back for as long as the build takes (seconds
-- for a million rows); on a database that large, create them first with CREATE INDEX
-- CONCURRENTLY under the same names and this migration finds them done.
CREATE INDEX IF NOT EXISTS idempotency_keys_by_age ON idempotency_keys (created_at);
CREATE INDEX IF NOT EXISTS web_sessions_by_age ON web_sessions (created_at);
CREATE INDEX IF NOT EXISTS inbound_mails_by_age ON inbound_mails (received_at);
CREATE INDEX IF NOT EXISTS email_links_by_expiry ON email_links (expires_at);
