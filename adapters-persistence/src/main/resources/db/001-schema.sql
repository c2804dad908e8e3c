--liquibase formatted sql

--changeset agent-wallet:001-organisations
CREATE TABLE organisations (
    id             text        PRIMARY KEY,
    name           text        NOT NULL,
    balance_micros bigint      NOT NULL CHECK (balance_micros >= 0),
    created_at     timestamptz NOT NULL
);

CREATE TABLE api_keys (
    id          text        PRIMARY KEY,
    org_id      text        NOT NULL REFERENCES organisations (id),
    role        text        NOT NULL CHECK (role IN ('viewer', 'operator', 'admin', 'owner')),
    key_hash    text        NOT NULL UNIQUE,
    revoked     boolean     NOT NULL DEFAULT false,
    created_at  timestamptz NOT NULL,
    revoked_at  timestamptz
);
CREATE INDEX api_keys_org ON api_keys (org_id);

--changeset agent-wallet:001-policies
CREATE TABLE policies (
    id                   text        PRIMARY KEY,
    org_id               text        NOT NULL REFERENCES organisations (id),
    name                 text        NOT NULL,
    version              bigint      NOT NULL CHECK (version >= 1),
    max_per_tx           bigint      CHECK (max_per_tx >= 0),
    max_per_day          bigint      CHECK (max_per_day >= 0),
    max_per_month        bigint      CHECK (max_per_month >= 0),
    velocity_cap         integer     CHECK (velocity_cap >= 0),
    allowed_recipients   text[]      NOT NULL,
    blocked_categories   text[]      NOT NULL,
    expiry               timestamptz,
    require_co_sign      bigint      CHECK (require_co_sign >= 0),
    co_signer            text,
    created_at           timestamptz NOT NULL,
    updated_at           timestamptz NOT NULL,
    deleted_at           timestamptz,
    CHECK (require_co_sign IS NULL OR co_signer IS NOT NULL)
);
CREATE INDEX policies_org_list ON policies (org_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;
CREATE INDEX policies_expiry ON policies (expiry) WHERE expiry IS NOT NULL AND deleted_at IS NULL;
CREATE INDEX policies_blocked_categories ON policies USING gin (blocked_categories) WHERE deleted_at IS NULL;

CREATE TABLE policy_audit (
    policy_id  text        NOT NULL REFERENCES policies (id),
    org_id     text        NOT NULL REFERENCES organisations (id),
    version    bigint      NOT NULL,
    action     text        NOT NULL CHECK (action IN ('created', 'updated', 'deleted')),
    actor      text        NOT NULL,
    at         timestamptz NOT NULL,
    changes    jsonb       NOT NULL,
    PRIMARY KEY (policy_id, version)
);

CREATE TABLE recipient_categories (
    org_id    text NOT NULL REFERENCES organisations (id),
    recipient text NOT NULL,
    category  text NOT NULL,
    PRIMARY KEY (org_id, recipient)
);
CREATE INDEX recipient_categories_category ON recipient_categories (org_id, category);

--changeset agent-wallet:001-wallets
CREATE TABLE wallets (
    id                  text        PRIMARY KEY,
    org_id              text        NOT NULL REFERENCES organisations (id),
    agent_id            text        NOT NULL,
    label               text        NOT NULL,
    policy_id           text        NOT NULL REFERENCES policies (id),
    tags                text[]      NOT NULL,
    status              text        NOT NULL CHECK (status IN ('active', 'frozen', 'archived')),
    address             text        NOT NULL UNIQUE,
    balance_micros      bigint      NOT NULL CHECK (balance_micros >= 0),
    spend_day_micros    bigint      NOT NULL CHECK (spend_day_micros >= 0),
    spend_month_micros  bigint      NOT NULL CHECK (spend_month_micros >= 0),
    spend_hour_count    integer     NOT NULL CHECK (spend_hour_count >= 0),
    day_cutoff          timestamptz NOT NULL,
    month_cutoff        timestamptz NOT NULL,
    hour_cutoff         timestamptz NOT NULL,
    session_version     bigint      NOT NULL,
    topup_enabled       boolean,
    topup_trigger_micros bigint     CHECK (topup_trigger_micros >= 0),
    topup_amount_micros bigint      CHECK (topup_amount_micros > 0),
    created_at          timestamptz NOT NULL,
    updated_at          timestamptz NOT NULL,
    UNIQUE (org_id, agent_id)
);
CREATE INDEX wallets_org_list ON wallets (org_id, created_at DESC, id DESC);
CREATE INDEX wallets_org_status ON wallets (org_id, status, created_at DESC, id DESC);
CREATE INDEX wallets_tags ON wallets USING gin (tags);
CREATE INDEX wallets_policy ON wallets (policy_id) WHERE status <> 'archived';

CREATE TABLE spend_entries (
    wallet_id     text        NOT NULL REFERENCES wallets (id),
    tx_id         text        NOT NULL,
    at            timestamptz NOT NULL,
    amount_micros bigint      NOT NULL CHECK (amount_micros > 0),
    PRIMARY KEY (wallet_id, tx_id)
);
CREATE INDEX spend_entries_window ON spend_entries (wallet_id, at);

--changeset agent-wallet:001-escrows-and-transactions
CREATE TABLE escrows (
    id               text        PRIMARY KEY,
    org_id           text        NOT NULL REFERENCES organisations (id),
    from_wallet      text        NOT NULL REFERENCES wallets (id),
    to_wallet        text        NOT NULL,
    receiver         text        NOT NULL,
    receiver_wallet  text        REFERENCES wallets (id),
    amount_micros    bigint      NOT NULL CHECK (amount_micros > 0),
    task_description text        NOT NULL,
    timeout_seconds  bigint      NOT NULL CHECK (timeout_seconds > 0),
    timeout_at       timestamptz NOT NULL,
    expected_proof   text,
    status           text        NOT NULL CHECK (status IN ('locked', 'disputed', 'released', 'refunded')),
    proof            text,
    dispute_reason   text,
    dispute_evidence text,
    disputed_at      timestamptz,
    lock_tx_id       text        NOT NULL,
    settle_tx_id     text,
    settle_reason    text,
    created_at       timestamptz NOT NULL,
    updated_at       timestamptz NOT NULL
);
CREATE INDEX escrows_org_list ON escrows (org_id, created_at DESC, id DESC);
CREATE INDEX escrows_org_wallet ON escrows (org_id, from_wallet, created_at DESC, id DESC);
CREATE INDEX escrows_org_status ON escrows (org_id, status, created_at DESC, id DESC);
CREATE INDEX escrows_timeout ON escrows (timeout_at) WHERE status = 'locked';

CREATE TABLE transactions (
    id                  text        PRIMARY KEY,
    org_id              text        NOT NULL REFERENCES organisations (id),
    wallet_id           text        NOT NULL REFERENCES wallets (id),
    type                text        NOT NULL CHECK (type IN ('payment', 'funding', 'withdrawal', 'escrow_lock',
                                                            'escrow_release', 'escrow_refund')),
    status              text        NOT NULL CHECK (status IN ('pending_co_sign', 'pending', 'confirmed', 'failed',
                                                              'rejected', 'expired', 'blocked')),
    amount_micros       bigint      NOT NULL CHECK (amount_micros > 0),
    recipient           text        NOT NULL,
    memo                text,
    policy_triggered    boolean     NOT NULL,
    violation_rule      text,
    violation_limit     text,
    violation_attempted text,
    signature           text,
    slot                bigint,
    co_signer           text,
    co_sign_payload     text,
    co_sign_expires_at  timestamptz,
    co_signature        text,
    escrow_id           text        REFERENCES escrows (id),
    failure_reason      text,
    created_at          timestamptz NOT NULL,
    updated_at          timestamptz NOT NULL,
    CHECK ((status = 'blocked') = (violation_rule IS NOT NULL))
);
CREATE INDEX transactions_org_list ON transactions (org_id, created_at DESC, id DESC);
CREATE INDEX transactions_org_wallet ON transactions (org_id, wallet_id, created_at DESC, id DESC);
CREATE INDEX transactions_org_status ON transactions (org_id, status, created_at DESC, id DESC);
CREATE INDEX transactions_org_type ON transactions (org_id, type, created_at DESC, id DESC);
CREATE INDEX transactions_pending ON transactions (updated_at) WHERE status = 'pending';
CREATE INDEX transactions_co_sign_due ON transactions (co_sign_expires_at) WHERE status = 'pending_co_sign';
CREATE INDEX transactions_wallet_open ON transactions (wallet_id) WHERE status IN ('pending', 'pending_co_sign');

ALTER TABLE escrows ADD CONSTRAINT escrows_lock_tx FOREIGN KEY (lock_tx_id) REFERENCES transactions (id)
    DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE escrows ADD CONSTRAINT escrows_settle_tx FOREIGN KEY (settle_tx_id) REFERENCES transactions (id)
    DEFERRABLE INITIALLY DEFERRED;

CREATE TABLE idempotency_keys (
    org_id      text        NOT NULL REFERENCES organisations (id),
    key         text        NOT NULL,
    fingerprint text        NOT NULL,
    tx_id       text        NOT NULL REFERENCES transactions (id),
    created_at  timestamptz NOT NULL,
    PRIMARY KEY (org_id, key)
);
CREATE INDEX idempotency_keys_age ON idempotency_keys (created_at);

--changeset agent-wallet:001-events-and-webhooks
CREATE TABLE outbox_events (
    seq        bigserial   PRIMARY KEY,
    id         text        NOT NULL UNIQUE,
    org_id     text        NOT NULL REFERENCES organisations (id),
    type       text        NOT NULL,
    wallet_id  text,
    body       jsonb       NOT NULL,
    created_at timestamptz NOT NULL
);
CREATE INDEX outbox_events_org ON outbox_events (org_id, seq);

CREATE TABLE webhooks (
    id             text        PRIMARY KEY,
    org_id         text        NOT NULL REFERENCES organisations (id),
    url            text        NOT NULL,
    all_events     boolean     NOT NULL,
    events         text[]      NOT NULL,
    signing_secret text        NOT NULL,
    status         text        NOT NULL CHECK (status IN ('active', 'degraded')),
    created_at     timestamptz NOT NULL,
    updated_at     timestamptz NOT NULL,
    deleted_at     timestamptz
);
CREATE INDEX webhooks_org_list ON webhooks (org_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;

CREATE TABLE webhook_deliveries (
    event_id        text        NOT NULL REFERENCES outbox_events (id),
    webhook_id      text        NOT NULL REFERENCES webhooks (id),
    status          text        NOT NULL CHECK (status IN ('scheduled', 'delivered', 'exhausted')),
    attempts        integer     NOT NULL CHECK (attempts BETWEEN 0 AND 5),
    schedule_start  timestamptz NOT NULL,
    next_attempt_at timestamptz,
    PRIMARY KEY (event_id, webhook_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'scheduled';

CREATE TABLE delivery_attempts (
    id              bigserial   PRIMARY KEY,
    event_id        text        NOT NULL REFERENCES outbox_events (id),
    webhook_id      text        NOT NULL REFERENCES webhooks (id),
    attempt         integer     NOT NULL,
    status_code     integer,
    error           text,
    latency_ms      bigint      NOT NULL,
    attempted_at    timestamptz NOT NULL,
    next_attempt_at timestamptz
);
CREATE INDEX delivery_attempts_webhook ON delivery_attempts (webhook_id, attempted_at DESC, id DESC);

--changeset agent-wallet:001-exports
CREATE TABLE export_jobs (
    id           text        PRIMARY KEY,
    org_id       text        NOT NULL REFERENCES organisations (id),
    status       text        NOT NULL CHECK (status IN ('pending', 'ready', 'failed')),
    format       text        NOT NULL CHECK (format IN ('csv', 'json')),
    wallet_id    text,
    from_ts      timestamptz,
    to_ts        timestamptz,
    file_path    text,
    row_count    bigint,
    created_at   timestamptz NOT NULL,
    completed_at timestamptz
);
CREATE INDEX export_jobs_pending ON export_jobs (created_at) WHERE status = 'pending';
