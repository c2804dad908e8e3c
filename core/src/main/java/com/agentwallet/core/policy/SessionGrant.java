package com.agentwallet.core.policy;

import com.agentwallet.core.id.WalletId;

import java.time.Instant;
import java.util.Optional;

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

    /**
     * Why this grant does not authorise acting for {@code wallet}, whose token version is now
     * {@code currentVersion}: scoped to another wallet, revoked by a rotation, or expired; empty
     * when it does.
     */
    public Optional<String> problemFor(WalletId wallet, long currentVersion, Instant now) {
        if (!walletId.equals(wallet)) {
            return Optional.of("scoped to another wallet");
        }
        if (version != currentVersion) {
            return Optional.of("revoked");
        }
        if (!now.isBefore(expiresAt)) {
            return Optional.of("expired");
        }
        return Optional.empty();
    }
}
