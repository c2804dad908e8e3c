--liquibase formatted sql

--changeset agent-wallet:002-idempotency-responses
ALTER TABLE idempotency_keys ADD COLUMN response_status integer CHECK (response_status BETWEEN 100 AND 599);
ALTER TABLE idempotency_keys ADD COLUMN response_body text;
ALTER TABLE idempotency_keys ADD CONSTRAINT idempotency_keys_response
    CHECK ((response_status IS NULL) = (response_body IS NULL));

--changeset agent-wallet:002-delivery-attempt-pages
-- The deliveries list pages newest first by the attempt's own columns (time, event, attempt number):
-- an attempt of the domain has no row id for a cursor to carry.
DROP INDEX delivery_attempts_webhook;
CREATE INDEX delivery_attempts_webhook_list
    ON delivery_attempts (webhook_id, attempted_at DESC, event_id DESC, attempt DESC);
