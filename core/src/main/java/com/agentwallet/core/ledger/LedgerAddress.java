package com.agentwallet.core.ledger;

import com.agentwallet.core.crypto.Base58;

import static java.util.Objects.requireNonNull;

/** A 32-byte ledger address (a Solana public key or program-derived address) in base58. */
public record LedgerAddress(String base58) {
    public static final int LENGTH = 32;

    public LedgerAddress {
        requireNonNull(base58, "base58 is null");
        if (!isValid(base58)) {
            throw new IllegalArgumentException("not a 32-byte base58 address: " + base58);
        }
    }

    public static boolean isValid(String text) {
        return text != null && text.length() <= 44 && Base58.decode(text, LENGTH).isPresent();
    }

    public static LedgerAddress of(byte[] bytes) {
        if (bytes.length != LENGTH) {
            throw new IllegalArgumentException("an address has 32 bytes, not " + bytes.length);
        }
        return new LedgerAddress(Base58.encode(bytes));
    }

    public byte[] bytes() {
        return Base58.decode(base58, LENGTH).orElseThrow();
    }

    @Override
    public String toString() {
        return base58;
    }
}
