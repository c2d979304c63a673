-- The PostgreSQL job queue (emails and other deferred work), taken with FOR UPDATE SKIP LOCKED.
CREATE TABLE jobs (
    id         bigserial PRIMARY KEY,
    kind       text NOT NULL,
    payload    jsonb NOT NULL,
    status     text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'done', 'failed')),
    attempts   integer NOT NULL DEFAULT 0,
    run_at     timestamptz NOT NULL DEFAULT now(),
    last_error text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX jobs_due ON jobs (run_at) WHERE status = 'queued';
