DELETE FROM competition_audit WHERE actor_id IS NULL;
ALTER TABLE competition_audit ALTER COLUMN actor_id SET NOT NULL;
