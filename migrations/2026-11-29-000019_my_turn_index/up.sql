-- "My games, my turn, nearest deadline first" asks for a player's pending seats. The index it
-- had covered only seats with a deadline, a condition the query (`is_pending`) does not imply,
-- so PostgreSQL walked every seat the player ever had and tested each row: a player with 330
-- games read some 400 pages for each ask (`bench_growth`). This one holds the pending seats
-- alone, with or without a clock, by deadline. A seat with a deadline is always pending, so
-- the return from vacation (`is_pending AND deadline IS NOT NULL`) still finds its seats here.
DROP INDEX game_seats_user_deadline;
CREATE INDEX game_seats_user_pending ON game_seats (user_id, deadline) WHERE is_pending;
