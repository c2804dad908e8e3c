package com.agentwallet.bench.service;

import com.agentwallet.adapters.persistence.PersistenceSettings;
import com.agentwallet.bench.store.CpuMeter;
import com.agentwallet.bench.store.Pgbench;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * pgbench against the service's database while the service idles, with three scripts
 * ({@link Script}, under {@code src/main/resources/pgbench}): the yardstick, and the
 * service's own statements for a payment, alone and four payments to a transaction. The yardstick is
 * what the service is measured against; the service's own statements, with no HTTP, TLS, JSON or
 * JVM around them, are the most the service could reach with its SQL as it is, and the batched
 * version the most that group commit across wallets could make of it.
 *
 * <p>Setup: {@code bench_wallets} numbers the wallets (1..N the pool, 0 the hot wallet), so that a
 * script finds one by a random number; the bodies, signature and fingerprint the scripts write are
 * copied from rows of payments the service made.
 *
 * <p>The server runs while pgbench does, so the rows pgbench writes must be rows the service can
 * read: its background fan-out reads every new outbox event. So ids are in the service's format,
 * a prefix and 24 characters, unique per run, client and payment: {@code <tag><client><seq>}, the
 * tag a letter pair of the script and the run's number ({@code Pgb001}), zero-padded.
 */
final class PgbenchReference {
    /** A pgbench script, and how many payments one execution of it makes. */
    enum Script {
        /** The SQL shape of one payment as the service's goal names it, in one transaction: the yardstick. */
        REFERENCE("reference.sql", "Pgb", 1),
        /** The service's own statements for one payment, in its two transactions and four requests. */
        SERVICE("service.sql", "Pgs", 1),
        /** The service's statements for four payments of four wallets, one statement per kind. */
        SERVICE_BATCHED("service-batched.sql", "Pgc", 4);

        final String file;
        final String tag;
        final int payments;
        final String text;

