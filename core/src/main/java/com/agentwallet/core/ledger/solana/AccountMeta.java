package com.agentwallet.core.ledger.solana;

import com.agentwallet.core.ledger.LedgerAddress;

import static java.util.Objects.requireNonNull;

/** An account an instruction names, and whether it must sign and may be written. */
public record AccountMeta(LedgerAddress key, boolean signer, boolean writable) {
    public AccountMeta {
        requireNonNull(key, "key is null");
    }

    public static AccountMeta signerWritable(LedgerAddress key) {
        return new AccountMeta(key, true, true);
    }

    public static AccountMeta signer(LedgerAddress key) {
        return new AccountMeta(key, true, false);
    }

    public static AccountMeta writable(LedgerAddress key) {
        return new AccountMeta(key, false, true);
    }

    public static AccountMeta readonly(LedgerAddress key) {
        return new AccountMeta(key, false, false);
    }
}
