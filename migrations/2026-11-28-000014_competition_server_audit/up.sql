-- The server itself writes to a competition's audit log when it ends an event early (nobody
-- left to pair or seat): such a line has no actor.
ALTER TABLE competition_audit ALTER COLUMN actor_id DROP NOT NULL;
