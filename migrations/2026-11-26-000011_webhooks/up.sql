-- Webhooks (design.md section 17): an account's subscriptions and the delivery of each of its
-- events to each, tried with back-off until delivered; a subscription failing for 3 days is
-- disabled and its owner mailed.
CREATE TABLE webhooks (
    id            uuid PRIMARY KEY,
    user_id       uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    url           text NOT NULL,
    events        text[] NOT NULL,
    -- Signs the deliveries (HMAC-SHA256); shown once, at creation.
    secret        text NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    -- Since when every delivery failed (NULL while they succeed).
    failing_since timestamptz,
    disabled_at   timestamptz
);
CREATE INDEX webhooks_by_user ON webhooks (user_id);

CREATE TABLE webhook_deliveries (
    webhook_id   uuid NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    -- The account's event number (`Herald-Event-Id`).
    seq          bigint NOT NULL,
    status       text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts     integer NOT NULL DEFAULT 0,
    last_status  integer,
    last_error   text,
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (webhook_id, seq)
);
