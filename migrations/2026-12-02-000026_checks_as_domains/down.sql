ALTER TABLE account_events
    ALTER COLUMN kind TYPE text,
    ADD CONSTRAINT account_events_kind_check
        CHECK (kind IN ('your_move', 'game_started', 'game_over', 'chat', 'pairing', 'deadline_soon'));

ALTER TABLE games
    ALTER COLUMN status TYPE text,
    ALTER COLUMN seed TYPE bytea,
    ALTER COLUMN seat_count TYPE smallint,
    ADD CONSTRAINT games_status_check CHECK (status IN ('waiting', 'active', 'finished', 'aborted')),
    ADD CONSTRAINT games_seed_check CHECK (octet_length(seed) = 32),
    ADD CONSTRAINT games_seat_count_check CHECK (seat_count BETWEEN 1 AND 8);

DROP DOMAIN account_event_kind;
DROP DOMAIN game_seat_count;
DROP DOMAIN game_seed;
DROP DOMAIN game_status;
