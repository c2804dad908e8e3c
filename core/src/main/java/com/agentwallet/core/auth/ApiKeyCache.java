package com.agentwallet.core.auth;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import static java.util.Objects.requireNonNull;

/**
 * The live API keys this process has looked up, so that a request is authenticated without reading
 * the books. Keys are kept only while the changes to keys in the books are followed, from every
 * process (the persistence adapter listens for them and calls {@link #changed} and
 * {@link #following}); a key is forgotten as soon as a change to it is heard. Not following (at start,
 * or while the feed is broken) it keeps nothing, and every request reads the books.
 *
 * <p>A feed can also die without a word, and a notification be lost, for seconds before anyone can
 * tell. So a kept key is trusted only for {@link #TRUST_FOR} after the lookup that found it began:
 * older, it is read from the books again. A revocation committed at some instant is therefore refused
 * by every process within {@link #TRUST_FOR} of it, heard or not, at the cost of one indexed read per
 * key in use and per {@link #TRUST_FOR}.
 *
 * <p>A lookup that raced a change is not kept: every change moves the epoch, and a key read under an
 * older epoch than the current one is dropped. So a key read before its revocation was committed
 * cannot be kept after the revocation was heard. Only live keys are kept; an unknown or revoked
 * secret is looked up every time.
 */
public final class ApiKeyCache {
    /** Keys kept at most; when full, all are forgotten at once and looked up again as they come. */
    static final int MAX_KEYS = 10_000;
    /** How long a kept key is trusted after its lookup began: the bound on a revocation that is not heard. */
    public static final Duration TRUST_FOR = Duration.ofSeconds(1);

    private final Clock clock;
    private final Duration trustFor;
    private final ConcurrentHashMap<String, Kept> keys = new ConcurrentHashMap<>();
    private long epoch;
    private boolean following;

    /** A lookup in the books, begun in {@code epoch} at {@code startedAt}. */
    record Lookup(long epoch, Instant startedAt) {
    }

    private record Kept(ApiKey key, Instant trustedUntil) {
    }

    /** Trusts kept keys for {@code trustFor}: {@link #TRUST_FOR} in service, longer only to measure what it costs. */
    public ApiKeyCache(Clock clock, Duration trustFor) {
        this.clock = requireNonNull(clock, "clock is null");
        this.trustFor = requireNonNull(trustFor, "trustFor is null");
        if (trustFor.isNegative() || trustFor.isZero()) {
            throw new IllegalArgumentException("trustFor must be positive: " + trustFor);
        }
    }

    /** The kept key whose secret hashes to {@code secretHash}, while it is still trusted. */
    Optional<ApiKey> find(String secretHash) {
        Kept kept = keys.get(secretHash);
        if (kept == null || !clock.instant().isBefore(kept.trustedUntil())) {
            return Optional.empty();
        }
        return Optional.of(kept.key());
    }

    /** A lookup that starts now, to pass to {@link #keep}. */
    synchronized Lookup lookup() {
        return new Lookup(epoch, clock.instant());
    }

    /** Keeps a live key found by {@code lookup}, unless something changed meanwhile or changes are not followed. */
    synchronized void keep(Lookup lookup, ApiKey key) {
        requireNonNull(key, "key is null");
        if (!following || lookup.epoch() != epoch || key.isRevoked()) {
            return;
        }
        if (keys.size() >= MAX_KEYS) {
            keys.clear();
        }
        keys.put(key.secretHash(), new Kept(key, lookup.startedAt().plus(trustFor)));
    }

    /** The key whose secret hashes to {@code secretHash} changed in the books (revoked, or removed). */
    public synchronized void changed(String secretHash) {
        epoch++;
        keys.remove(secretHash);
    }

    /**
     * Whether changes are followed from now on: once they are (again), nothing kept before can be
     * trusted, and when they are no longer, nothing may be kept; either way all is forgotten.
     */
    public synchronized void following(boolean followed) {
        epoch++;
        keys.clear();
        following = followed;
    }
}
