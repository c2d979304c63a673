-- Browser sessions of accounts, kept on the server so that signing out ends one for good (the
-- signed cookie names its row), and "sign out everywhere" ends them all.
CREATE TABLE web_sessions (
    id         uuid PRIMARY KEY,
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    ended_at   timestamptz
);
CREATE INDEX web_sessions_user ON web_sessions (user_id) WHERE ended_at IS NULL;
