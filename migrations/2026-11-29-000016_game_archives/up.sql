-- A finished game's record in one row: its actions and its events as two JSON arrays, which
-- PostgreSQL compresses as a whole (TOAST), where one row per action and per event (with its
-- index entry) took about five times the bytes. Played games keep one row per action and event,
-- since the write path appends to them; the record moves here in the transaction that ends it.
CREATE TABLE game_archives (
    game_id uuid PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    -- [[seq, seat, action, created_at], ...] by seq
    actions jsonb NOT NULL,
    -- [[seq, action_seq, audience, event, created_at], ...] by seq
    events jsonb NOT NULL
);
