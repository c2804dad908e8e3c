package com.agentwallet.bench.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.jdbi.v3.core.Jdbi;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The export of one wallet's long history: the rows are seeded by SQL (a million payments through
 * the API would take longer than the whole run), then the export goes through the API as a client
 * does it: request, poll until ready, download. The download is streamed and counted, never held.
 * Meanwhile the server's memory is sampled every 100 ms: its resident set from /proc and its heap
 * from the admin port's metrics, so that "constant memory for any length" shows as a peak close to
 * what it was before.
 */
final class ExportMeasurement {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration READY_LIMIT = Duration.ofMinutes(15);
    private static final Duration SAMPLE_EVERY = Duration.ofMillis(100);

    /** What one export measured. */
    record Outcome(String format, double readySeconds, double downloadSeconds, long bytes, long rows, long jobRows,
                   long expectedRows, Memory before, Memory peak) {
        double megabytesPerSecond() {
            return bytes / 1e6 / downloadSeconds;
        }

        String summary() {
            return String.format(Locale.ROOT, "export %s of %d rows: ready after %.1f s, download %.1f s (%.1f MB, "
                            + "%.1f MB/s), %d rows downloaded, job row_count %d%s; server memory before: RSS %s, heap %s; "
                            + "peak during: RSS %s, heap %s", format, expectedRows, readySeconds, downloadSeconds,
                    bytes / 1e6, megabytesPerSecond(), rows, jobRows,
                    rows == expectedRows && jobRows == expectedRows ? " (as seeded)" : " (NOT AS SEEDED: "
                            + expectedRows + " expected)",
                    Memory.mb(before.rss()), Memory.mb(before.heap()), Memory.mb(peak.rss()), Memory.mb(peak.heap()));
        }
    }

    /** The server's resident set and heap in use, in bytes; -1 when unknown. */
    record Memory(long rss, long heap) {
        Memory max(Memory other) {
            return new Memory(Math.max(rss, other.rss), Math.max(heap, other.heap));
        }

        static String mb(long bytes) {
            return bytes < 0 ? "unknown" : String.format(Locale.ROOT, "%.0f MB", bytes / 1e6);
        }
    }

    private final LaunchedServer server;

    ExportMeasurement(LaunchedServer server) {
        this.server = server;
    }

    /**
     * Adds confirmed payments to {@code walletId} until it has {@code rows} transactions, in one
     * {@code INSERT ... SELECT} over {@code generate_series}: ids in the service's format, each row a
     * millisecond older than the last, so that the history is ordered as the API's is. Answers how
     * many rows it added.
     */
    static long seed(Jdbi jdbi, String orgId, String walletId, long rows, String payee, String signature) {
        return jdbi.inTransaction(h -> {
            long existing = h.createQuery("SELECT count(*) FROM transactions WHERE wallet_id = :wallet")
                    .bind("wallet", walletId).mapTo(Long.class).one();
            long missing = Math.max(0, rows - existing);
            h.createUpdate("INSERT INTO transactions (id, org_id, wallet_id, type, status, amount_micros, recipient, "
                            + "memo, policy_triggered, violation_rule, violation_limit, violation_attempted, signature, "
                            + "slot, co_signer, co_sign_payload, co_sign_expires_at, co_signature, co_sign_requested_by, "
                            + "escrow_id, failure_reason, created_at, updated_at) "
                            + "SELECT 'tx_Seed' || lpad(g::text, 20, '0'), :org, :wallet, 'payment', 'confirmed', 10000, "
                            + ":payee, NULL, false, NULL, NULL, NULL, :signature, g, NULL, NULL, NULL, NULL, NULL, NULL, "
                            + "NULL, now() - g * interval '1 millisecond', now() - g * interval '1 millisecond' "
                            + "FROM generate_series(1, :missing) AS g")
                    .bind("org", orgId).bind("wallet", walletId).bind("payee", payee).bind("signature", signature)
                    .bind("missing", missing).execute();
            return missing;
        });
    }

