-- A game's state is read and written only whole, by the server (no statement looks inside it), so
-- it is kept as the JSON text the engine wrote (`json`) rather than parsed into `jsonb` at every
-- move: PostgreSQL's parse of it into `jsonb` and the compression of the larger `jsonb` row were
-- some 3 % of PostgreSQL's CPU on the submission path (README, History → Submission path).
ALTER TABLE games ALTER COLUMN state TYPE json USING state::json;