        Script(String file, String tag, int payments) {
            this.file = file;
            this.tag = tag;
            this.payments = payments;
            try (var in = PgbenchReference.class.getResourceAsStream("/pgbench/" + file)) {
                if (in == null) {
                    throw new IllegalStateException("no pgbench script " + file + " in the benchmark's resources");
                }
                this.text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** One pgbench run and the CPU it took: pgbench itself, PostgreSQL, and the idle service's JVM. */
    record Run(Script script, Pgbench.Outcome outcome, long rowsWritten, double pgbenchCpu, double postgresCpu,
               double serverCpu) {
        long payments() {
            return outcome.processed() * script.payments;
        }

        /** Payments per second, if pgbench finished cleanly and wrote a confirmed row for each payment. */
        Optional<Double> perSecond() {
            return finished() && rowsWritten == payments() ? outcome.tps().map(tps -> tps * script.payments)
                    : Optional.empty();
        }

        private boolean finished() {
            return outcome.clean() && outcome.failed() == 0 && outcome.tps().isPresent();
        }

        String summary() {
            if (!finished()) {
                return "did not finish cleanly; its output:\n" + outcome.output();
            }
            long n = payments();
            return String.format(Locale.ROOT, "%.1f payments/s (%.1f tps of %d a transaction), latency average %.2f "
                            + "ms, %d payments, %d confirmed transaction rows written%s; CPU ms per payment: pgbench "
                            + "%.3f, PostgreSQL %.3f, server JVM (idle) %.3f", outcome.tps().get() * script.payments,
                    outcome.tps().get(), script.payments, outcome.latencyMs().orElse(Double.NaN), n, rowsWritten,
                    rowsWritten == n ? "" : " (NOT one per payment: no figure)", pgbenchCpu * 1000 / n,
                    postgresCpu * 1000 / n, serverCpu * 1000 / n);
        }
    }

    private final Pgbench pgbench;
    private final Jdbi jdbi;
    private final CpuMeter cpu;
    private final long serverPid;
    private final int poolSize;
    private final Map<String, String> common = new LinkedHashMap<>();
    private int runs;

    /**
     * Maps the wallets to numbers for the script ({@code bench_wallets}: 1..N the pool, 0 the hot
     * wallet) and takes an outbox body and a signature from payments the service made.
     */
    PgbenchReference(Path executable, Path workDir, LaunchedServer server, Jdbi jdbi, CpuMeter cpu, List<String> pool,
                     String hot, String payee, long amountMicros) throws IOException {
        this.pgbench = new Pgbench(executable, workDir, server.postgresPort(), PersistenceSettings.EMBEDDED_DATABASE);
        this.jdbi = jdbi;
        this.cpu = cpu;
        this.serverPid = server.pid();
        this.poolSize = pool.size();
        Pgbench.numberWallets(jdbi, pool, hot);
        jdbi.useHandle(h -> {
            common.put("org", server.orgId());
            common.put("payee", payee);
            common.put("amount", Long.toString(amountMicros));
            common.put("seq", "0");
            common.put("completed_body", latestBody(h, "transaction.completed"));
            common.put("pending_body", latestBody(h, "transaction.pending"));
            common.put("response_body", h.createQuery("SELECT response_body FROM idempotency_keys "
                    + "WHERE response_status = 200 ORDER BY created_at DESC LIMIT 1").mapTo(String.class).one());
            common.put("fingerprint", h.createQuery("SELECT fingerprint FROM idempotency_keys "
                    + "ORDER BY created_at DESC LIMIT 1").mapTo(String.class).one());
        });
        common.put("signature", signature(jdbi));
    }

    private static String latestBody(Handle h, String type) {
        return h.createQuery("SELECT body::text FROM outbox_events WHERE type = :type ORDER BY seq DESC LIMIT 1")
                .bind("type", type).mapTo(String.class).one();
    }

    /** The ledger signature of a payment the service confirmed. */
    static String signature(Jdbi jdbi) {
        return jdbi.withHandle(h -> h.createQuery("SELECT signature FROM transactions WHERE type = 'payment' "
                + "AND status = 'confirmed' AND signature IS NOT NULL LIMIT 1").mapTo(String.class).one());
    }

    String version() {
        return pgbench.version();
    }

    /**
     * {@code script} with {@code clients} clients for {@code seconds}, over the pool or on the hot
     * wallet. The batched script takes wallets a quarter of the pool apart, so its four are
     * different wallets; it has no hot-wallet run.
     */
    Run run(Script script, boolean hot, int clients, int seconds) {
        if (hot && script.payments > 1) {
            throw new IllegalArgumentException(script + " pays from " + script.payments + " wallets at once");
        }
        int run = ++runs;
        Map<String, String> variables = new LinkedHashMap<>(common);
        variables.put("lo", hot ? "0" : "1");
        variables.put("hi", hot ? "0" : Integer.toString(poolSize / script.payments));
        String tag = String.format(Locale.ROOT, "%s%03d", script.tag, run);
        variables.put("tag", tag);
        variables.put("tag2", "Q" + tag.substring(1));
        Pgbench.checkpoint(jdbi);
        CpuMeter.Sample before = cpu.sample();
        double serverBefore = CpuMeter.processSeconds(serverPid);
        Pgbench.Outcome outcome = pgbench.run(script.file.replace(".sql", "-" + run), script.text, clients,
                Math.min(clients, Runtime.getRuntime().availableProcessors()), seconds, variables);
        CpuMeter.Sample used = cpu.sample().minus(before);
        double serverUsed = CpuMeter.processSeconds(serverPid) - serverBefore;
        long rows = jdbi.withHandle(h -> h.createQuery("SELECT count(*) FROM transactions WHERE id LIKE :prefix "
                + "AND status = 'confirmed'").bind("prefix", "tx\\_" + tag + "%").mapTo(Long.class).one());
        return new Run(script, outcome, rows, used.waitedChildren(), used.server(), serverUsed);
    }
}
