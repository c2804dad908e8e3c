package com.agentwallet.core.idempotency;

import com.agentwallet.core.id.OrgId;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A used idempotency key of a creating request: the fingerprint of the request that used it first and
 * what that request made ({@code subject}: the id, or the ids joined by commas), named in the same
 * transaction. A committed record always has its subject.
 */
public record KeyedRequest(OrgId orgId, String key, String fingerprint, Optional<String> subject,
                           Instant createdAt) {
    public static final Duration RETENTION = Duration.ofHours(24);

    public KeyedRequest {
        requireNonNull(orgId, "orgId is null");
        requireNonNull(key, "key is null");
        requireNonNull(fingerprint, "fingerprint is null");
        requireNonNull(subject, "subject is null");
        requireNonNull(createdAt, "createdAt is null");
    }

    public boolean isLiveAt(Instant now) {
        return now.isBefore(createdAt.plus(RETENTION));
    }
}
