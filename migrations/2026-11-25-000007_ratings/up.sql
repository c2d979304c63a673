-- Ratings (design.md section 16): whether a game counts, one rating per account and kind, and
-- the change each rated game made. Written in the transaction that ends a rated game.
ALTER TABLE games ADD COLUMN rated boolean NOT NULL DEFAULT false;

CREATE TABLE ratings (
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind       text NOT NULL,
    -- The shown rating and deviation: Glicko-2's own for two-player kinds; for Weng-Lin kinds
    -- 1500 + 40 * (mu - 3 sigma) rounded to one decimal, and 40 * sigma.
    rating     double precision NOT NULL,
    deviation  double precision NOT NULL,
    -- Glicko-2 only.
    volatility double precision,
    -- Weng-Lin only.
    mu         double precision,
    sigma      double precision,
    games      integer NOT NULL DEFAULT 0 CHECK (games >= 0),
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, kind)
);
CREATE INDEX ratings_leaderboard ON ratings (kind, rating DESC);

CREATE TABLE rating_history (
    -- The order the changes were applied in: assigned under the row locks of the players'
    -- ratings, so two games sharing a player are numbered in the order they were counted (the
    -- rebuild replays this order).
    seq               bigint GENERATED ALWAYS AS IDENTITY,
    user_id           uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind              text NOT NULL,
    game_id           uuid NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    at                timestamptz NOT NULL,
    rating_before     double precision NOT NULL,
    deviation_before  double precision NOT NULL,
    volatility_before double precision,
    mu_before         double precision,
    sigma_before      double precision,
    rating_after      double precision NOT NULL,
    deviation_after   double precision NOT NULL,
    volatility_after  double precision,
    mu_after          double precision,
    sigma_after       double precision,
    -- A game counts once per player, whatever retries or races happen.
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX rating_history_player ON rating_history (user_id, kind, seq);
