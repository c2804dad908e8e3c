package com.agentwallet.adapters.persistence;

import com.agentwallet.core.port.StorageUnavailableException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Batches form from what queues behind a running batch of the same key; every item gets its own
 * result; a failing item fails alone, an unavailable storage fails the whole batch at once.
 */
class GroupCommitTest {
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final List<List<String>> batches = Collections.synchronizedList(new ArrayList<>());
    private final CountDownLatch firstBatchStarted = new CountDownLatch(1);
    private final CountDownLatch firstBatchMayFinish = new CountDownLatch(1);

    @AfterEach
    void stop() {
        threads.shutdownNow();
    }

    @Test
    void whatQueuesBehindARunningBatchGoesTogetherInArrivalOrder() throws Exception {
        GroupCommit<String, String, String> commit = new GroupCommit<>(32, heldFirst(items -> items.stream()
                .map(String::toUpperCase).toList()));

        Future<String> first = submitAndAwaitItsBatch(commit, "wallet", "a");
        List<Future<String>> queued = new ArrayList<>();
        for (String item : List.of("b", "c", "d")) {
            queued.add(submitAndAwaitWaiting(commit, "wallet", item));
        }
        firstBatchMayFinish.countDown();

        assertThat(first.get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isEqualTo("A");
        List<String> results = new ArrayList<>();
        for (Future<String> result : queued) {
            results.add(result.get(PATIENCE.toSeconds(), TimeUnit.SECONDS));
        }
        assertThat(results).containsExactly("B", "C", "D");
        assertThat(batches).containsExactly(List.of("a"), List.of("b", "c", "d"));
    }

    @Test
    void aBatchHoldsAtMostItsLimitAndTheRestFollows() throws Exception {
        GroupCommit<String, String, String> commit = new GroupCommit<>(2, heldFirst(items -> items));

        Future<String> first = submitAndAwaitItsBatch(commit, "wallet", "a");
        List<Future<String>> queued = new ArrayList<>();
        for (String item : List.of("b", "c", "d")) {
            queued.add(submitAndAwaitWaiting(commit, "wallet", item));
        }
        firstBatchMayFinish.countDown();

        first.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        for (Future<String> result : queued) {
            result.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        }
        assertThat(batches).containsExactly(List.of("a"), List.of("b", "c"), List.of("d"));
    }

    @Test
    void otherKeysDoNotWait() throws Exception {
        GroupCommit<String, String, String> commit = new GroupCommit<>(32, heldFirst(items -> items));

        Future<String> held = submitAndAwaitItsBatch(commit, "wallet-1", "a");
        String other = threads.submit(() -> commit.submit("wallet-2", "b")).get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        firstBatchMayFinish.countDown();

        assertThat(other).isEqualTo("b");
        assertThat(held.get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isEqualTo("a");
        assertThat(batches).containsExactly(List.of("a"), List.of("b"));
    }

    @Test
    void aFailedBatchIsRunAgainItemByItemSoThatOnlyTheFailingItemFails() throws Exception {
        GroupCommit<String, String, String> commit = new GroupCommit<>(32, heldFirst(items -> {
            if (items.contains("poison")) {
                throw new IllegalStateException("cannot book poison");
            }
            return items;
        }));

        Future<String> first = submitAndAwaitItsBatch(commit, "wallet", "a");
        Future<String> before = submitAndAwaitWaiting(commit, "wallet", "b");
        Future<String> poison = submitAndAwaitWaiting(commit, "wallet", "poison");
        Future<String> after = submitAndAwaitWaiting(commit, "wallet", "c");
        firstBatchMayFinish.countDown();

        assertThat(first.get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isEqualTo("a");
        assertThat(before.get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isEqualTo("b");
        assertThat(after.get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isEqualTo("c");
        assertThatThrownBy(() -> poison.get(PATIENCE.toSeconds(), TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).hasRootCauseMessage("cannot book poison");
        assertThat(batches).containsExactly(List.of("a"), List.of("b", "poison", "c"), List.of("b"),
                List.of("poison"), List.of("c"));
    }

    @Test
    void anUnavailableStorageFailsTheWholeBatchWithoutRunningItAgain() throws Exception {
        GroupCommit<String, String, String> commit = new GroupCommit<>(32, heldFirst(items -> {
            if (items.size() > 1) {
                throw new StorageUnavailableException("the database connection failed", null);
            }
            return items;
        }));

        Future<String> first = submitAndAwaitItsBatch(commit, "wallet", "a");
        Future<String> b = submitAndAwaitWaiting(commit, "wallet", "b");
        Future<String> c = submitAndAwaitWaiting(commit, "wallet", "c");
        firstBatchMayFinish.countDown();

        first.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        for (Future<String> failed : List.of(b, c)) {
            assertThatThrownBy(() -> failed.get(PATIENCE.toSeconds(), TimeUnit.SECONDS))
                    .hasCauseInstanceOf(StorageUnavailableException.class);
        }
        assertThat(batches).containsExactly(List.of("a"), List.of("b", "c"));
    }

    /** {@code work}, noting each batch; the first batch waits until the test lets it finish. */
    private Function<List<String>, List<String>> heldFirst(Function<List<String>, List<String>> work) {
        return items -> {
            boolean first = batches.isEmpty();
            batches.add(List.copyOf(items));
            if (first) {
                firstBatchStarted.countDown();
                await(firstBatchMayFinish);
            }
            return work.apply(items);
        };
    }

    private Future<String> submitAndAwaitItsBatch(GroupCommit<String, String, String> commit, String key, String item)
            throws InterruptedException {
        Future<String> result = threads.submit(() -> commit.submit(key, item));
        assertThat(firstBatchStarted.await(PATIENCE.toSeconds(), TimeUnit.SECONDS)).as("the first batch started").isTrue();
        return result;
    }

    /** Submits from a thread of its own and returns once that thread waits in the queue. */
    private Future<String> submitAndAwaitWaiting(GroupCommit<String, String, String> commit, String key, String item)
            throws InterruptedException {
        CountDownLatch started = new CountDownLatch(1);
        Thread[] submitter = new Thread[1];
        Future<String> result = threads.submit(() -> {
            submitter[0] = Thread.currentThread();
            started.countDown();
            return commit.submit(key, item);
        });
        started.await(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (submitter[0].getState() != Thread.State.WAITING && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertThat(submitter[0].getState()).as("%s waits in the queue", item).isEqualTo(Thread.State.WAITING);
        return result;
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
