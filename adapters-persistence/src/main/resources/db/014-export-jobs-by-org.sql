--liquibase formatted sql

--changeset agent-wallet:014-export-jobs-by-org
-- An organisation's exports listed newest first (the dashboard's exports page), one index range per page.
CREATE INDEX export_jobs_org_list ON export_jobs (org_id, created_at DESC, id DESC);
