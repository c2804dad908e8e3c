package com.agentwallet.adapters.sim;

import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.ledger.LedgerAddress;
import com.agentwallet.core.port.LedgerAdapterFactory;
import com.agentwallet.core.port.LedgerContext;
import com.agentwallet.core.port.LedgerPort;

import java.time.Duration;
import java.time.Instant;

/**
 * The {@code sim} ledger plugin. Settings: {@code program_id}, {@code seed}, {@code genesis},
 * {@code persist} ({@code true}: the chain is journaled under {@code <data>/ledger-sim/}),
 * {@code failure_rate}, {@code late_rate}, {@code drop_rate}, {@code latency_ms}.
 */
public final class SimLedgerFactory implements LedgerAdapterFactory {
    public static final String NAME = "sim";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public LedgerPort create(LedgerContext context) {
        SimFaults faults = new SimFaults(rate(context, "failure_rate"), rate(context, "late_rate"),
                rate(context, "drop_rate"), Duration.ofMillis(context.longSetting("latency_ms", 0)));
        Journal journal = Boolean.parseBoolean(context.setting("persist", "true"))
                ? Journal.open(context.dataDirectory().resolve("ledger-sim").resolve("journal.jsonl"))
                : Journal.inMemory();
        return new SimulatedLedger(new LedgerAddress(context.setting("program_id", SimulatedLedger.DEFAULT_PROGRAM_ID)),
                context.clock(), Instant.parse(context.setting("genesis", SimulatedLedger.DEFAULT_GENESIS.toString())),
                context.longSetting("seed", 1), faults, journal);
    }

    /** A fault probability between 0 and 1. */
    private static double rate(LedgerContext context, String key) {
        String value = context.setting(key, "0").trim();
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw new ValidationException("ledger." + key, "ledger setting '" + key + "' is not a number: " + value);
        }
    }
}
