-- Clocks for players (design.md section 14): a time zone, a vacation bank, reminder offsets.
ALTER TABLE users
    -- An IANA zone name: deadlines in mails and pages are shown in it.
    ADD COLUMN time_zone text NOT NULL DEFAULT 'UTC',
    -- The vacation under way, if any, and when it ends by itself (the bank runs out, or the
    -- days asked for).
    ADD COLUMN vacation_since timestamptz,
    ADD COLUMN vacation_until timestamptz,
    -- Take vacation automatically when a deadline would pass (opt-in).
    ADD COLUMN vacation_auto boolean NOT NULL DEFAULT false,
    -- Vacation taken so far; the bank is what membership accrued minus this.
    ADD COLUMN vacation_used_seconds bigint NOT NULL DEFAULT 0;
CREATE INDEX users_vacation_until ON users (vacation_until) WHERE vacation_until IS NOT NULL;

-- Seconds before a deadline at which a reminder is mailed; NULL means the default (24 h, 2 h).
ALTER TABLE notification_settings ADD COLUMN reminders_seconds integer[];

-- One reminder per offset and decision (a decision is a seat pending since a moment), never two.
CREATE TABLE reminders_sent (
    game_id        uuid NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat           smallint NOT NULL,
    pending_since  timestamptz NOT NULL,
    offset_seconds integer NOT NULL,
    sent_at        timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, seat, pending_since, offset_seconds)
);
