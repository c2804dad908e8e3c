package com.agentwallet.core.policy;

import com.agentwallet.core.id.WalletId;

import java.time.Instant;

import static java.util.Objects.requireNonNull;

/**
 * What a presented session token claims, after the adapter verified its signature: the wallet it
 * is scoped to, the wallet's token version when it was issued, and when it expires. Rotation bumps
 * the wallet's version, which is how older tokens stop working at once.
 */
public record SessionGrant(WalletId walletId, long version, Instant expiresAt) {
    public SessionGrant {
        requireNonNull(walletId, "walletId is null");
        requireNonNull(expiresAt, "expiresAt is null");
    }
}
