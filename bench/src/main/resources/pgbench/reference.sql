-- The yardstick: the SQL shape of one payment as the service's goal names it (lock the wallet
-- row, read the spend summary, insert the payment, insert its outbox event, update the balance and
-- summary), in the service's own statements, one payment per execution in one transaction.
\set n random(:lo, :hi)
\set seq :seq + 1
BEGIN;
SELECT * FROM wallets WHERE id = (SELECT wallet_id FROM bench_wallets WHERE n = :n) AND org_id = :org FOR NO KEY UPDATE \gset w_
SELECT * FROM spend_entries WHERE wallet_id = :w_id AND ((at > :w_day_cutoff AND at <= now() - interval '1 day') OR (at > :w_month_cutoff AND at <= now() - interval '30 days') OR (at > :w_hour_cutoff AND at <= now() - interval '1 hour')) ORDER BY at, tx_id;
INSERT INTO spend_entries (wallet_id, tx_id, at, amount_micros) VALUES (:w_id, 'tx_' || :tag || lpad(:client_id::text, 4, '0') || lpad(:seq::text, 14, '0'), now(), :amount);
\set balance :w_balance_micros - :amount
\set day :w_spend_day_micros + :amount
\set month :w_spend_month_micros + :amount
\set hours :w_spend_hour_count + 1
UPDATE wallets SET label = :w_label, policy_id = :w_policy_id, tags = :w_tags, status = :w_status, balance_micros = :balance, spend_day_micros = :day, spend_month_micros = :month, spend_hour_count = :hours, day_cutoff = now() - interval '1 day', month_cutoff = now() - interval '30 days', hour_cutoff = now() - interval '1 hour', session_version = :w_session_version, topup_enabled = NULL, topup_trigger_micros = NULL, topup_amount_micros = NULL, updated_at = now() WHERE id = :w_id AND org_id = :org;
INSERT INTO transactions (id, org_id, wallet_id, type, status, amount_micros, recipient, memo, policy_triggered, violation_rule, violation_limit, violation_attempted, signature, slot, co_signer, co_sign_payload, co_sign_expires_at, co_signature, co_sign_requested_by, escrow_id, failure_reason, created_at, updated_at) VALUES ('tx_' || :tag || lpad(:client_id::text, 4, '0') || lpad(:seq::text, 14, '0'), :org, :w_id, 'payment', 'confirmed', :amount, :payee, NULL, false, NULL, NULL, NULL, :signature, :seq, NULL, NULL, NULL, NULL, NULL, NULL, NULL, now(), now());
INSERT INTO outbox_events (id, org_id, type, wallet_id, body, created_at) VALUES ('evt_' || :tag || lpad(:client_id::text, 4, '0') || lpad(:seq::text, 14, '0'), :org, 'transaction.completed', :w_id, CAST(:completed_body AS jsonb), now());
COMMIT;
