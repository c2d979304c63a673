DROP TABLE game_refusals;
ALTER TABLE game_seats DROP COLUMN closed;
