package com.agentwallet.core.wallet;

import com.agentwallet.core.policy.SessionGrant;

import static java.util.Objects.requireNonNull;

/** A new wallet and the grant of its first session token (the adapter signs it as a JWT). */
public record CreatedWallet(Wallet wallet, SessionGrant session) {
    public CreatedWallet {
        requireNonNull(wallet, "wallet is null");
        requireNonNull(session, "session is null");
    }
}
