DROP INDEX account_events_by_age;
