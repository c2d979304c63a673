-- A seat whose invitation was declined (or withdrawn) is closed: neither taken, invited nor open,
-- until a new invitation fills it (design.md section 19).
ALTER TABLE game_seats ADD COLUMN closed BOOLEAN NOT NULL DEFAULT false;

-- Addresses that may no longer join a game: they declined, or their invitation was withdrawn.
CREATE TABLE game_refusals (
    game_id UUID NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    email TEXT NOT NULL,
    reason TEXT NOT NULL CHECK (reason IN ('declined', 'withdrawn')),
    at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, email)
);
