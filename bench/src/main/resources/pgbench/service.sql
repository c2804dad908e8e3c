-- The service's own statements for one payment over the API with an idempotency key, as its
-- PostgreSQL log shows them, in the same 4 requests: booking (key lock, key, wallet lock, policy,
-- spends), then the spend, debit, pending transaction, key and pending event with the COMMIT; then
-- the ledger's outcome, and the completed event, credit by address and kept answer with the COMMIT.
-- Values the service computes are computed here by SQL. One request more than the service's, before
-- BEGIN: the wallet's id by its number (pgbench cannot use \gset inside a pipeline).
\set n random(:lo, :hi)
\set seq :seq + 1
SELECT wallet_id AS id FROM bench_wallets WHERE n = :n \gset w_
\startpipeline
BEGIN;
SELECT pg_advisory_xact_lock(hashtextextended(:org || '/' || 'key_' || :tag || lpad(:client_id::text, 4, '0') || lpad(:seq::text, 14, '0'), 0));
SELECT * FROM idempotency_keys WHERE org_id = :org AND key = 'key_' || :tag || lpad(:client_id::text, 4, '0') || lpad(:seq::text, 14, '0');
SELECT * FROM wallets WHERE id = :w_id AND org_id = :org FOR NO KEY UPDATE;
SELECT p.* FROM policies p JOIN wallets w ON p.id = w.policy_id AND p.org_id = w.org_id WHERE w.id = :w_id AND w.org_id = :org AND p.deleted_at IS NULL;
SELECT * FROM spend_entries WHERE wallet_id = :w_id AND at > (SELECT hour_cutoff FROM wallets WHERE id = :w_id) AND at <= now() - interval '1 hour' UNION SELECT * FROM spend_entries WHERE wallet_id = :w_id AND at > (SELECT day_cutoff FROM wallets WHERE id = :w_id) AND at <= now() - interval '1 day' UNION SELECT * FROM spend_entries WHERE wallet_id = :w_id AND at > (SELECT month_cutoff FROM wallets WHERE id = :w_id) AND at <= now() - interval '30 days';
\endpipeline
\startpipeline
INSERT INTO spend_entries (wallet_id, tx_id, at, amount_micros) VALUES (:w_id, 'tx_' || :tag || lpad(:client_id::text, 4, '0') || lpad(:seq::text, 14, '0'), now(), :amount);
UPDATE wallets SET (label, policy_id, tags, status, balance_micros, spend_day_micros, spend_month_micros, spend_hour_count, day_cutoff, month_cutoff, hour_cutoff, session_version, topup_enabled, topup_trigger_micros, topup_amount_micros, updated_at) = (label, policy_id, tags, status, balance_micros - :amount, spend_day_micros + :amount, spend_month_micros + :amount, spend_hour_count + 1, now() - interval '1 day', now() - interval '30 days', now() - interval '1 hour', session_version, topup_enabled, topup_trigger_micros, topup_amount_micros, now()) WHERE id = :w_id AND org_id = :org;
INSERT INTO transactions (id, org_id, wallet_id, type, amount_micros, recipient, created_at, status, memo, policy_triggered, violation_rule, violation_limit, violation_attempted, signature, slot, co_signer, co_sign_payload, co_sign_expires_at, co_signature, co_sign_requested_by, escrow_id, failure_reason, updated_at) VALUES ('tx_' || :tag || lpad(:client_id::text, 4, '0') || lpad(:seq::text, 14, '0'), :org, :w_id, 'payment', :amount, :payee, now(), 'pending', NULL, false, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, now());
INSERT INTO idempotency_keys (org_id, key, fingerprint, tx_id, created_at, response_status, response_body) VALUES (:org, 'key_' || :tag || lpad(:client_id::text, 4, '0') || lpad(:seq::text, 14, '0'), :fingerprint, 'tx_' || :tag || lpad(:client_id::text, 4, '0') || lpad(:seq::text, 14, '0'), now(), NULL, NULL);
INSERT INTO outbox_events (id, org_id, type, wallet_id, body, created_at) VALUES ('evt_' || :tag || lpad(:client_id::text, 4, '0') || lpad(:seq::text, 14, '0'), :org, 'transaction.pending', :w_id, CAST(:pending_body AS jsonb), now());
COMMIT;
\endpipeline
\startpipeline
BEGIN;
UPDATE transactions SET (status, memo, policy_triggered, violation_rule, violation_limit, violation_attempted, signature, slot, co_signer, co_sign_payload, co_sign_expires_at, co_signature, co_sign_requested_by, escrow_id, failure_reason, updated_at) = ('confirmed', NULL, false, NULL, NULL, NULL, :signature, :seq, NULL, NULL, NULL, NULL, NULL, NULL, NULL, now()) WHERE id = 'tx_' || :tag || lpad(:client_id::text, 4, '0') || lpad(:seq::text, 14, '0') AND org_id = :org AND status IS NOT DISTINCT FROM 'pending';
\endpipeline
\startpipeline
INSERT INTO outbox_events (id, org_id, type, wallet_id, body, created_at) VALUES ('evt_' || :tag2 || lpad(:client_id::text, 4, '0') || lpad(:seq::text, 14, '0'), :org, 'transaction.completed', :w_id, CAST(:completed_body AS jsonb), now());
UPDATE wallets SET balance_micros = balance_micros + :amount, updated_at = now() WHERE address = :payee;
UPDATE idempotency_keys SET response_status = 200, response_body = :response_body WHERE org_id = :org AND key = 'key_' || :tag || lpad(:client_id::text, 4, '0') || lpad(:seq::text, 14, '0') AND response_status IS NULL;
COMMIT;
\endpipeline
