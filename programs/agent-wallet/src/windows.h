/*
 * Rolling spend windows, the same semantics as com.agentwallet.adapters.sim.SpendBuckets: a
 * window's total counts the buckets that lie wholly inside it (the current bucket and the n-1
 * before it), so it never counts a spend older than the window and may leave out at most one
 * bucket's worth at the far edge: never stricter than the service's exact check.
 *
 * A co-signed payment counts at the instant the books held it (`counted_at`, before `now`): each window
 * still holding that instant checks it and keeps it in that instant's bucket, so it leaves the window
 * when the books' hold does; a window that no longer holds it neither checks nor keeps it.
 *
 * Should the clock ever move backwards, spends recorded at a later time keep counting (as if made
 * now) instead of dropping out of the window, and a spend at the earlier time is added to the later
 * bucket sharing its slot rather than wiping it: never laxer for it.
 */
#ifndef AGENT_WALLET_WINDOWS_H
#define AGENT_WALLET_WINDOWS_H

#include "layout.h"

static inline u64 bucket_epoch(i64 now, u64 bucket_seconds) {
    return now <= 0 ? 0 : (u64)now / bucket_seconds;
}

/* Whether the window at `now` counts a spend made at `at`: its bucket is among the n counted. */
static inline bool window_holds(u64 n, u64 bucket_seconds, i64 at, i64 now) {
    return bucket_epoch(at, bucket_seconds) + n > bucket_epoch(now, bucket_seconds);
}

typedef struct {
    u64 amount;
    u64 count;
} WindowTotal;

/* When a spend lands (`now`) and the instant it counts at (`now` but for a co-signed payment held earlier). */
typedef struct {
    i64 now;
    i64 counted_at;
} SpendTime;

static NOINLINE void window_total(const Bucket *buckets, u64 n, u64 bucket_seconds, i64 now, WindowTotal *out) {
    u64 current = bucket_epoch(now, bucket_seconds);
    u64 amount = 0;
    u64 count = 0;
    for (u64 i = 0; i < n; i++) {
        u64 stored = buckets[i].epoch_plus_one;
        if (stored == 0) {
            continue;
        }
        u64 epoch = stored - 1;
        if (epoch + n > current) {
            amount += buckets[i].amount;
            count += buckets[i].count;
        }
    }
    out->amount = amount;
    out->count = count;
}

static NOINLINE void window_add(Bucket *buckets, u64 n, u64 bucket_seconds, i64 at, u64 micros) {
    u64 epoch = bucket_epoch(at, bucket_seconds);
    Bucket *bucket = &buckets[epoch % n];
    if (bucket->epoch_plus_one < (u32)(epoch + 1)) {
        bucket->epoch_plus_one = (u32)(epoch + 1);
        bucket->amount = 0;
        bucket->count = 0;
    }
    bucket->amount += micros;
    bucket->count += 1;
}

/* Takes a spend back out (a refunded escrow), from the buckets that still hold it. */
static NOINLINE void window_remove(Bucket *buckets, u64 n, u64 bucket_seconds, i64 at, u64 micros) {
    u64 epoch = bucket_epoch(at, bucket_seconds);
    Bucket *bucket = &buckets[epoch % n];
    if (bucket->epoch_plus_one == (u32)(epoch + 1)) {
        bucket->amount = bucket->amount > micros ? bucket->amount - micros : 0;
        bucket->count = bucket->count > 0 ? bucket->count - 1 : 0;
    }
}

/* Adds a spend to the bucket of the instant it counts at, in each window that still holds that instant. */
static void spend_add(Wallet *wallet, const SpendTime *at, u64 micros) {
    if (window_holds(HOUR_BUCKETS, HOUR_BUCKET_SECONDS, at->counted_at, at->now)) {
        window_add(wallet->hour, HOUR_BUCKETS, HOUR_BUCKET_SECONDS, at->counted_at, micros);
    }
    if (window_holds(DAY_BUCKETS, DAY_BUCKET_SECONDS, at->counted_at, at->now)) {
        window_add(wallet->day, DAY_BUCKETS, DAY_BUCKET_SECONDS, at->counted_at, micros);
    }
    if (window_holds(MONTH_BUCKETS, MONTH_BUCKET_SECONDS, at->counted_at, at->now)) {
        window_add(wallet->month, MONTH_BUCKETS, MONTH_BUCKET_SECONDS, at->counted_at, micros);
    }
}

static void spend_remove(Wallet *wallet, i64 at, u64 micros) {
    window_remove(wallet->hour, HOUR_BUCKETS, HOUR_BUCKET_SECONDS, at, micros);
    window_remove(wallet->day, DAY_BUCKETS, DAY_BUCKET_SECONDS, at, micros);
    window_remove(wallet->month, MONTH_BUCKETS, MONTH_BUCKET_SECONDS, at, micros);
}

#endif
