package com.agentwallet.core.wallet;

import java.time.Instant;

import static java.util.Objects.requireNonNull;

/** What can happen to a wallet's status. */
public sealed interface WalletCommand {

    /** An operator froze the wallet. */
    record Freeze() implements WalletCommand {
    }

    /** An operator re-activated the wallet. */
    record Unfreeze() implements WalletCommand {
    }

    /** The attached policy's expiry passed. */
    record PolicyExpired(Instant expiry) implements WalletCommand {
        public PolicyExpired {
            requireNonNull(expiry, "expiry is null");
        }
    }

    /** The wallet is archived (DELETE). */
    record Archive() implements WalletCommand {
    }
}
