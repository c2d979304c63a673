-- Games, their seats, and the append-only record of what was played.
CREATE TABLE games (
    id              uuid PRIMARY KEY,
    kind            text NOT NULL,
    rules_version   integer NOT NULL,
    -- The resolved rules: every option with its value.
    options         jsonb NOT NULL,
    -- The server's secret seed (32 bytes), revealed when the game is over.
    seed            bytea NOT NULL CHECK (octet_length(seed) = 32),
    -- Lower-case hex SHA-256 of the seed, published at creation.
    seed_commitment text NOT NULL,
    -- NULL until the game starts.
    state           jsonb,
    version         bigint NOT NULL DEFAULT 0,
    -- Actions stored so far: the next action is number action_count + 1.
    action_count    bigint NOT NULL DEFAULT 0,
    -- Events stored so far: the next event is number event_count + 1.
    event_count     bigint NOT NULL DEFAULT 0,
    status          text NOT NULL CHECK (status IN ('waiting', 'active', 'finished', 'aborted')),
    outcome         jsonb,
    seat_count      smallint NOT NULL CHECK (seat_count BETWEEN 1 AND 8),
    created_by      uuid NOT NULL REFERENCES users (id),
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    finished_at     timestamptz
);

CREATE TABLE game_seats (
    game_id       uuid NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat          smallint NOT NULL,
    -- NULL while the seat is open or the invitation not yet accepted.
    user_id       uuid REFERENCES users (id),
    -- The address invited to this seat; NULL for an open seat.
    invited_email text,
    -- Whether the game waits for this seat (denormalised from the state for "your move" lists).
    is_pending    boolean NOT NULL DEFAULT false,
    -- What the player mixed into the seed when joining (public).
    entropy       text,
    joined_at     timestamptz,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, user_id)
);
CREATE INDEX game_seats_user_id ON game_seats (user_id);
CREATE INDEX game_seats_invited_email ON game_seats (invited_email) WHERE user_id IS NULL;

CREATE TABLE game_actions (
    game_id    uuid NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    -- Action number: 1 for the first action of the game.
    seq        bigint NOT NULL,
    seat       smallint NOT NULL,
    action     jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE game_events (
    game_id    uuid NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq        bigint NOT NULL,
    -- The action that caused the event; 0 for the setup.
    action_seq bigint NOT NULL,
    -- Who may see it: {"audience": "everyone" | "only" | "all_but", "seats": [...]}.
    audience   jsonb NOT NULL,
    event      jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, seq)
);

-- Answers to retried requests: the same key and body get the stored answer again.
CREATE TABLE idempotency_keys (
    user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    key          text NOT NULL,
    request_hash bytea NOT NULL,
    status       smallint NOT NULL,
    body         jsonb NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, key)
);
