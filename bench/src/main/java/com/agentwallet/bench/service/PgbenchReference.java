package com.agentwallet.bench.service;

import com.agentwallet.adapters.persistence.PersistenceSettings;
import com.agentwallet.bench.store.CpuMeter;
import com.agentwallet.bench.store.Pgbench;
import org.jdbi.v3.core.Jdbi;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The yardstick: pgbench running the SQL shape of one payment that issue #10 names, in the
 * service's own statements, against the service's database while the service idles. One script
 * execution is one payment, in one transaction: lock the wallet row ({@code FOR NO KEY UPDATE},
 * found through {@code bench_wallets}, a sub-select of the lock so it costs no round trip), read
 * the spends crossing the windows' edges (the service's spend_entries query), insert the spend
 * entry, update the wallet's balance and spend summary (the service's UPDATE, every column), insert
 * the transaction as the service's final row (confirmed, signature and slot set), insert its
 * outbox event (a body copied from the service's own outbox), commit.
 *
 * <p>The server runs while pgbench does, so the rows pgbench writes must be rows the service can
 * read: its background fan-out reads every new outbox event. So ids are in the service's format,
 * a prefix and 24 base62 characters, unique per run, client and execution:
 * {@code Pgb<run><client><seq>}, zero-padded.
 */
final class PgbenchReference {
    private static final String ID = "'%s' || :tag || lpad(:client_id::text, 4, '0') || lpad(:seq::text, 14, '0')";

    static final String SCRIPT = """
            \\set n random(:lo, :hi)
            \\set seq :seq + 1
            BEGIN;
            SELECT * FROM wallets WHERE id = (SELECT wallet_id FROM bench_wallets WHERE n = :n) AND org_id = :org FOR NO KEY UPDATE \\gset w_
            SELECT * FROM spend_entries WHERE wallet_id = :w_id AND ((at > :w_day_cutoff AND at <= now() - interval '1 day') OR (at > :w_month_cutoff AND at <= now() - interval '30 days') OR (at > :w_hour_cutoff AND at <= now() - interval '1 hour')) ORDER BY at, tx_id;
            INSERT INTO spend_entries (wallet_id, tx_id, at, amount_micros) VALUES (:w_id, %1$s, now(), :amount);
            \\set balance :w_balance_micros - :amount
            \\set day :w_spend_day_micros + :amount
            \\set month :w_spend_month_micros + :amount
            \\set hours :w_spend_hour_count + 1
            UPDATE wallets SET label = :w_label, policy_id = :w_policy_id, tags = :w_tags, status = :w_status, balance_micros = :balance, spend_day_micros = :day, spend_month_micros = :month, spend_hour_count = :hours, day_cutoff = now() - interval '1 day', month_cutoff = now() - interval '30 days', hour_cutoff = now() - interval '1 hour', session_version = :w_session_version, topup_enabled = NULL, topup_trigger_micros = NULL, topup_amount_micros = NULL, updated_at = now() WHERE id = :w_id AND org_id = :org;
            INSERT INTO transactions (id, org_id, wallet_id, type, status, amount_micros, recipient, memo, policy_triggered, violation_rule, violation_limit, violation_attempted, signature, slot, co_signer, co_sign_payload, co_sign_expires_at, co_signature, co_sign_requested_by, escrow_id, failure_reason, created_at, updated_at) VALUES (%1$s, :org, :w_id, 'payment', 'confirmed', :amount, :payee, NULL, false, NULL, NULL, NULL, :signature, :seq, NULL, NULL, NULL, NULL, NULL, NULL, NULL, now(), now());
            INSERT INTO outbox_events (id, org_id, type, wallet_id, body, created_at) VALUES (%2$s, :org, 'transaction.completed', :w_id, CAST(:completed_body AS jsonb), now());
            COMMIT;
            """.formatted(String.format(ID, "tx_"), String.format(ID, "evt_"));

    /** One pgbench run and the CPU it took: pgbench itself, PostgreSQL, and the idle service's JVM. */
    record Run(Pgbench.Outcome outcome, long rowsWritten, double pgbenchCpu, double postgresCpu, double serverCpu) {
        Optional<Double> tps() {
            return outcome.clean() && outcome.failed() == 0 ? outcome.tps() : Optional.empty();
        }

        String summary() {
            if (tps().isEmpty()) {
                return "did not finish cleanly; its output:\n" + outcome.output();
            }
            long n = outcome.processed();
            return String.format(Locale.ROOT, "%.1f tps, latency average %.2f ms, %d payments (%d confirmed "
                            + "transaction rows written); CPU ms per payment: pgbench %.3f, PostgreSQL %.3f, server JVM "
                            + "(idle) %.3f", tps().get(), outcome.latencyMs().orElse(Double.NaN), n, rowsWritten,
                    pgbenchCpu * 1000 / n, postgresCpu * 1000 / n, serverCpu * 1000 / n);
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
        jdbi.useHandle(h -> {
            h.execute("CREATE TABLE bench_wallets (n integer PRIMARY KEY, wallet_id text NOT NULL)");
            var batch = h.prepareBatch("INSERT INTO bench_wallets (n, wallet_id) VALUES (:n, :wallet)");
            for (int i = 0; i < pool.size(); i++) {
                batch.bind("n", i + 1).bind("wallet", pool.get(i)).add();
            }
            batch.bind("n", 0).bind("wallet", hot).add();
            batch.execute();
            h.execute("ANALYZE bench_wallets");
            common.put("org", server.orgId());
            common.put("payee", payee);
            common.put("amount", Long.toString(amountMicros));
            common.put("seq", "0");
            common.put("completed_body", h.createQuery("SELECT body::text FROM outbox_events "
                    + "WHERE type = 'transaction.completed' ORDER BY seq DESC LIMIT 1").mapTo(String.class).one());
        });
        common.put("signature", signature(jdbi));
    }

    /** The ledger signature of a payment the service confirmed. */
    static String signature(Jdbi jdbi) {
        return jdbi.withHandle(h -> h.createQuery("SELECT signature FROM transactions WHERE type = 'payment' "
                + "AND status = 'confirmed' AND signature IS NOT NULL LIMIT 1").mapTo(String.class).one());
    }

    String version() {
        return pgbench.version();
    }

    /** {@code clients} clients for {@code seconds}, over the pool or on the hot wallet. */
    Run run(boolean hot, int clients, int seconds) {
        int run = ++runs;
        Map<String, String> variables = new LinkedHashMap<>(common);
        variables.put("lo", hot ? "0" : "1");
        variables.put("hi", hot ? "0" : Integer.toString(poolSize));
        String tag = String.format(Locale.ROOT, "Pgb%03d", run);
        variables.put("tag", tag);
        checkpoint(jdbi);
        CpuMeter.Sample before = cpu.sample();
        double serverBefore = CpuMeter.processSeconds(serverPid);
        Pgbench.Outcome outcome = pgbench.run("service-payment-" + run, SCRIPT, clients,
                Math.min(clients, Runtime.getRuntime().availableProcessors()), seconds, variables);
        CpuMeter.Sample used = cpu.sample().minus(before);
        double serverUsed = CpuMeter.processSeconds(serverPid) - serverBefore;
        long rows = jdbi.withHandle(h -> h.createQuery("SELECT count(*) FROM transactions WHERE id LIKE :prefix "
                + "AND status = 'confirmed'").bind("prefix", "tx\\_" + tag + "%").mapTo(Long.class).one());
        return new Run(outcome, rows, used.waitedChildren(), used.server(), serverUsed);
    }

    /**
     * Writes every dirty page now, so that no checkpoint falls in the run that follows. After it,
     * the first change of each page writes the whole page to the WAL: a run right after it pays
     * for that, as pgbench's and the closed loops' runs do alike.
     */
    static void checkpoint(Jdbi jdbi) {
        jdbi.useHandle(h -> h.execute("CHECKPOINT"));
    }
}
