--liquibase formatted sql

--changeset agent-wallet:009-idempotency-answers
-- A used key keeps the payment as its first request answered it, as typed columns (the parts of a
-- payment that change after it is made), instead of the HTTP response's status and body: the HTTP
-- adapter renders a replay like any payment. A key whose response was kept before this change
-- answers its payment as it is now, as a key whose answer was never kept does.
ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_response;
ALTER TABLE idempotency_keys DROP COLUMN response_status;
ALTER TABLE idempotency_keys DROP COLUMN response_body;
ALTER TABLE idempotency_keys ADD COLUMN answer_status text
    CHECK (answer_status IN ('pending_co_sign', 'pending', 'confirmed', 'failed', 'rejected', 'expired'));
ALTER TABLE idempotency_keys ADD COLUMN answer_signature text;
ALTER TABLE idempotency_keys ADD COLUMN answer_slot bigint;
ALTER TABLE idempotency_keys ADD COLUMN answer_co_signature text;
ALTER TABLE idempotency_keys ADD COLUMN answer_failure_reason text;
ALTER TABLE idempotency_keys ADD COLUMN answer_updated_at timestamptz;
ALTER TABLE idempotency_keys ADD CONSTRAINT idempotency_keys_answer
    CHECK ((answer_status IS NULL) = (answer_updated_at IS NULL));
