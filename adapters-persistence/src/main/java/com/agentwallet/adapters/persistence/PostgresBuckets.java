package com.agentwallet.adapters.persistence;

import com.agentwallet.edge.limit.BucketStore;
import com.agentwallet.edge.limit.RateLimit;
import com.agentwallet.edge.limit.TokenBucket;
import org.jdbi.v3.core.Jdbi;

import java.time.Instant;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Token buckets in the {@code rate_buckets} table, shared by every server process on the database:
 * a take is one upsert, atomic under the row's lock, applying {@link TokenBucket}'s arithmetic with
 * the taking process's clock. A bucket never seen before is inserted full, less what is taken.
 *
 * <p>The takes of one bucket that arrive while one is in the database go together as the next
 * upsert ({@link GroupCommit}): it takes as many tokens as there are takes, or what is left, and
 * hands them out in arrival order. The budget stays exact, and a busy organisation costs the
 * database one statement per round trip instead of one per request.
 */
public final class PostgresBuckets implements BucketStore {
    /** Takes of one bucket drawn by one statement at most. */
    private static final int MAX_BATCH = 256;
    /** The bucket's micro-tokens after refilling from its stamp to {@code :now}, as {@link TokenBucket#refilled}. */
    private static final String REFILLED = "LEAST(:capacity, b.micro_tokens"
            + " + LEAST(GREATEST(:now - b.refilled_at_micros, 0), :fullAfter) * :perSecond)";
    private static final String TAKEN = "LEAST(:count, " + REFILLED + " / :one)";
    private static final String TAKE = "INSERT INTO rate_buckets AS b (bucket, micro_tokens, refilled_at_micros, taken)"
            + " VALUES (:bucket, :capacity - :firstTaken * :one, :now, :firstTaken)"
            + " ON CONFLICT (bucket) DO UPDATE SET"
            + " micro_tokens = " + REFILLED + " - " + TAKEN + " * :one,"
            + " taken = " + TAKEN + ","
            + " refilled_at_micros = GREATEST(b.refilled_at_micros, :now)"
            + " RETURNING taken, micro_tokens";

    private final Jdbi jdbi;
    private final GroupCommit<String, Take, TokenBucket.Draw> takes;

    /** One take: the bucket's shape and the taker's clock. */
    private record Take(String bucket, RateLimit limit, long nowMicros) {
    }

    public PostgresBuckets(Jdbi jdbi) {
        this.jdbi = requireNonNull(jdbi, "jdbi is null");
        this.takes = new GroupCommit<>(MAX_BATCH, this::takeTogether);
    }

    @Override
    public TokenBucket.Draw take(String bucket, RateLimit limit, Instant now) {
        return takes.submit(bucket, new Take(bucket, limit, TokenBucket.micros(now)));
    }

    /** The takes of one bucket, by one upsert refilled to the latest of their clocks. */
    private List<TokenBucket.Draw> takeTogether(List<Take> batch) {
        Take first = batch.get(0);
        RateLimit limit = first.limit();
        int count = batch.size();
        long now = batch.stream().mapToLong(Take::nowMicros).max().orElseThrow();
        long refilled = JdbiStorage.failingAsUnavailable(() -> jdbi.withHandle(handle -> handle.createQuery(TAKE)
                .bind("bucket", first.bucket())
                .bind("now", now)
                .bind("capacity", TokenBucket.capacity(limit))
                .bind("fullAfter", TokenBucket.fullAfterMicros(limit))
                .bind("perSecond", limit.perSecond())
                .bind("one", TokenBucket.ONE)
                .bind("count", count)
                .bind("firstTaken", TokenBucket.taken(TokenBucket.capacity(limit), count))
                .map((row, context) -> row.getLong("micro_tokens") + row.getLong("taken") * TokenBucket.ONE)
                .one()));
        return TokenBucket.draws(limit, refilled, count);
    }
}
