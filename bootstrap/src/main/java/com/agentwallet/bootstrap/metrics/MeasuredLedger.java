package com.agentwallet.bootstrap.metrics;

import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.ledger.LedgerOutcome;
import com.agentwallet.core.port.ForwardingLedger;
import com.agentwallet.core.port.LedgerPort;
import com.agentwallet.core.port.LedgerUnavailableException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The ledger plugin, with every submission timed ({@code agentwallet_ledger_submit_seconds}) and
 * each one that did not confirm counted by kind ({@code agentwallet_ledger_errors_total{kind}}):
 * {@code rejected} (the program or the adapter refused it), {@code unknown} (no answer yet: it is
 * resubmitted later), {@code unavailable} (the ledger could not be reached) and {@code exception}
 * (anything else thrown). Every submission of every movement goes through here, so nothing is
 * measured twice or missed. The other calls pass through unmeasured, and so does {@link #close}, to a
 * plugin that holds something to close (the simulator's journal).
 */
public final class MeasuredLedger extends ForwardingLedger {
    static final String REJECTED = "rejected";
    static final String UNKNOWN = "unknown";
    static final String UNAVAILABLE = "unavailable";
    static final String EXCEPTION = "exception";
    /** From a simulator's milliseconds to a stalled RPC node's minute-long timeout. */
    private static final Duration[] BUCKETS = Stream.of(10, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 30_000,
            60_000).map(Duration::ofMillis).toArray(Duration[]::new);

    private final Timer submit;
    private final Map<String, Counter> errors;

    public MeasuredLedger(LedgerPort ledger, MeterRegistry registry) {
        super(ledger);
        this.submit = Timer.builder("agentwallet.ledger.submit")
                .description("How long the ledger took to answer a submission, whatever the answer")
                .serviceLevelObjectives(BUCKETS)
                .register(registry);
        this.errors = Stream.of(REJECTED, UNKNOWN, UNAVAILABLE, EXCEPTION).collect(Collectors.toUnmodifiableMap(
                kind -> kind, kind -> Counter.builder("agentwallet.ledger.errors")
                        .description("Ledger submissions that did not confirm, by kind")
                        .tag("kind", kind).register(registry)));
    }

    @Override
    public LedgerOutcome submit(LedgerInstruction instruction) {
        Timer.Sample sample = Timer.start();
        try {
            LedgerOutcome outcome = super.submit(instruction);
            if (outcome instanceof LedgerOutcome.Rejected) {
                errors.get(REJECTED).increment();
            } else if (outcome instanceof LedgerOutcome.Unknown) {
                errors.get(UNKNOWN).increment();
            }
            return outcome;
        } catch (LedgerUnavailableException e) {
            errors.get(UNAVAILABLE).increment();
            throw e;
        } catch (RuntimeException e) {
            errors.get(EXCEPTION).increment();
            throw e;
        } finally {
            sample.stop(submit);
        }
    }
}
