package com.agentwallet.core.payment;

import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.TxId;

import java.time.Duration;
import java.time.Instant;

import static java.util.Objects.requireNonNull;

/** A used idempotency key: the fingerprint of the request that used it first and the transaction it made. */
public record IdempotencyRecord(OrgId orgId, String key, String fingerprint, TxId txId, Instant createdAt) {
    public static final Duration RETENTION = Duration.ofHours(24);
    public static final int MAX_KEY_LENGTH = 255;

    public IdempotencyRecord {
        requireNonNull(orgId, "orgId is null");
        requireNonNull(key, "key is null");
        requireNonNull(fingerprint, "fingerprint is null");
        requireNonNull(txId, "txId is null");
        requireNonNull(createdAt, "createdAt is null");
    }

    public boolean isLiveAt(Instant now) {
        return now.isBefore(createdAt.plus(RETENTION));
    }
}
