ALTER TABLE game_seats DROP COLUMN IF EXISTS pending_version;
