--liquibase formatted sql

--changeset agent-wallet:003-co-sign-requester
-- The credential that made a payment waiting for its co-signature: it may not approve it itself.
ALTER TABLE transactions ADD COLUMN co_sign_requested_by text;
