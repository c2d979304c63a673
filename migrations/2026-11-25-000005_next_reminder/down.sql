DROP INDEX game_seats_reminder_due;
ALTER TABLE game_seats DROP COLUMN next_reminder_at;
