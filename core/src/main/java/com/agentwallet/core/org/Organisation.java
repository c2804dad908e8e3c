package com.agentwallet.core.org;

import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.money.Usdc;

import java.time.Instant;

import static java.util.Objects.requireNonNull;

/** An organisation and the USDC balance it has not allocated to wallets. */
public record Organisation(OrgId id, String name, Usdc balance, Instant createdAt) {
    public Organisation {
        requireNonNull(id, "id is null");
        requireNonNull(name, "name is null");
        requireNonNull(balance, "balance is null");
        requireNonNull(createdAt, "createdAt is null");
    }

    public Organisation withBalance(Usdc newBalance) {
        return new Organisation(id, name, newBalance, createdAt);
    }
}
