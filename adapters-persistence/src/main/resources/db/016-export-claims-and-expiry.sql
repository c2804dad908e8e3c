--liquibase formatted sql

--changeset agent-wallet:016-export-claims-and-expiry
-- A generator claims a pending job with a lease (lease_until) instead of holding its row locked in a
-- transaction while it writes the file: a long-running transaction held back the webhook fan-out's
-- horizon for every organisation. claim counts the claims of a job, so that a generator whose lease
-- ran out and was taken over cannot finish the job after the new claimant.
ALTER TABLE export_jobs ADD COLUMN claim bigint NOT NULL DEFAULT 0;
ALTER TABLE export_jobs ADD COLUMN lease_until timestamptz;
-- A ready file is kept until expires_at, then deleted and its job expired; the rows already ready
-- get the default retention of seven days from their completion.
ALTER TABLE export_jobs ADD COLUMN expires_at timestamptz;
UPDATE export_jobs SET expires_at = completed_at + interval '7 days' WHERE status = 'ready';
ALTER TABLE export_jobs DROP CONSTRAINT export_jobs_status_check;
ALTER TABLE export_jobs ADD CONSTRAINT export_jobs_status_check
    CHECK (status IN ('pending', 'ready', 'failed', 'expired'));
CREATE INDEX export_jobs_expiry ON export_jobs (expires_at) WHERE status = 'ready';
