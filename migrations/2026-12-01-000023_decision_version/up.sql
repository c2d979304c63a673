-- The game's version when each seat's current decision began (with `pending_since`, its time):
-- a page's form read at that version or later is still about the decision before the seat, though
-- others have acted since (a vote taken by several at once, an opponent's out-of-turn preference).
ALTER TABLE game_seats ADD COLUMN IF NOT EXISTS pending_version bigint;
