-- Accounts and the secrets that stand for them. Secrets are stored only as SHA-256 hashes.
CREATE TABLE users (
    id            uuid PRIMARY KEY,
    -- Normalised (trimmed, lower-case) so one address is one account.
    email         text NOT NULL UNIQUE,
    display_name  text NOT NULL,
    locale        text NOT NULL CHECK (locale IN ('en', 'es', 'it', 'fr')),
    -- NULL for an account that only ever signs in by emailed link.
    password_hash text,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_tokens (
    id           uuid PRIMARY KEY,
    user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name         text NOT NULL,
    token_hash   bytea NOT NULL UNIQUE,
    scopes       text[] NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    last_used_at timestamptz,
    revoked_at   timestamptz
);
CREATE INDEX api_tokens_user_id ON api_tokens (user_id);

-- Sign-in links and "your move" links sent by email.
CREATE TABLE email_links (
    id         uuid PRIMARY KEY,
    token_hash bytea NOT NULL UNIQUE,
    user_id    uuid REFERENCES users (id) ON DELETE CASCADE,
    email      text NOT NULL,
    purpose    text NOT NULL,
    game_id    uuid,
    seat       smallint,
    expires_at timestamptz NOT NULL,
    used_at    timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
);
