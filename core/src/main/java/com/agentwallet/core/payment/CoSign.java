package com.agentwallet.core.payment;

import com.agentwallet.core.common.Actor;

import java.time.Instant;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The co-signature a payment waits for: who must sign ({@code coSigner}, the policy's key when the
 * payment was made), what ({@code payload}, base64 of the ledger message), until when, and the
 * signature once given. {@code requestedBy} is the credential that made the payment: it may not
 * approve its own request (separation of duties).
 */
public record CoSign(String coSigner, String payload, Instant expiresAt, Optional<String> signature,
                     Optional<Actor> requestedBy) {
    public CoSign {
        requireNonNull(coSigner, "coSigner is null");
        requireNonNull(payload, "payload is null");
        requireNonNull(expiresAt, "expiresAt is null");
        requireNonNull(signature, "signature is null");
        requireNonNull(requestedBy, "requestedBy is null");
    }

    public CoSign signedWith(String newSignature) {
        return new CoSign(coSigner, payload, expiresAt, Optional.of(newSignature), requestedBy);
    }
}
