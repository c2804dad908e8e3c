package com.agentwallet.adapters.persistence;

import com.agentwallet.core.port.ScheduledRuns;
import org.jdbi.v3.core.Jdbi;

import java.time.Duration;
import java.time.Instant;

/**
 * Scheduled runs in {@code scheduled_runs}: a claim is one auto-committed upsert that moves the job's
 * next run forward only where it is due, so of processes claiming at once exactly one gets a row back.
 */
final class JdbiScheduledRuns implements ScheduledRuns {
    private final Jdbi jdbi;

    JdbiScheduledRuns(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    @Override
    public boolean claim(String job, Instant now, Duration every) {
        return jdbi.withHandle(handle -> handle.createQuery("INSERT INTO scheduled_runs (job, next_run_at) "
                        + "VALUES (:job, :next) ON CONFLICT (job) DO UPDATE SET next_run_at = EXCLUDED.next_run_at "
                        + "WHERE scheduled_runs.next_run_at <= :now RETURNING job")
                .bind("job", job)
                .bind("next", Rows.timestamp(now.plus(every)))
                .bind("now", Rows.timestamp(now))
                .mapTo(String.class).findOne().isPresent());
    }
}
