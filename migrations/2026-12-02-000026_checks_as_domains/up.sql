-- The checks of the columns a move writes, as domains rather than table constraints. PostgreSQL
-- checks every CHECK constraint of a table at each UPDATE, whatever it changes, and builds each
-- constraint's expression anew, from its stored text, for every statement that writes the table
-- (`ExecConstraints`: 3.4 % of the cluster's CPU under `bench_submit`, README). A domain's check
-- is kept parsed and planned for the session and runs only where a value is assigned to it: the
-- seed and the seat count when a game is created, the status when it is written. The values
-- allowed are the same.
--
-- The domains get their checks only once the columns are theirs: a column turned into a domain
-- with a check is copied whole, with its table locked meanwhile, where one turned into a domain
-- without a check keeps its rows and indexes as they are, and adding the check then only reads
-- the rows to validate them.
CREATE DOMAIN game_status AS text;
CREATE DOMAIN game_seed AS bytea;
CREATE DOMAIN game_seat_count AS smallint;
CREATE DOMAIN account_event_kind AS text;

ALTER TABLE games
    DROP CONSTRAINT games_status_check,
    DROP CONSTRAINT games_seed_check,
    DROP CONSTRAINT games_seat_count_check,
    ALTER COLUMN status TYPE game_status,
    ALTER COLUMN seed TYPE game_seed,
    ALTER COLUMN seat_count TYPE game_seat_count;

ALTER TABLE account_events
    DROP CONSTRAINT account_events_kind_check,
    ALTER COLUMN kind TYPE account_event_kind;

ALTER DOMAIN game_status ADD CHECK (VALUE IN ('waiting', 'active', 'finished', 'aborted'));
ALTER DOMAIN game_seed ADD CHECK (octet_length(VALUE) = 32);
ALTER DOMAIN game_seat_count ADD CHECK (VALUE BETWEEN 1 AND 8);
ALTER DOMAIN account_event_kind
    ADD CHECK (VALUE IN ('your_move', 'game_started', 'game_over', 'chat', 'pairing', 'deadline_soon'));
