--liquibase formatted sql

--changeset agent-wallet:013-api-key-last-use
-- When each API key last authenticated a request, written in batches by the clockwork; null until then.
ALTER TABLE api_keys ADD COLUMN last_used_at timestamptz;
