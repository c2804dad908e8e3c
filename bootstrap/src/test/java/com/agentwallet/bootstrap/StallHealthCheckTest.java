package com.agentwallet.bootstrap;

import com.agentwallet.core.testing.MutableClock;
import com.codahale.metrics.health.HealthCheck;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A kind of worker's liveness: healthy before the workers start; unhealthy once the one whose last
 * round is the oldest is older than the bound, even while the others go on; healthy again once it beats.
 */
class StallHealthCheckTest {
    private static final Duration STALL = Duration.ofMinutes(1);

    private final MutableClock clock = MutableClock.atTestEpoch();
    private final Heartbeats.Heartbeat heartbeat = new Heartbeats(clock).webhookWorkers();
    private final StallHealthCheck check = new StallHealthCheck(heartbeat, STALL);

    @Test
    void theOldestWorkerDecidesAndABeatBringsItBack() {
        HealthCheck.Result beforeStart = check.execute();
        assertThat(beforeStart.isHealthy()).as("before the workers start").isTrue();
        assertThat(beforeStart.getMessage()).isEqualTo("not started yet");
        heartbeat.beat("webhook worker 1");
        heartbeat.beat("webhook worker 2");
        clock.advance(STALL);
        heartbeat.beat("webhook worker 2");
        assertThat(check.execute().isHealthy()).as("worker 1 silent for exactly the bound").isTrue();

        clock.advance(Duration.ofSeconds(1));
        heartbeat.beat("webhook worker 2");
        HealthCheck.Result stalled = check.execute();
        assertThat(stalled.isHealthy()).isFalse();
        assertThat(stalled.getMessage()).startsWith("webhook worker 1 has not finished a round for PT1M1S");

        heartbeat.beat("webhook worker 1");
        assertThat(check.execute().isHealthy()).isTrue();
    }
}
