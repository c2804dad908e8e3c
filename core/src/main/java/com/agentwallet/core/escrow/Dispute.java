package com.agentwallet.core.escrow;

import com.agentwallet.core.common.ValidationException;

import java.time.Instant;

import static java.util.Objects.requireNonNull;

/** Why a sender disputed an escrow, with the hash of its evidence. */
public record Dispute(String reason, String evidence, Instant at) {
    public static final int MAX_REASON_LENGTH = 1000;

    public Dispute {
        ValidationException.check(reason != null && !reason.isBlank() && reason.length() <= MAX_REASON_LENGTH,
                "reason", "'reason' must be 1 to " + MAX_REASON_LENGTH + " characters");
        Proof.requireHash(evidence, "evidence");
        requireNonNull(at, "at is null");
    }
}
