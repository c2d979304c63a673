DROP INDEX game_seats_user_deadline;
DROP INDEX game_seats_due;
ALTER TABLE game_seats DROP COLUMN dropped, DROP COLUMN timeouts, DROP COLUMN bank_seconds,
    DROP COLUMN pending_since, DROP COLUMN deadline;
ALTER TABLE games DROP COLUMN clock;
