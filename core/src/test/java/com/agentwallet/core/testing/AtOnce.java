package com.agentwallet.core.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** Calls made at once: every call waits on one latch, released when all are queued on the threads. */
public final class AtOnce {
    private AtOnce() {
    }

    /** Runs {@code calls} on {@code threads} threads, released together; answers their results in order. */
    public static <T> List<T> call(int threads, List<Callable<T>> calls) throws InterruptedException, ExecutionException {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<T>> answers = new ArrayList<>();
            for (Callable<T> call : calls) {
                answers.add(pool.submit(() -> {
                    go.await();
                    return call.call();
                }));
            }
            go.countDown();
            List<T> results = new ArrayList<>();
            for (Future<T> answer : answers) {
                results.add(answer.get());
            }
            return results;
        } finally {
            pool.shutdown();
        }
    }
}
