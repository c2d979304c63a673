-- Each worker lane takes its next job by index, however many jobs of the other lanes are due.
-- With `jobs_due` alone (by run_at), the webhook lane's poll walked every due mail ahead of the
-- first due webhook delivery, and the mail lane every due delivery ahead of its first mail: a
-- backlog in one lane made every poll of the other read it all (20,000 due mails: 303 buffers
-- a poll against 4; the benchmarks' archiver, a lane of one kind, walked their unsent mails at
-- 12,000-25,000 buffers a poll). The lanes' conditions are written into the polls as literals
-- (`jobs::Lane`), so these partial indexes match them.
CREATE INDEX jobs_due_by_kind ON jobs (kind, run_at, id) WHERE status = 'queued';
CREATE INDEX jobs_due_but_webhooks ON jobs (run_at, id)
    WHERE status = 'queued' AND kind <> 'webhook.deliver';
