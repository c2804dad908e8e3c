package com.agentwallet.core.testing;

import com.agentwallet.core.crypto.Hashing;
import com.agentwallet.core.ledger.LedgerAddress;

import java.nio.charset.StandardCharsets;

/** Ledger addresses of payees outside the service, derived from a name so tests stay deterministic. */
public final class Addresses {
    private Addresses() {
    }

    /** A valid 32-byte base58 address that belongs to no wallet of the service. */
    public static String external(String name) {
        return LedgerAddress.of(Hashing.sha256(("external/" + name).getBytes(StandardCharsets.UTF_8))).base58();
    }
}
