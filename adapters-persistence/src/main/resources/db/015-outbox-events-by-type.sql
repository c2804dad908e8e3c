--liquibase formatted sql

--changeset agent-wallet:015-outbox-events-by-type
-- The alerts feed reads an organisation's newest events of a few types since an instant.
CREATE INDEX outbox_events_org_type ON outbox_events (org_id, type, created_at DESC);
