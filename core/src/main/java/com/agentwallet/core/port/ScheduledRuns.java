package com.agentwallet.core.port;

import java.time.Duration;
import java.time.Instant;

/**
 * The runs of a periodic job that every server process schedules, kept where they all see them (the
 * service's database), so that one process takes each period's run and the others skip it.
 */
public interface ScheduledRuns {

    /**
     * Takes the run of {@code job} due at {@code now}, unless one taken by any process is not yet
     * {@code every} old: answers whether the caller runs it. The first claim of a job takes its run.
     */
    boolean claim(String job, Instant now, Duration every);
}
