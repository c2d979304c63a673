-- The account event log (design.md section 17): every change that matters to an account gets
-- the account's next event number in the transaction of the change; streams, `?after=N` and
-- webhooks read it. An event holds only what its account may see.
CREATE TABLE account_event_counters (
    user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    last    bigint NOT NULL
);

CREATE TABLE account_events (
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    seq     bigint NOT NULL,
    kind    text NOT NULL CHECK (kind IN ('your_move', 'game_started', 'game_over', 'chat', 'pairing', 'deadline_soon')),
    game_id uuid,
    data    jsonb NOT NULL,
    at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, seq)
);

-- A game's chat, for its players.
CREATE TABLE game_chat (
    game_id uuid NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq     bigint NOT NULL,
    user_id uuid NOT NULL REFERENCES users (id),
    seat    smallint NOT NULL,
    text    text NOT NULL CHECK (length(text) BETWEEN 1 AND 500),
    at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, seq)
);
CREATE INDEX game_chat_by_author ON game_chat (user_id, at DESC);
