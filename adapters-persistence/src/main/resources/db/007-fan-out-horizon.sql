--liquibase formatted sql

--changeset agent-wallet:007-fan-out-horizon
-- The fan-out keeps a horizon instead of a flag per event: every event written by a transaction
-- whose id is below the horizon has been fanned out. Each event carries the id of the transaction
-- that wrote it, and a new event needs no second write (the flag's update could not be HOT, since
-- the flag was in a partial index's predicate). Events already fanned out go below the horizon.
ALTER TABLE outbox_events ADD COLUMN xid xid8;
UPDATE outbox_events SET xid = CASE WHEN fanned_out THEN '1'::xid8 ELSE pg_current_xact_id() END;
ALTER TABLE outbox_events ALTER COLUMN xid SET DEFAULT pg_current_xact_id();
ALTER TABLE outbox_events ALTER COLUMN xid SET NOT NULL;
CREATE INDEX outbox_events_xid ON outbox_events (xid);
DROP INDEX outbox_events_unfanned;
ALTER TABLE outbox_events DROP COLUMN fanned_out;
CREATE TABLE fan_out_horizon (
    singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    xid       xid8    NOT NULL
);
INSERT INTO fan_out_horizon (xid) VALUES ('2'::xid8);
