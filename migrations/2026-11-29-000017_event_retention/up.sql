-- The retention of account event logs (EVENT_RETENTION_DAYS): the worker deletes the oldest
-- events in small batches, found through this index instead of a scan of every account's log.
-- Events are written in time order, so it grows at its right edge only (cheap to keep up).
CREATE INDEX account_events_by_age ON account_events (at);
