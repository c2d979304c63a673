-- Clocks (design.md section 14). Games created before clocks existed keep no clock.
ALTER TABLE games ADD COLUMN clock jsonb NOT NULL DEFAULT '{"type": "none"}';

ALTER TABLE game_seats
    -- When the seat's current decision times out; NULL when not pending or without a clock.
    ADD COLUMN deadline timestamptz,
    -- When the seat last became pending (what a Fischer bank is charged from).
    ADD COLUMN pending_since timestamptz,
    -- The Fischer bank; NULL for other clocks.
    ADD COLUMN bank_seconds bigint,
    -- Consecutive timeouts; a decision of its own resets it.
    ADD COLUMN timeouts integer NOT NULL DEFAULT 0,
    -- Dropped after drop_after consecutive timeouts: decided by default at once, ranked last.
    ADD COLUMN dropped boolean NOT NULL DEFAULT false;

-- "What is due now" for the worker, and "my games by nearest deadline".
CREATE INDEX game_seats_due ON game_seats (deadline) WHERE deadline IS NOT NULL;
CREATE INDEX game_seats_user_deadline ON game_seats (user_id, deadline) WHERE deadline IS NOT NULL;
