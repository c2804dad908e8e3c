package com.agentwallet.adapters.sim;

import java.time.Duration;

import static java.util.Objects.requireNonNull;

/**
 * Faults the simulator injects into submissions, for tests and demos. Each new submission draws
 * one number from the seeded source: below {@code failureRate} it is refused before reaching the
 * chain ({@code ledger_unavailable}); in the next {@code lateRate} it executes but its
 * confirmation is not seen in time (an unknown outcome; a resubmission finds it confirmed); in the
 * next {@code dropRate} it never lands (an unknown outcome; a resubmission finds it expired).
 * {@code latency} is added to every submission.
 */
public record SimFaults(double failureRate, double lateRate, double dropRate, Duration latency) {
    public static final SimFaults NONE = new SimFaults(0, 0, 0, Duration.ZERO);

    public SimFaults {
        requireNonNull(latency, "latency is null");
        if (failureRate < 0 || lateRate < 0 || dropRate < 0 || failureRate + lateRate + dropRate > 1) {
            throw new IllegalArgumentException("fault rates must be non-negative and add up to at most 1");
        }
        if (latency.isNegative()) {
            throw new IllegalArgumentException("latency must not be negative");
        }
    }

    enum Fault {
        NONE, FAIL, LATE, DROP
    }

    Fault draw(double roll) {
        if (roll < failureRate) {
            return Fault.FAIL;
        }
        if (roll < failureRate + lateRate) {
            return Fault.LATE;
        }
        return roll < failureRate + lateRate + dropRate ? Fault.DROP : Fault.NONE;
    }
}
