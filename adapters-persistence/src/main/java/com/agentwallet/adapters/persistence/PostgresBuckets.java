package com.agentwallet.adapters.persistence;

import com.agentwallet.edge.limit.BucketStore;
import com.agentwallet.edge.limit.RateLimit;
import com.agentwallet.edge.limit.TokenBucket;
import org.jdbi.v3.core.Jdbi;

import java.time.Instant;

import static java.util.Objects.requireNonNull;

/**
 * Token buckets in the {@code rate_buckets} table, shared by every server process on the database:
 * one take is one upsert, atomic under the row's lock, applying {@link TokenBucket}'s arithmetic
 * with the taking process's clock. A bucket never seen before is inserted full less the token taken.
 */
public final class PostgresBuckets implements BucketStore {
    /** The bucket's micro-tokens after refilling from its stamp to {@code :now}, as {@link TokenBucket#take}. */
    private static final String REFILLED = "LEAST(:capacity, b.micro_tokens"
            + " + LEAST(GREATEST(:now - b.refilled_at_micros, 0), :fullAfter) * :perSecond)";
    private static final String TAKE = "INSERT INTO rate_buckets AS b (bucket, micro_tokens, refilled_at_micros, taken)"
            + " VALUES (:bucket, :firstTokens, :now, :firstTaken)"
            + " ON CONFLICT (bucket) DO UPDATE SET"
            + " micro_tokens = " + REFILLED + " - CASE WHEN " + REFILLED + " >= :one THEN :one ELSE 0 END,"
            + " taken = " + REFILLED + " >= :one,"
            + " refilled_at_micros = GREATEST(b.refilled_at_micros, :now)"
            + " RETURNING taken, micro_tokens";

    private final Jdbi jdbi;

    public PostgresBuckets(Jdbi jdbi) {
        this.jdbi = requireNonNull(jdbi, "jdbi is null");
    }

    @Override
    public TokenBucket.Draw take(String bucket, RateLimit limit, Instant now) {
        long nowMicros = TokenBucket.micros(now);
        TokenBucket.State first = TokenBucket.first(limit, nowMicros);
        return jdbi.withHandle(handle -> handle.createQuery(TAKE)
                .bind("bucket", bucket)
                .bind("now", nowMicros)
                .bind("capacity", TokenBucket.capacity(limit))
                .bind("fullAfter", TokenBucket.fullAfterMicros(limit))
                .bind("perSecond", limit.perSecond())
                .bind("one", TokenBucket.ONE)
                .bind("firstTokens", first.microTokens())
                .bind("firstTaken", first.draw().taken())
                .map((row, context) -> TokenBucket.draw(limit, row.getBoolean("taken"), row.getLong("micro_tokens")))
                .one());
    }
}