    /** Requests an export of {@code walletId} in {@code format}, waits until it is ready and downloads it. */
    Outcome run(String walletId, String format, long expectedRows) throws IOException, InterruptedException {
        Memory before;
        try (HttpConnection admin = server.admin(new AtomicInteger())) {
            before = sample(admin);
        }
        Sampler sampler = new Sampler();
        Thread sampling = new Thread(sampler, "export memory sampler");
        sampling.setDaemon(true);
        sampling.start();
        try (HttpConnection api = server.api(new AtomicInteger())) {
            long started = System.nanoTime();
            HttpConnection.Response requested = api.send("POST", "/v1/transactions/export",
                    "{\"format\":\"" + format + "\",\"wallet_id\":\"" + walletId + "\"}");
            if (requested.status() != 202) {
                throw new IllegalStateException("POST /v1/transactions/export answered " + requested.status() + ": "
                        + requested.body());
            }
            String id = JSON.readTree(requested.body()).path("id").asText();
            JsonNode job = awaitReady(api, id, started);
            long ready = System.nanoTime();
            Counter counter = new Counter(format.equals("csv") ? "\n" : "\"tx_id\"");
            int status = api.stream("/v1/transactions/exports/" + id + "/download", counter);
            long downloaded = System.nanoTime();
            if (status != 200) {
                throw new IllegalStateException("the download of export " + id + " answered " + status);
            }
            // A CSV file has a header row; a JSON file names every transaction's tx_id once.
            long rows = format.equals("csv") ? counter.matches - 1 : counter.matches;
            return new Outcome(format, (ready - started) / 1e9, (downloaded - ready) / 1e9, counter.bytes, rows,
                    job.path("row_count").asLong(-1), expectedRows, before, sampler.peak.get());
        } finally {
            sampler.running = false;
            sampling.join(SAMPLE_EVERY.toMillis() * 20);
        }
    }

    private static JsonNode awaitReady(HttpConnection api, String id, long started)
            throws IOException, InterruptedException {
        while (true) {
            HttpConnection.Response polled = api.send("GET", "/v1/transactions/exports/" + id, null);
            JsonNode job = JSON.readTree(polled.body());
            String status = job.path("status").asText();
            if (polled.status() == 200 && status.equals("ready")) {
                return job;
            }
            if (polled.status() != 200 || status.equals("failed")) {
                throw new IllegalStateException("export " + id + ": " + polled.status() + " " + polled.body());
            }
            if (System.nanoTime() - started > READY_LIMIT.toNanos()) {
                throw new IllegalStateException("export " + id + " not ready after " + READY_LIMIT.toMinutes() + " min");
            }
            Thread.sleep(250);
        }
    }

    private Memory sample(HttpConnection admin) {
        long heap;
        try {
            HttpConnection.Response metrics = admin.send("GET", "/metrics", null);
            heap = metrics.status() == 200
                    ? JSON.readTree(metrics.body()).path("gauges").path("jvm.memory.heap.used").path("value").asLong(-1)
                    : -1;
        } catch (IOException e) {
            heap = -1;
        }
        return new Memory(server.residentBytes(), heap);
    }

    /** Samples the server's memory until told to stop, keeping the peak of each. */
    private final class Sampler implements Runnable {
        final AtomicReference<Memory> peak = new AtomicReference<>(new Memory(-1, -1));
        volatile boolean running = true;

        @Override
        public void run() {
            try (HttpConnection admin = server.admin(new AtomicInteger())) {
                while (running) {
                    Memory now = sample(admin);
                    peak.updateAndGet(p -> p.max(now));
                    Thread.sleep(SAMPLE_EVERY.toMillis());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Counts bytes and the occurrences of a short ASCII marker in a streamed body. */
    static final class Counter implements HttpConnection.Sink {
        private final byte[] marker;
        private int matched;
        long bytes;
        long matches;

        Counter(String marker) {
            this.marker = marker.getBytes(StandardCharsets.US_ASCII);
        }

        /**
         * A match state that restarts on the marker's first byte is enough: neither marker ("\n",
         * "\"tx_id\"") has a proper prefix that is also a suffix but the quote, and two tx_id names
         * never touch in JSON.
         */
        @Override
        public void accept(byte[] data, int offset, int length) {
            bytes += length;
            for (int i = offset; i < offset + length; i++) {
                byte b = data[i];
                if (b == marker[matched]) {
                    if (++matched == marker.length) {
                        matches++;
                        matched = 0;
                    }
                } else {
                    matched = b == marker[0] ? 1 : 0;
                }
            }
        }
    }
}
