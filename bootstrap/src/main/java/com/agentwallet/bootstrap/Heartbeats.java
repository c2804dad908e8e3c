package com.agentwallet.bootstrap;

import com.google.inject.Inject;

import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import static java.util.Objects.requireNonNull;

/**
 * When each background worker last finished a round, by the server's clock, for the liveness checks:
 * the clockwork's rounds of frequent jobs, each webhook worker's steps (a fan-out, a delivery, a
 * wait), each export generator's rounds. Public for the delivery benchmarks, which run the workers.
 */
public final class Heartbeats {
    private final Heartbeat clockwork;
    private final Heartbeat webhookWorkers;
    private final Heartbeat exportGenerators;

    @Inject
    public Heartbeats(Clock clock) {
        this.clockwork = new Heartbeat(clock);
        this.webhookWorkers = new Heartbeat(clock);
        this.exportGenerators = new Heartbeat(clock);
    }

    Heartbeat clockwork() {
        return clockwork;
    }

    Heartbeat webhookWorkers() {
        return webhookWorkers;
    }

    Heartbeat exportGenerators() {
        return exportGenerators;
    }

    /** The workers of one kind, each by name: the oldest beat tells whether one of them is stuck. */
    static final class Heartbeat {
        private final Clock clock;
        private final Map<String, Instant> last = new ConcurrentHashMap<>();

        Heartbeat(Clock clock) {
            this.clock = requireNonNull(clock, "clock is null");
        }

        /** {@code worker} finished a round now; its first beat, as it starts, puts it under watch. */
        void beat(String worker) {
            last.put(worker, clock.instant());
        }

        /** The worker whose last beat is the oldest, and when it was; empty before any started. */
        Optional<Map.Entry<String, Instant>> oldest() {
            return last.entrySet().stream().min(Map.Entry.<String, Instant>comparingByValue())
                    .map(entry -> Map.entry(entry.getKey(), entry.getValue()));
        }

        Instant now() {
            return clock.instant();
        }
    }
}
