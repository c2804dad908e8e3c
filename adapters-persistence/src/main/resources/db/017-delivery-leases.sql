--liquibase formatted sql

--changeset agent-wallet:017-delivery-leases
-- A delivery is claimed under a lease (named by lease_id, running until lease_until) in a short
-- transaction and posted with no transaction open; its outcome is recorded only under the same
-- lease. A lease that ran out, its worker dead or stuck, lets another claim take the delivery.
ALTER TABLE webhook_deliveries ADD COLUMN lease_id text;
ALTER TABLE webhook_deliveries ADD COLUMN lease_until timestamptz;
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_lease_whole
    CHECK ((lease_id IS NULL) = (lease_until IS NULL));
-- The claim asks, of a webhook and of an organisation, which deliveries are in flight: few rows.
CREATE INDEX webhook_deliveries_leased ON webhook_deliveries (webhook_id, lease_until) WHERE lease_id IS NOT NULL;
