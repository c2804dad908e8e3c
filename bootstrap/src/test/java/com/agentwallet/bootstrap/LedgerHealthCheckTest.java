package com.agentwallet.bootstrap;

import com.agentwallet.core.port.ForwardingLedger;
import com.agentwallet.core.port.LedgerUnavailableException;
import com.agentwallet.core.testing.FakeLedger;
import com.agentwallet.core.testing.MutableClock;
import com.codahale.metrics.health.HealthCheck;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The ledger's readiness: healthy while it answers a slot that moves; unhealthy once the slot has stood
 * still for longer than the bound, or while the ledger cannot be reached; healthy again after.
 */
class LedgerHealthCheckTest {
    private static final Duration STALL = Duration.ofMinutes(1);

    private final MutableClock clock = MutableClock.atTestEpoch();
    private final Chain ledger = new Chain();
    private final LedgerHealthCheck check = new LedgerHealthCheck(ledger, clock, STALL);

    /** A ledger whose slot the test moves, and which the test can put out of reach. */
    private static final class Chain extends ForwardingLedger {
        private volatile long slot = 1;
        private volatile boolean unreachable;

        Chain() {
            super(new FakeLedger());
        }

        @Override
        public long currentSlot() {
            if (unreachable) {
                throw new LedgerUnavailableException("the RPC node is out of reach");
            }
            return slot;
        }
    }

    @Test
    void aSlotStandingStillLongerThanTheBoundIsUnhealthyUntilItMovesAgain() {
        assertThat(check.execute().isHealthy()).isTrue();
        clock.advance(STALL);
        assertThat(check.execute().isHealthy()).as("still for exactly the bound").isTrue();

        clock.advance(Duration.ofSeconds(1));
        HealthCheck.Result stuck = check.execute();
        assertThat(stuck.isHealthy()).isFalse();
        assertThat(stuck.getMessage()).startsWith("the ledger's slot has stood at 1 for PT1M1S");

        ledger.slot = 2;
        HealthCheck.Result moving = check.execute();
        assertThat(moving.isHealthy()).isTrue();
        assertThat(moving.getMessage()).isEqualTo("slot 2");
    }

    @Test
    void aLedgerOutOfReachIsUnhealthyUntilItAnswersAgain() {
        ledger.unreachable = true;
        HealthCheck.Result down = check.execute();
        assertThat(down.isHealthy()).isFalse();
        assertThat(down.getMessage()).isEqualTo("the ledger is unavailable: the RPC node is out of reach");

        ledger.unreachable = false;
        assertThat(check.execute().isHealthy()).isTrue();
    }
}
