-- A player mutes another seat's chat in one game: its messages are hidden from them and raise
-- no event for them.
CREATE TABLE chat_mutes (
    game_id uuid NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    seat    smallint NOT NULL,
    PRIMARY KEY (game_id, user_id, seat)
);
