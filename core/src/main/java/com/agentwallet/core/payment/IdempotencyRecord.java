package com.agentwallet.core.payment;

import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.TxId;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A used idempotency key: the fingerprint of the request that used it first, the transaction it made,
 * and the payment as that request was answered, once known.
 */
public record IdempotencyRecord(OrgId orgId, String key, String fingerprint, TxId txId, Instant createdAt,
                                Optional<Answer> answer) {
    public static final Duration RETENTION = Duration.ofHours(24);

    public IdempotencyRecord {
        requireNonNull(orgId, "orgId is null");
        requireNonNull(key, "key is null");
        requireNonNull(fingerprint, "fingerprint is null");
        requireNonNull(txId, "txId is null");
        requireNonNull(createdAt, "createdAt is null");
        requireNonNull(answer, "answer is null");
    }

    /** The record of a key's first use, before its answer is known. */
    public static IdempotencyRecord firstUse(OrgId orgId, String key, String fingerprint, TxId txId, Instant createdAt) {
        return new IdempotencyRecord(orgId, key, fingerprint, txId, createdAt, Optional.empty());
    }

    public IdempotencyRecord withAnswer(Answer kept) {
        return new IdempotencyRecord(orgId, key, fingerprint, txId, createdAt, Optional.of(kept));
    }

    public boolean isLiveAt(Instant now) {
        return now.isBefore(createdAt.plus(RETENTION));
    }

    /**
     * What the first request answered of its payment: the parts of a payment that change after it is
     * made. A replay answers the payment with these, however it went on since.
     */
    public record Answer(TransactionStatus status, Optional<String> signature, Optional<Long> slot,
                         Optional<String> coSignature, Optional<String> failureReason, Instant updatedAt) {
        public Answer {
            requireNonNull(status, "status is null");
            requireNonNull(signature, "signature is null");
            requireNonNull(slot, "slot is null");
            requireNonNull(coSignature, "coSignature is null");
            requireNonNull(failureReason, "failureReason is null");
            requireNonNull(updatedAt, "updatedAt is null");
        }

        public static Answer of(Transaction answered) {
            return new Answer(answered.status(), answered.signature(), answered.slot(),
                    answered.coSign().flatMap(CoSign::signature), answered.failureReason(), answered.updatedAt());
        }

        /** The payment {@code now} as it was answered. */
        public Transaction replayedOn(Transaction now) {
            return new Transaction(now.id(), now.orgId(), now.walletId(), now.type(), status, now.amount(),
                    now.recipient(), now.memo(), now.policyTriggered(), now.violation(), signature, slot,
                    now.coSign().map(coSign -> new CoSign(coSign.coSigner(), coSign.payload(), coSign.expiresAt(),
                            coSignature, coSign.requestedBy())), now.escrowId(), failureReason,
                    now.createdAt(), updatedAt);
        }
    }
}
