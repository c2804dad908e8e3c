package com.agentwallet.adapters.sim;

import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.crypto.Ed25519KeyPair;
import com.agentwallet.core.ledger.LedgerAddress;
import com.agentwallet.core.ledger.solana.SolanaKeypair;
import com.agentwallet.core.ledger.solana.SolanaPrograms;
import com.agentwallet.core.port.LedgerAdapterFactory;
import com.agentwallet.core.port.LedgerContext;
import com.agentwallet.core.port.LedgerPort;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The {@code sim} ledger plugin. Settings: {@code program_id}, {@code usdc_mint} (default devnet's),
 * {@code fee_payer_keypair} and {@code session_root_keypair} (solana-keygen JSON files, as the
 * Solana plugin's; by default keys derived from {@code seed}),
 * {@code seed}, {@code genesis}, {@code persist} ({@code true}: the chain is journaled),
 * {@code journal} (the journal's file, {@code <data>/ledger-sim/journal.jsonl} by default; server
 * processes on one machine given the same file share one chain), {@code failure_rate},
 * {@code late_rate}, {@code drop_rate}, {@code latency_ms}.
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
                ? Journal.open(context.setting("journal").map(Path::of)
                        .orElseGet(() -> context.dataDirectory().resolve("ledger-sim").resolve("journal.jsonl")))
                : Journal.inMemory();
        long seed = context.longSetting("seed", 1);
        return new SimulatedLedger(address(context, "program_id", SimulatedLedger.DEFAULT_PROGRAM_ID),
                address(context, "usdc_mint", SolanaPrograms.DEVNET_USDC_MINT.base58()),
                keypair(context, "fee_payer").orElseGet(() -> SimulatedLedger.defaultKey("fee-payer", seed)),
                keypair(context, "session_root").orElseGet(() -> SimulatedLedger.defaultKey("session-root", seed)),
                context.clock(),
                Instant.parse(context.setting("genesis", SimulatedLedger.DEFAULT_GENESIS.toString())), seed, faults,
                journal);
    }

    private static Optional<Ed25519KeyPair> keypair(LedgerContext context, String name) {
        String setting = name + "_keypair";
        Optional<String> file = context.setting(setting);
        if (file.isEmpty()) {
            return Optional.empty();
        }
        String text;
        try {
            text = Files.readString(Path.of(file.get()), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ValidationException("ledger." + setting, "cannot read the keypair file " + file.get()
                    + ": " + e.getMessage());
        }
        return Optional.of(SolanaKeypair.parse(text).orElseThrow(() -> new ValidationException(
                "ledger." + setting, "the keypair file " + file.get()
                + " does not hold a 64-byte Ed25519 secret key (solana-keygen JSON or base58)")));
    }

    private static LedgerAddress address(LedgerContext context, String key, String fallback) {
        String value = context.setting(key, fallback).trim();
        if (!LedgerAddress.isValid(value)) {
            throw new ValidationException("ledger." + key, "ledger setting '" + key + "' is not a base58 address: " + value);
        }
        return new LedgerAddress(value);
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
