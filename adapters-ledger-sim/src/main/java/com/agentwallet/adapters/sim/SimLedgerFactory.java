package com.agentwallet.adapters.sim;

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
        SimFaults faults = new SimFaults(context.doubleSetting("failure_rate", 0), context.doubleSetting("late_rate", 0),
                context.doubleSetting("drop_rate", 0), Duration.ofMillis(context.longSetting("latency_ms", 0)));
        Journal journal = Boolean.parseBoolean(context.setting("persist", "true"))
                ? Journal.open(context.dataDirectory().resolve("ledger-sim").resolve("journal.jsonl"))
                : Journal.inMemory();
        return new SimulatedLedger(new LedgerAddress(context.setting("program_id", SimulatedLedger.DEFAULT_PROGRAM_ID)),
                context.clock(), Instant.parse(context.setting("genesis", SimulatedLedger.DEFAULT_GENESIS.toString())),
                context.longSetting("seed", 1), faults, journal);
    }
}
