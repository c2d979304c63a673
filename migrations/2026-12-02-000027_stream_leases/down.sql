ALTER TABLE account_event_counters DROP COLUMN streaming_until;
