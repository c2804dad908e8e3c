--liquibase formatted sql

--changeset agent-wallet:018-rate-buckets
-- Organisations' token buckets, shared by every server process (PERSISTENCE.md, "Rate limits").
-- A take is one upsert that refills by the taking process's clock and removes as many tokens as it
-- asks for, or what is left; taken says how many the last one found. Unlogged: a take commits
-- without waiting for the disk, and after a crash of the database the buckets start again full,
-- which can only let one burst through.
CREATE UNLOGGED TABLE rate_buckets (
    bucket             text    PRIMARY KEY,
    micro_tokens       bigint  NOT NULL CHECK (micro_tokens >= 0),
    refilled_at_micros bigint  NOT NULL,
    taken              integer NOT NULL CHECK (taken >= 0)
);
