package com.agentwallet.edge.limit;

import java.time.Instant;

/**
 * Where token buckets are kept. Organisations' buckets are shared by every server process, so
 * production keeps them in the database; {@link MemoryBuckets} keeps them in this process. Every
 * store follows the arithmetic of {@link TokenBucket}, so all give the same answers.
 */
public interface BucketStore {
    /** Takes one token, if there is one, from the bucket named {@code bucket} of shape {@code limit}, at {@code now}. */
    TokenBucket.Draw take(String bucket, RateLimit limit, Instant now);
}
