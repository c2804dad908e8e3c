package com.agentwallet.bootstrap;

import com.agentwallet.core.port.LedgerPort;
import com.codahale.metrics.health.HealthCheck;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import static java.util.Objects.requireNonNull;

/**
 * Readiness of the ledger: it answers its current slot, and the slot moves. A slot that stands still
 * for longer than {@code stall} is a node that stopped following the chain (or a chain that
 * stopped): payments submitted there would never confirm. One call per run; the simulator's slot
 * advances with the server's clock.
 */
final class LedgerHealthCheck extends HealthCheck {
    private final LedgerPort ledger;
    private final Clock clock;
    private final Duration stall;
    /** The highest slot seen, and when it was first seen; runs are one at a time, on the module's thread. */
    private long slot = -1;
    private Instant seenAt;

    LedgerHealthCheck(LedgerPort ledger, Clock clock, Duration stall) {
        this.ledger = requireNonNull(ledger, "ledger is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.stall = requireNonNull(stall, "stall is null");
    }

    @Override
    protected synchronized Result check() {
        long current;
        try {
            current = ledger.currentSlot();
        } catch (RuntimeException e) {
            return Result.unhealthy("the ledger is unavailable: " + e.getMessage());
        }
        Instant now = clock.instant();
        if (current > slot) {
            slot = current;
            seenAt = now;
            return Result.healthy("slot %d", current);
        }
        Duration still = Duration.between(seenAt, now);
        return still.compareTo(stall) <= 0 ? Result.healthy("slot %d", slot)
                : Result.unhealthy("the ledger's slot has stood at %d for %s (bound %s)", slot, still, stall);
    }
}
