package com.agentwallet.core.wallet;

import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.money.Usdc;

import static java.util.Objects.requireNonNull;

/** One line of a batch funding: this wallet gets this amount. */
public record Funding(WalletId walletId, Usdc amount) {
    public static final int MAX_BATCH = 100;

    public Funding {
        requireNonNull(walletId, "walletId is null");
        requireNonNull(amount, "amount is null");
        ValidationException.check(!amount.isZero(), "amount", "'amount' must be greater than zero");
    }
}
