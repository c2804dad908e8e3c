--liquibase formatted sql

--changeset agent-wallet:011-request-keys
-- Idempotency keys of the creating requests other than payments (RequestKeyStore). A key is inserted
-- first in the transaction that makes what its request makes, and names it (subject) before commit.
CREATE TABLE request_keys (
    org_id      text        NOT NULL REFERENCES organisations (id),
    key         text        NOT NULL,
    fingerprint text        NOT NULL,
    subject     text,
    created_at  timestamptz NOT NULL,
    PRIMARY KEY (org_id, key)
);
CREATE INDEX request_keys_age ON request_keys (created_at);
