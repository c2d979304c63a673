-- Competitions (design.md section 15): the organiser's settings, the entrants, the games and byes
-- of every round, and the director's audit log. Pairing itself is pure code (src/competitions/);
-- these rows are what it reads.
CREATE TABLE competitions (
    id              uuid PRIMARY KEY,
    name            text NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
    kind            text NOT NULL,
    -- The games' options and clock as resolved at creation (every round's games use them).
    options         jsonb NOT NULL,
    clock           jsonb NOT NULL,
    rated           boolean NOT NULL DEFAULT false,
    -- {"type": "swiss", "rounds": 5}, ... (api.md).
    format          jsonb NOT NULL,
    entry           text NOT NULL CHECK (entry IN ('invite', 'open')),
    max_entrants    integer,
    min_rating      integer,
    tie_breaks      jsonb NOT NULL DEFAULT '[]',
    -- {"bye_points": 1, "place_points": [...]} (src/competitions/standings.rs `Scoring`).
    scoring         jsonb NOT NULL,
    -- How a withdrawal counts: before half of one's games the results are annulled, after it
    -- the remaining games are forfeited (design.md section 15).
    withdrawal      text NOT NULL DEFAULT 'annul_before_half',
    vacation_allowed boolean NOT NULL DEFAULT true,
    status          text NOT NULL CHECK (status IN ('registering', 'running', 'paused', 'finished')),
    organiser_id    uuid NOT NULL REFERENCES users (id),
    -- The last round paired (0 before the start).
    current_round   integer NOT NULL DEFAULT 0,
    season          integer NOT NULL DEFAULT 1,
    -- The standings frozen by the director's `finalise`.
    final_standings jsonb,
    finalised_at    timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now(),
    started_at      timestamptz,
    finished_at     timestamptz
);
CREATE INDEX competitions_listing ON competitions (status, created_at DESC);

-- Addresses invited to enter (entry "invite"); an account with that address may enter.
CREATE TABLE competition_invitations (
    competition_id uuid NOT NULL REFERENCES competitions (id) ON DELETE CASCADE,
    email          text NOT NULL,
    created_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (competition_id, email)
);

CREATE TABLE competition_entrants (
    competition_id uuid NOT NULL REFERENCES competitions (id) ON DELETE CASCADE,
    -- The entry order (1, 2, ...): the pure module's `EntrantId`.
    number         integer NOT NULL,
    user_id        uuid NOT NULL REFERENCES users (id),
    status         text NOT NULL DEFAULT 'entered' CHECK (status IN ('entered', 'withdrawn', 'disqualified')),
    -- The rating at the start (seeding and the `rating` tie-break).
    rating         integer,
    pairing_number integer,
    -- Leagues: the division of the current season (1 = top).
    division       integer,
    -- A withdrawal before half of one's games: every game of the entrant counts for nobody.
    annulled       boolean NOT NULL DEFAULT false,
    entered_at     timestamptz NOT NULL DEFAULT now(),
    left_at        timestamptz,
    PRIMARY KEY (competition_id, number),
    UNIQUE (competition_id, user_id)
);

-- One row per game of a round (a knockout match of several games has several rows at one table).
CREATE TABLE competition_games (
    game_id        uuid PRIMARY KEY REFERENCES games (id),
    competition_id uuid NOT NULL REFERENCES competitions (id) ON DELETE CASCADE,
    season         integer NOT NULL DEFAULT 1,
    round          integer NOT NULL,
    table_no       integer NOT NULL,
    division       integer,
    -- Entrant numbers by seat.
    seats          integer[] NOT NULL,
    -- src/competitions `GameResult`: {"type": "pending"} until the game ends.
    result         jsonb NOT NULL DEFAULT '{"type": "pending"}',
    -- Set by the director: the game's own end no longer changes it.
    corrected      boolean NOT NULL DEFAULT false
);
CREATE INDEX competition_games_round ON competition_games (competition_id, season, round, table_no);

CREATE TABLE competition_byes (
    competition_id uuid NOT NULL REFERENCES competitions (id) ON DELETE CASCADE,
    season         integer NOT NULL DEFAULT 1,
    round          integer NOT NULL,
    entrant        integer NOT NULL,
    kind           text NOT NULL CHECK (kind IN ('pairing_allocated', 'full', 'half', 'zero')),
    -- A knockout bye's place in the bracket.
    table_no       integer NOT NULL DEFAULT 0,
    PRIMARY KEY (competition_id, season, round, entrant)
);

CREATE TABLE competition_audit (
    id             bigserial PRIMARY KEY,
    competition_id uuid NOT NULL REFERENCES competitions (id) ON DELETE CASCADE,
    actor_id       uuid NOT NULL REFERENCES users (id),
    action         text NOT NULL,
    detail         jsonb NOT NULL DEFAULT '{}',
    reason         text NOT NULL,
    at             timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX competition_audit_by_competition ON competition_audit (competition_id, id);
