DROP TABLE reminders_sent;
ALTER TABLE notification_settings DROP COLUMN reminders_seconds;
DROP INDEX users_vacation_until;
ALTER TABLE users DROP COLUMN vacation_used_seconds, DROP COLUMN vacation_auto,
    DROP COLUMN vacation_until, DROP COLUMN vacation_since, DROP COLUMN time_zone;
