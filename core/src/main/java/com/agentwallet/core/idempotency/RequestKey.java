package com.agentwallet.core.idempotency;

import com.agentwallet.core.common.Rejection;
import com.agentwallet.core.common.Result;
import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.idempotency.RequestKey;
import com.agentwallet.core.port.Stores;

import java.time.Instant;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * The idempotency key a creating request came with, if any, and whether the request was answered as
 * a replay of the key's first use. The use case claims the key in the unit of work that makes what
 * the request makes ({@link #once}), so the key and what it made commit together or not at all: a
 * retry after any failure, even a crash, either finds both or neither.
 */
public final class RequestKey {
    public static final int MAX_LENGTH = 255;

    private final Optional<KeyedRequest> key;
    private boolean replayed;

    private RequestKey(Optional<KeyedRequest> key) {
        this.key = key;
    }

    /** A request without a key: each one makes something. */
    public static RequestKey none() {
        return new RequestKey(Optional.empty());
    }

    /**
     * {@code key} of the organisation, sent with a request whose {@code fingerprint} is what makes two
     * requests "the same" (the operation, its target and its body).
     */
    public static RequestKey of(OrgId orgId, String key, String fingerprint, String param) {
        requireValid(key, param);
        return new RequestKey(Optional.of(new KeyedRequest(orgId, key, fingerprint, Optional.empty(), Instant.EPOCH)));
    }

    /** Refuses a key that is not 1 to 255 printable ASCII characters, naming {@code param}. */
    public static void requireValid(String key, String param) {
        ValidationException.check(!key.isEmpty() && key.length() <= MAX_LENGTH
                        && key.chars().allMatch(c -> c > 0x20 && c < 0x7f),
                param, "'" + param + "' must be 1 to " + MAX_LENGTH + " printable characters");
    }

    /**
     * Runs {@code work}, the unit of work that makes what the request makes, at most once per key:
     * <ul>
     * <li>the first use of the key (or its first use after its 24 h retention) runs {@code work}; when
     * it makes something, the key is kept naming it ({@code subjectOf}); when it is refused, the key
     * is released, since nothing was made, and a retry runs again;</li>
     * <li>a later use with the same fingerprint answers {@code replay} of what the first made, and
     * {@link #replayed()} says so;</li>
     * <li>a later use with another fingerprint is refused ({@code idempotency_conflict}).</li>
     * </ul>
     * The key is claimed before {@code work} runs: it is first in the global lock order.
     */
    public <T> Result<T> once(Stores stores, Instant now, Supplier<Result<T>> work, Function<T, String> subjectOf,
                              Function<String, Result<T>> replay) {
        requireNonNull(stores, "stores is null");
        if (key.isEmpty()) {
            return work.get();
        }
        KeyedRequest mine = new KeyedRequest(key.get().orgId(), key.get().key(), key.get().fingerprint(),
                Optional.empty(), now);
        if (!stores.requestKeys().insertIfAbsent(mine)) {
            Optional<KeyedRequest> first = stores.requestKeys().find(mine.orgId(), mine.key())
                    .filter(found -> found.isLiveAt(now));
            if (first.isPresent()) {
                if (!first.get().fingerprint().equals(mine.fingerprint())) {
                    return Result.refused(new Rejection.IdempotencyConflict(mine.key()));
                }
                replayed = true;
                return replay.apply(first.get().subject().orElseThrow(
                        () -> new IllegalStateException("key " + mine.key() + " was committed without its subject")));
            }
            stores.requestKeys().delete(mine.orgId(), mine.key());
            if (!stores.requestKeys().insertIfAbsent(mine)) {
                throw new IllegalStateException("key " + mine.key() + " was taken again while it was being reused");
            }
        }
        replayed = false;
        Result<T> made = work.get();
        if (made.isOk()) {
            stores.requestKeys().setSubject(mine.orgId(), mine.key(), subjectOf.apply(made.value()));
        } else {
            stores.requestKeys().delete(mine.orgId(), mine.key());
        }
        return made;
    }

    /** Whether the last {@link #once} answered a replay of the key's first use. */
    public boolean replayed() {
        return replayed;
    }
}
