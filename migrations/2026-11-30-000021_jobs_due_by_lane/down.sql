DROP INDEX jobs_due_but_webhooks;
DROP INDEX jobs_due_by_kind;
