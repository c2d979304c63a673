-- The lobby (waiting games, newest first) and the public archive (finished games, latest first,
-- of every kind or of one) read the first few games of one status in one order. The games table
-- had no index but its key, so the archive read the whole table at every call: on a scratch
-- database of 300,000 games, 98 ms (80 ms for one kind), growing with every game ever played;
-- now 0.01 ms. The lobby's plan usually starts from the open seats, but had only the whole table
-- to fall back on.
--
-- The status leads each index instead of being a partial index's condition: the server's
-- statements are planned once per connection with the status as a parameter, and such a plan
-- cannot use an index that holds only the rows of one value. No column of these indexes changes
-- during play (a game changes status twice in its life), so moves keep their heap-only updates.
CREATE INDEX games_by_status_created ON games (status, created_at DESC, id);
CREATE INDEX games_by_status_finished ON games (status, finished_at DESC, id);
CREATE INDEX games_by_status_kind_finished ON games (status, kind, finished_at DESC, id);
