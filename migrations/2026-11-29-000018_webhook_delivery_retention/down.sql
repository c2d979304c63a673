DROP INDEX webhook_deliveries_by_age;
