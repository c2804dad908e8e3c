package com.agentwallet.core.idempotency;

import com.agentwallet.core.port.Storage;

import java.time.Clock;

import static java.util.Objects.requireNonNull;

/** The retention of creating requests' idempotency keys ({@link RequestKey}): 24 h. */
public final class RequestKeys {
    private final Storage storage;
    private final Clock clock;

    public RequestKeys(Storage storage, Clock clock) {
        this.storage = requireNonNull(storage, "storage is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** Clockwork: forgets up to {@code limit} keys past their retention; answers how many. */
    public int forgetExpired(int limit) {
        return storage.inTransaction(stores -> stores.requestKeys()
                .deleteCreatedBefore(clock.instant().minus(KeyedRequest.RETENTION), limit));
    }
}
