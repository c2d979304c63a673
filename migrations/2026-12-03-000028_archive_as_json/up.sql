-- A finished game's record is read only whole, by the server (no statement looks inside it), so it
-- is kept as JSON text (`json`) rather than `jsonb`: the text compresses better (a finished Magnate
-- game's archive row 11.9 KB against 16.8 KB, both with PostgreSQL's default compression) and
-- building it is cheaper (3.8-4.4 ms a game against 6.4-6.8 ms: `json_agg` writes text where
-- `jsonb_agg` builds and sorts a binary tree). README, History → Footprint. The change rewrites the
-- table under an exclusive lock; readers of finished games wait for it.
ALTER TABLE game_archives
    ALTER COLUMN actions TYPE json USING actions::json,
    ALTER COLUMN events TYPE json USING events::json;
