-- One row per seat when a game ends: what standings, competitions and ratings read, written in
-- the transaction that ends the game.
CREATE TABLE game_results (
    game_id     uuid NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat        smallint NOT NULL,
    user_id     uuid NOT NULL REFERENCES users (id),
    kind        text NOT NULL,
    -- 1 for a winner; tied seats share a place ("1224" ranking).
    place       smallint NOT NULL CHECK (place >= 1),
    -- The game's own score (Magnate district points, Lancaster prestige points).
    score       bigint,
    -- The game's tie-break figures in order: [{"name": "property_value", "value": 31}, ...].
    tiebreaks   jsonb NOT NULL DEFAULT '[]',
    -- How the game ended for this seat.
    reason      text NOT NULL CHECK (reason IN ('finished', 'resigned', 'timeout')),
    finished_at timestamptz NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX game_results_user ON game_results (user_id, finished_at DESC);
