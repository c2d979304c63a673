DROP INDEX jobs_failed;
DROP TABLE notification_settings;
