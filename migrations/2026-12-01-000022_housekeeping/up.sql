-- The ages by which the worker prunes rows that have served their purpose
-- (services/housekeeping.rs), oldest first in batches: without them each batch would scan its table.
CREATE INDEX idempotency_keys_by_age ON idempotency_keys (created_at);
CREATE INDEX web_sessions_by_age ON web_sessions (created_at);
CREATE INDEX inbound_mails_by_age ON inbound_mails (received_at);
CREATE INDEX email_links_by_expiry ON email_links (expires_at);
