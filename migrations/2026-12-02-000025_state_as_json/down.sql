ALTER TABLE games ALTER COLUMN state TYPE jsonb USING state::jsonb;
