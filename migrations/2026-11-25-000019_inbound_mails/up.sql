-- Replies read from mail (moves by email, design.md section 18): one row per sender and
-- Message-ID, claimed in the transaction that plays the move, so that a message delivered twice
-- plays once; and the answers each address got, so that answers are rate-limited (never a loop).
CREATE TABLE inbound_mails (
    sender TEXT NOT NULL,
    message_id TEXT NOT NULL,
    game_id UUID REFERENCES games (id) ON DELETE CASCADE,
    seat SMALLINT,
    -- played | refused | not_allowed
    outcome TEXT NOT NULL DEFAULT 'received',
    -- An answer mail was queued.
    answered BOOLEAN NOT NULL DEFAULT false,
    received_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (sender, message_id)
);

CREATE INDEX inbound_mails_answers ON inbound_mails (sender, received_at) WHERE answered;
