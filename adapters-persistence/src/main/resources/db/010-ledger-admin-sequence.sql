--liquibase formatted sql

--changeset agent-wallet:010-ledger-admin-sequence
-- The order of administrative writes to the ledger (AdminSequence): the chain refuses a write whose
-- number is not above the last one written to the same account. It starts at the microseconds since
-- 1970 so that it is above every number written before it existed (policy versions, and the journal
-- positions the simulator gives its older entries).
CREATE SEQUENCE ledger_admin_sequence;
SELECT setval('ledger_admin_sequence', (extract(epoch FROM clock_timestamp()) * 1000000)::bigint);
