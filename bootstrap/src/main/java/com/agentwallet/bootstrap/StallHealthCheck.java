package com.agentwallet.bootstrap;

import com.codahale.metrics.health.HealthCheck;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Liveness of a kind of background worker: unhealthy once one of them has not finished a round for
 * longer than {@code stall} (stuck on a call that never returns, or its thread gone), which a
 * restart cures. A database or a ledger that is down does not stall a worker: its jobs fail, are
 * logged, and the round ends.
 */
final class StallHealthCheck extends HealthCheck {
    private final Heartbeats.Heartbeat heartbeat;
    private final Duration stall;

    StallHealthCheck(Heartbeats.Heartbeat heartbeat, Duration stall) {
        this.heartbeat = requireNonNull(heartbeat, "heartbeat is null");
        this.stall = requireNonNull(stall, "stall is null");
    }

    @Override
    protected Result check() {
        Optional<Map.Entry<String, Instant>> oldest = heartbeat.oldest();
        if (oldest.isEmpty()) {
            // The checks run from before the workers start (the database and the migration come first);
            // a worker that cannot start stops the server's start, so there is nothing stuck yet.
            return Result.healthy("not started yet");
        }
        Duration since = Duration.between(oldest.get().getValue(), heartbeat.now());
        return since.compareTo(stall) <= 0
                ? Result.healthy("every worker finished a round within %s", stall)
                : Result.unhealthy("%s has not finished a round for %s (bound %s)", oldest.get().getKey(), since, stall);
    }
}
