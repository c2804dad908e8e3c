-- The service's own statements for one payment over the API with an idempotency key, as they
-- travel (PipelineTest's aPaymentWithAKeyIsFourRequests logs them), in the same 4 requests: the
-- booking's reads (generic plans, key lock, key, wallet lock, policy, spends); its writes as one
-- statement (spend, debit, pending transaction, key, pending event) with the COMMIT; the ledger's
-- outcome; and the completed event, credit by address and kept answer as one statement with the
-- COMMIT. Values the service computes are computed here by SQL. One request more than the
-- service's, before BEGIN: the wallet's id by its number (pgbench cannot use \gset inside a pipeline).
\set n random(:lo, :hi)
\set seq :seq + 1
SELECT wallet_id AS id FROM bench_wallets WHERE n = :n \gset w_
\startpipeline
BEGIN;
SET LOCAL plan_cache_mode = force_generic_plan;
SELECT pg_advisory_xact_lock(hashtextextended(k, 0)) FROM unnest(CAST(ARRAY[:org || '/' || 'key_' || :tag || lpad(:client_id::text, 4, '0') || lpad(:seq::text, 14, '0')] AS text[])) AS k;
SELECT * FROM idempotency_keys WHERE org_id = :org AND key = ANY(ARRAY['key_' || :tag || lpad(:client_id::text, 4, '0') || lpad(:seq::text, 14, '0')]);
SELECT * FROM wallets WHERE id = ANY(ARRAY[:w_id]) AND org_id = :org ORDER BY id COLLATE "C" FOR NO KEY UPDATE;
SELECT * FROM policies WHERE org_id = :org AND deleted_at IS NULL AND id IN (SELECT policy_id FROM wallets WHERE id = ANY(ARRAY[:w_id]) AND org_id = :org);
SELECT e.* FROM spend_entries e JOIN wallets w ON e.wallet_id = w.id AND e.at > w.hour_cutoff AND e.at <= now() + interval '1 minute' - interval '1 hour' WHERE w.id = ANY(ARRAY[:w_id]) AND w.org_id = :org UNION SELECT e.* FROM spend_entries e JOIN wallets w ON e.wallet_id = w.id AND e.at > w.day_cutoff AND e.at <= now() + interval '1 minute' - interval '1 day' WHERE w.id = ANY(ARRAY[:w_id]) AND w.org_id = :org UNION SELECT e.* FROM spend_entries e JOIN wallets w ON e.wallet_id = w.id AND e.at > w.month_cutoff AND e.at <= now() + interval '1 minute' - interval '30 days' WHERE w.id = ANY(ARRAY[:w_id]) AND w.org_id = :org;
\endpipeline
\startpipeline
WITH w0 AS (INSERT INTO spend_entries (wallet_id, tx_id, at, amount_micros) VALUES (:w_id, 'tx_' || :tag || lpad(:client_id::text, 4, '0') || lpad(:seq::text, 14, '0'), now(), :amount)), w1 AS (UPDATE wallets SET (label, policy_id, tags, status, balance_micros, spend_day_micros, spend_month_micros, spend_hour_count, day_cutoff, month_cutoff, hour_cutoff, session_version, topup_enabled, topup_trigger_micros, topup_amount_micros, updated_at) = (label, policy_id, tags, status, balance_micros - :amount, spend_day_micros + :amount, spend_month_micros + :amount, spend_hour_count + 1, now() - interval '1 day', now() - interval '30 days', now() - interval '1 hour', session_version, topup_enabled, topup_trigger_micros, topup_amount_micros, now()) WHERE id = :w_id AND org_id = :org), w2 AS (INSERT INTO transactions (id, org_id, wallet_id, type, amount_micros, recipient, created_at, status, memo, policy_triggered, violation_rule, violation_limit, violation_attempted, signature, slot, co_signer, co_sign_payload, co_sign_expires_at, co_signature, co_sign_requested_by, escrow_id, failure_reason, updated_at) VALUES ('tx_' || :tag || lpad(:client_id::text, 4, '0') || lpad(:seq::text, 14, '0'), :org, :w_id, 'payment', :amount, :payee, now(), 'pending', NULL, false, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, now())), w3 AS (INSERT INTO idempotency_keys (org_id, key, fingerprint, tx_id, created_at, response_status, response_body) VALUES (:org, 'key_' || :tag || lpad(:client_id::text, 4, '0') || lpad(:seq::text, 14, '0'), :fingerprint, 'tx_' || :tag || lpad(:client_id::text, 4, '0') || lpad(:seq::text, 14, '0'), now(), NULL, NULL)) INSERT INTO outbox_events (id, org_id, type, wallet_id, body, created_at) VALUES ('evt_' || :tag || lpad(:client_id::text, 4, '0') || lpad(:seq::text, 14, '0'), :org, 'transaction.pending', :w_id, CAST(:pending_body AS jsonb), now());
COMMIT;
\endpipeline
\startpipeline
BEGIN;
SET LOCAL plan_cache_mode = force_generic_plan;
UPDATE transactions SET (status, memo, policy_triggered, violation_rule, violation_limit, violation_attempted, signature, slot, co_signer, co_sign_payload, co_sign_expires_at, co_signature, co_sign_requested_by, escrow_id, failure_reason, updated_at) = ('confirmed', NULL, false, NULL, NULL, NULL, :signature, :seq, NULL, NULL, NULL, NULL, NULL, NULL, NULL, now()) WHERE id = 'tx_' || :tag || lpad(:client_id::text, 4, '0') || lpad(:seq::text, 14, '0') AND org_id = :org AND status IS NOT DISTINCT FROM 'pending';
\endpipeline
\startpipeline
WITH w0 AS (INSERT INTO outbox_events (id, org_id, type, wallet_id, body, created_at) VALUES ('evt_' || :tag2 || lpad(:client_id::text, 4, '0') || lpad(:seq::text, 14, '0'), :org, 'transaction.completed', :w_id, CAST(:completed_body AS jsonb), now())), w1 AS (UPDATE wallets SET balance_micros = balance_micros + :amount, updated_at = now() WHERE address = :payee) UPDATE idempotency_keys SET response_status = 200, response_body = :response_body WHERE org_id = :org AND key = 'key_' || :tag || lpad(:client_id::text, 4, '0') || lpad(:seq::text, 14, '0') AND response_status IS NULL;
COMMIT;
\endpipeline
