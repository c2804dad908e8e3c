--liquibase formatted sql

--changeset agent-wallet:005-delivery-order
-- A delivery carries its event's wallet and sequence number, so that the claim's per-wallet
-- ordering check ("has this webhook an earlier undelivered event of the same wallet?") is one
-- probe of one index, instead of a scan of the webhook's open deliveries joined to their events.
ALTER TABLE webhook_deliveries ADD COLUMN wallet_id text;
ALTER TABLE webhook_deliveries ADD COLUMN seq bigint;
UPDATE webhook_deliveries d SET wallet_id = e.wallet_id, seq = e.seq FROM outbox_events e WHERE e.id = d.event_id;
ALTER TABLE webhook_deliveries ALTER COLUMN seq SET NOT NULL;
CREATE INDEX webhook_deliveries_wallet_open ON webhook_deliveries (webhook_id, wallet_id, seq)
    WHERE status <> 'delivered';
DROP INDEX webhook_deliveries_open;
