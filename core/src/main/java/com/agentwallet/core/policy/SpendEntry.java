package com.agentwallet.core.policy;

import com.agentwallet.core.id.TxId;
import com.agentwallet.core.money.Usdc;

import java.time.Instant;

import static java.util.Objects.requireNonNull;

/** One spend that counts toward a wallet's caps: a payment (held or paid) or an escrow lock. */
public record SpendEntry(TxId txId, Instant at, Usdc amount) {
    public SpendEntry {
        requireNonNull(txId, "txId is null");
        requireNonNull(at, "at is null");
        requireNonNull(amount, "amount is null");
    }
}
