package com.agentwallet.adapters.persistence;

import com.agentwallet.core.port.StorageUnavailableException;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;

import static java.util.Objects.requireNonNull;

/**
 * Work on one key (an organisation and a kind of claim, see {@link JdbiStorage#inBatch}) submitted by
 * many threads at once, run in batches: the first thread to find the key idle leads, running its own
 * item and whatever queued behind the batch before it, in arrival order, as one call of {@code run}
 * (one database transaction: the claimed rows are locked together, and the commit waits for the disk
 * once for the whole batch instead of once per payment). When it is done, the first item still queued
 * is promoted and leads the next batch. Without contention every batch holds one item, and nothing
 * waits.
 *
 * <p>A batch that fails whole (its transaction rolled back) is run again item by item, so that one
 * item that cannot be done fails alone; unless the storage is unavailable, which fails them all at once.
 */
final class GroupCommit<K, T, R> {
    private final int maxBatch;
    private final Function<List<T>, List<R>> run;
    private final ConcurrentHashMap<K, Lane> lanes = new ConcurrentHashMap<>();

    /** {@code run} answers one result (never null) per item, in order; {@code maxBatch} items at most go together. */
    GroupCommit(int maxBatch, Function<List<T>, List<R>> run) {
        if (maxBatch < 1) {
            throw new IllegalArgumentException("a batch holds at least one item");
        }
        this.maxBatch = maxBatch;
        this.run = requireNonNull(run, "run is null");
    }

    /** Runs {@code item} in a batch of the key's, and answers its result (or throws its failure). */
    R submit(K key, T item) {
        Slot slot = new Slot(item);
        Lane lane = join(key, slot);
        if (!slot.leads) {
            slot.awaitTurn();
        }
        if (!slot.done) {
            lead(key, lane);
        }
        return slot.outcome();
    }

    /** Queues the slot on the key's lane; it leads if the lane was idle. */
    private Lane join(K key, Slot slot) {
        while (true) {
            Lane lane = lanes.computeIfAbsent(key, k -> new Lane());
            synchronized (lane) {
                if (lane.retired) {
                    continue;
                }
                lane.queue.add(slot);
                if (!lane.busy) {
                    lane.busy = true;
                    slot.leads = true;
                }
                return lane;
            }
        }
    }

    /** Runs one batch from the head of the lane (this thread's own slot), then hands the lane on. */
    private void lead(K key, Lane lane) {
        List<Slot> batch = new ArrayList<>();
        synchronized (lane) {
            while (!lane.queue.isEmpty() && batch.size() < maxBatch) {
                batch.add(lane.queue.poll());
            }
        }
        try {
            execute(batch);
        } finally {
            Slot next;
            synchronized (lane) {
                next = lane.queue.peek();
                if (next == null) {
                    lane.busy = false;
                    lane.retired = true;
                    lanes.remove(key, lane);
                }
            }
            batch.forEach(Slot::finish);
            if (next != null) {
                next.promote();
            }
        }
    }

    private void execute(List<Slot> batch) {
        try {
            List<R> results = run.apply(batch.stream().map(slot -> slot.item).toList());
            for (int i = 0; i < batch.size(); i++) {
                batch.get(i).result = results.get(i);
            }
        } catch (StorageUnavailableException e) {
            batch.forEach(slot -> slot.failure = e);
        } catch (RuntimeException e) {
            if (batch.size() == 1) {
                batch.get(0).failure = e;
                return;
            }
            batch.forEach(slot -> execute(List.of(slot)));
        }
    }

    /** The queue of one key: {@code busy} while a leader runs a batch; retired once left idle and removed. */
    private final class Lane {
        final ArrayDeque<Slot> queue = new ArrayDeque<>();
        boolean busy;
        boolean retired;
    }

    /** One submitted item: woken once, either done (by its batch's leader) or promoted to lead. */
    private final class Slot {
        final T item;
        final CountDownLatch wake = new CountDownLatch(1);
        boolean leads;
        volatile boolean done;
        R result;
        RuntimeException failure;

        Slot(T item) {
            this.item = item;
        }

        /** Done: with its result or failure, or failed with the batch if the leader met an error. */
        void finish() {
            if (result == null && failure == null) {
                failure = new IllegalStateException("the batch it was in did not finish");
            }
            done = true;
            wake.countDown();
        }

        void promote() {
            wake.countDown();
        }

        void awaitTurn() {
            boolean interrupted = false;
            while (true) {
                try {
                    wake.await();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }

        R outcome() {
            if (failure != null) {
                throw failure;
            }
            return result;
        }
    }
}
