package com.agentwallet.core.payment;

import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.TxId;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A used idempotency key: the fingerprint of the request that used it first, the transaction it made,
 * and the response it was answered with once that is recorded (just after the payment's commit).
 */
public record IdempotencyRecord(OrgId orgId, String key, String fingerprint, TxId txId, Instant createdAt,
                                Optional<RecordedResponse> response) {
    public static final Duration RETENTION = Duration.ofHours(24);
    public static final int MAX_KEY_LENGTH = 255;

    public IdempotencyRecord {
        requireNonNull(orgId, "orgId is null");
        requireNonNull(key, "key is null");
        requireNonNull(fingerprint, "fingerprint is null");
        requireNonNull(txId, "txId is null");
        requireNonNull(createdAt, "createdAt is null");
        requireNonNull(response, "response is null");
    }

    /** The record of a key's first use, before its response is known. */
    public static IdempotencyRecord firstUse(OrgId orgId, String key, String fingerprint, TxId txId, Instant createdAt) {
        return new IdempotencyRecord(orgId, key, fingerprint, txId, createdAt, Optional.empty());
    }

    public IdempotencyRecord withResponse(RecordedResponse recorded) {
        return new IdempotencyRecord(orgId, key, fingerprint, txId, createdAt, Optional.of(recorded));
    }

    public boolean isLiveAt(Instant now) {
        return now.isBefore(createdAt.plus(RETENTION));
    }
}
