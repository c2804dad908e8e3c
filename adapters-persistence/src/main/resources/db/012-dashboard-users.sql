--liquibase formatted sql

--changeset agent-wallet:012-dashboard-users
-- People who sign in to the dashboard (UserStore): an email is one user's across the service, since
-- sign-in names no organisation. Only the password's hash is kept.
CREATE TABLE dashboard_users (
    id                  text        PRIMARY KEY,
    org_id              text        NOT NULL REFERENCES organisations (id),
    email               text        NOT NULL UNIQUE CHECK (email = lower(email) AND length(email) <= 254),
    role                text        NOT NULL CHECK (role IN ('viewer', 'operator', 'admin', 'owner')),
    password_hash       text        NOT NULL,
    failed_sign_ins     integer     NOT NULL CHECK (failed_sign_ins >= 0),
    locked_until        timestamptz,
    password_changed_at timestamptz NOT NULL,
    created_at          timestamptz NOT NULL
);
CREATE INDEX dashboard_users_org ON dashboard_users (org_id, created_at);

-- Signed-in sessions (DashboardSessionStore), kept here so that every server process knows them:
-- the SHA-256 of the token, never the token. A removed user's sessions go with it.
CREATE TABLE dashboard_sessions (
    token_hash  text        PRIMARY KEY,
    user_id     text        NOT NULL REFERENCES dashboard_users (id) ON DELETE CASCADE,
    org_id      text        NOT NULL REFERENCES organisations (id),
    csrf_token  text        NOT NULL,
    created_at  timestamptz NOT NULL,
    expires_at  timestamptz NOT NULL
);
CREATE INDEX dashboard_sessions_user ON dashboard_sessions (user_id);
CREATE INDEX dashboard_sessions_expiry ON dashboard_sessions (expires_at);
