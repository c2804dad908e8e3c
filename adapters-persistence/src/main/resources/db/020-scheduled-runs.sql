--liquibase formatted sql

--changeset agent-wallet:020-scheduled-runs
-- When each periodic job that one server process runs for all of them (reconciliation) is next due:
-- a process takes a run by moving next_run_at forward, and the others find it not due.
CREATE TABLE scheduled_runs (
    job         TEXT PRIMARY KEY,
    next_run_at TIMESTAMPTZ NOT NULL
);
