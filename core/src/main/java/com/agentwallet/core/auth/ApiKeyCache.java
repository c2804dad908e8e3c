package com.agentwallet.core.auth;

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
 * <p>A lookup that raced a change is not kept: every change moves the epoch, and a key read under an
 * older epoch than the current one is dropped. So a key read before its revocation was committed
 * cannot be kept after the revocation was heard. Only live keys are kept; an unknown or revoked
 * secret is looked up every time.
 */
public final class ApiKeyCache {
    /** Keys kept at most; when full, all are forgotten at once and looked up again as they come. */
    static final int MAX_KEYS = 10_000;

    private final ConcurrentHashMap<String, ApiKey> keys = new ConcurrentHashMap<>();
    private long epoch;
    private boolean following;

    /** The kept key whose secret hashes to {@code secretHash}. */
    Optional<ApiKey> find(String secretHash) {
        return Optional.ofNullable(keys.get(secretHash));
    }

    /** The epoch to pass to {@link #keep} for a lookup that starts now. */
    synchronized long epoch() {
        return epoch;
    }

    /** Keeps a live key looked up since {@code readAt}, unless something changed meanwhile or changes are not followed. */
    synchronized void keep(long readAt, ApiKey key) {
        requireNonNull(key, "key is null");
        if (!following || readAt != epoch || key.isRevoked()) {
            return;
        }
        if (keys.size() >= MAX_KEYS) {
            keys.clear();
        }
        keys.put(key.secretHash(), key);
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
