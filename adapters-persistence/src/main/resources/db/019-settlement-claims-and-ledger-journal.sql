--liquibase formatted sql

--changeset agent-wallet:019-settlement-claims-and-ledger-journal
-- Which server process settles a pending transaction, until when (Settlement): a process that dies
-- mid-settlement leaves a claim that lapses, and another takes the work over. No foreign key: a
-- claim is taken outside the transaction that may create its row.
CREATE TABLE settlement_claims (
    tx_id  TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    until  TIMESTAMPTZ NOT NULL
);

-- What a ledger adapter sent for each operation (LedgerJournal), recorded before it is sent, so
-- that any server process asks the ledger about it before sending the operation again: its one
-- attempt, then its final outcome once known.
CREATE TABLE ledger_attempts (
    operation_id TEXT PRIMARY KEY,
    signature    TEXT NOT NULL,
    detail       TEXT NOT NULL,
    recorded_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE ledger_outcomes (
    operation_id TEXT PRIMARY KEY,
    outcome      TEXT NOT NULL CHECK (outcome IN ('confirmed', 'rejected')),
    signature    TEXT,
    slot         BIGINT,
    code         TEXT,
    message      TEXT,
    recorded_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);
