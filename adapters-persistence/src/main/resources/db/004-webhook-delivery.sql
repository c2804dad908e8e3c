--liquibase formatted sql

--changeset agent-wallet:004-webhook-fan-out
-- Each event is fanned out once into deliveries; the partial index keeps finding the new ones cheap.
ALTER TABLE outbox_events ADD COLUMN fanned_out boolean NOT NULL DEFAULT false;
CREATE INDEX outbox_events_unfanned ON outbox_events (seq) WHERE NOT fanned_out;
-- Per-wallet ordering asks, for each due delivery, whether its webhook has an earlier one undelivered.
CREATE INDEX webhook_deliveries_open ON webhook_deliveries (webhook_id) WHERE status <> 'delivered';
CREATE INDEX webhook_deliveries_exhausted ON webhook_deliveries (webhook_id) WHERE status = 'exhausted';
