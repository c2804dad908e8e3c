package com.agentwallet.core.reconcile;

import com.agentwallet.core.ledger.LedgerAccount;
import com.agentwallet.core.money.Usdc;

import static java.util.Objects.requireNonNull;

/** An account whose ledger balance differs from what the books say it should hold. */
public record Drift(LedgerAccount account, Usdc expected, Usdc onLedger) {
    public Drift {
        requireNonNull(account, "account is null");
        requireNonNull(expected, "expected is null");
        requireNonNull(onLedger, "onLedger is null");
    }
}
