-- Spectators may chat in a game when its creator allows it (design.md section 17). A
-- spectator's message has no seat; a player who mutes the spectators stores seat -1 in
-- chat_mutes (a seat number no player has).
ALTER TABLE games ADD COLUMN spectator_chat boolean NOT NULL DEFAULT false;
ALTER TABLE game_chat ALTER COLUMN seat DROP NOT NULL;
