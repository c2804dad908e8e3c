package com.agentwallet.core.port;

/**
 * A ledger plugin. Implementations register in {@code META-INF/services} and are found with
 * {@link java.util.ServiceLoader}; configuration picks one by {@link #name()}.
 */
public interface LedgerAdapterFactory {

    /** The name configuration uses to pick this ledger, such as {@code sim} or {@code solana}. */
    String name();

    LedgerPort create(LedgerContext context);
}
