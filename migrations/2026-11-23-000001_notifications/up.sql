-- Mail preferences per account (no row means `instant`) and the secret of its one-click
-- unsubscribe link (RFC 8058), which can only ever turn turn mails off.
CREATE TABLE notification_settings (
    user_id           uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    mode              text NOT NULL DEFAULT 'instant'
                      CHECK (mode IN ('instant', 'daily_digest', 'off')),
    unsubscribe_token text NOT NULL UNIQUE,
    -- When the next daily digest is due (daily_digest only).
    next_digest_at    timestamptz,
    updated_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX notification_settings_digest_due ON notification_settings (next_digest_at)
    WHERE mode = 'daily_digest';

-- Operators look for failed jobs; the worker for due ones (jobs_due).
CREATE INDEX jobs_failed ON jobs (updated_at) WHERE status = 'failed';
