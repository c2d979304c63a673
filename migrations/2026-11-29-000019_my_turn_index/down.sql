DROP INDEX game_seats_user_pending;
CREATE INDEX game_seats_user_deadline ON game_seats (user_id, deadline) WHERE deadline IS NOT NULL;
