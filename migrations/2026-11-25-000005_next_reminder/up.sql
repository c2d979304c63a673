-- When the seat's next reminder is due, computed with its deadline from the player's offsets, so
-- that the worker finds due reminders with one index range scan however many games are active.
ALTER TABLE game_seats ADD COLUMN next_reminder_at timestamptz;
CREATE INDEX game_seats_reminder_due ON game_seats (next_reminder_at)
    WHERE next_reminder_at IS NOT NULL;
