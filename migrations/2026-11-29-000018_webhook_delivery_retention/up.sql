-- Webhook deliveries go with the retention of account events (EVENT_RETENTION_DAYS): the worker
-- deletes the oldest finished ones in small batches, found through this index; without it each
-- batch read the whole table (a delivery's key is its webhook and event number, not its age).
-- Deliveries are written in time order, so it grows at its right edge only.
CREATE INDEX webhook_deliveries_by_age ON webhook_deliveries (created_at);
