ALTER TABLE game_archives
    ALTER COLUMN actions TYPE jsonb USING actions::jsonb,
    ALTER COLUMN events TYPE jsonb USING events::jsonb;
