package com.agentwallet.bench.store;

import org.jdbi.v3.core.Jdbi;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * pgbench as the yardstick: custom scripts with the SQL of one payment, run by the PostgreSQL
 * client's own load generator against the same server. A script execution is one payment, so
 * pgbench's "tps" compares with the service's payments per second.
 *
 * <p>Wallets are found through {@code bench_wallets(n, wallet_id)}, a mapping the benchmark fills
 * with the ids the service made (1..N for the pool, 0 for the hot wallet); the lookup is a
 * sub-select of the locking statement, so it costs no round trip. Every id a script inserts is
 * unique per run, client and execution.
 */
public final class Pgbench {
    /**
     * The statements of one payment through the service (no idempotency key, a policy that blocks no
     * category), in the service's order, one for one: it goes to the ledger from what it wrote.
     */
    static final String EXACT_SHAPE = """
            -- phase one (PaymentService.pay): check and debit in one transaction
            \\set n random(:lo, :hi)
            \\set seq :seq + 1
            BEGIN;
            SELECT * FROM wallets WHERE id = (SELECT wallet_id FROM bench_wallets WHERE n = :n) AND org_id = :org FOR NO KEY UPDATE \\gset w_
            SELECT * FROM policies WHERE id = :w_policy_id AND org_id = :org AND deleted_at IS NULL;
            SELECT * FROM spend_entries WHERE wallet_id = :w_id AND ((at > :w_day_cutoff AND at <= now() - interval '1 day') OR (at > :w_month_cutoff AND at <= now() - interval '30 days') OR (at > :w_hour_cutoff AND at <= now() - interval '1 hour')) ORDER BY at, tx_id;
            INSERT INTO spend_entries (wallet_id, tx_id, at, amount_micros) VALUES (:w_id, 'tx_pgb' || :run || '_' || :client_id || '_' || :seq, now(), :amount);
            \\set balance :w_balance_micros - :amount
            \\set day :w_spend_day_micros + :amount
            \\set month :w_spend_month_micros + :amount
            \\set hours :w_spend_hour_count + 1
            UPDATE wallets SET label = :w_label, policy_id = :w_policy_id, tags = :w_tags, status = :w_status, balance_micros = :balance, spend_day_micros = :day, spend_month_micros = :month, spend_hour_count = :hours, day_cutoff = now() - interval '1 day', month_cutoff = now() - interval '30 days', hour_cutoff = now() - interval '1 hour', session_version = :w_session_version, topup_enabled = NULL, topup_trigger_micros = NULL, topup_amount_micros = NULL, updated_at = now() WHERE id = :w_id AND org_id = :org;
            INSERT INTO transactions (id, org_id, wallet_id, type, status, amount_micros, recipient, memo, policy_triggered, violation_rule, violation_limit, violation_attempted, signature, slot, co_signer, co_sign_payload, co_sign_expires_at, co_signature, escrow_id, failure_reason, created_at, updated_at) VALUES ('tx_pgb' || :run || '_' || :client_id || '_' || :seq, :org, :w_id, 'payment', 'pending', :amount, :payee, NULL, false, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, now(), now());
            INSERT INTO outbox_events (id, org_id, type, wallet_id, body, created_at) VALUES ('evt_pgb' || :run || '_' || :client_id || '_' || :seq || 'p', :org, 'transaction.pending', :w_id, CAST(:pending_body AS jsonb), now());
            COMMIT;
            -- (the ledger answers here, outside any transaction)
            -- Settlement.apply: confirm, announce, credit the recipient if it is a wallet of the service
            BEGIN;
            SELECT * FROM transactions WHERE id = 'tx_pgb' || :run || '_' || :client_id || '_' || :seq AND org_id = :org FOR NO KEY UPDATE;
            UPDATE transactions SET status = 'confirmed', memo = NULL, policy_triggered = false, violation_rule = NULL, violation_limit = NULL, violation_attempted = NULL, signature = :signature, slot = :seq, co_signer = NULL, co_sign_payload = NULL, co_sign_expires_at = NULL, co_signature = NULL, escrow_id = NULL, failure_reason = NULL, updated_at = now() WHERE id = 'tx_pgb' || :run || '_' || :client_id || '_' || :seq AND org_id = :org;
            INSERT INTO outbox_events (id, org_id, type, wallet_id, body, created_at) VALUES ('evt_pgb' || :run || '_' || :client_id || '_' || :seq || 'c', :org, 'transaction.completed', :w_id, CAST(:completed_body AS jsonb), now());
            SELECT * FROM wallets WHERE address = :payee FOR NO KEY UPDATE;
            COMMIT;
            """;

    /** The shape as first sketched: phase one without the category read, phase two as two statements. */
    static final String MINIMAL_SHAPE = """
            \\set n random(:lo, :hi)
            \\set seq :seq + 1
            BEGIN;
            SELECT * FROM wallets WHERE id = (SELECT wallet_id FROM bench_wallets WHERE n = :n) AND org_id = :org FOR UPDATE \\gset w_
            SELECT * FROM policies WHERE id = :w_policy_id AND org_id = :org AND deleted_at IS NULL;
            SELECT * FROM spend_entries WHERE wallet_id = :w_id AND ((at > :w_day_cutoff AND at <= now() - interval '1 day') OR (at > :w_month_cutoff AND at <= now() - interval '30 days') OR (at > :w_hour_cutoff AND at <= now() - interval '1 hour')) ORDER BY at, tx_id;
            INSERT INTO spend_entries (wallet_id, tx_id, at, amount_micros) VALUES (:w_id, 'tx_pgb' || :run || '_' || :client_id || '_' || :seq, now(), :amount);
            INSERT INTO transactions (id, org_id, wallet_id, type, status, amount_micros, recipient, memo, policy_triggered, violation_rule, violation_limit, violation_attempted, signature, slot, co_signer, co_sign_payload, co_sign_expires_at, co_signature, escrow_id, failure_reason, created_at, updated_at) VALUES ('tx_pgb' || :run || '_' || :client_id || '_' || :seq, :org, :w_id, 'payment', 'pending', :amount, :payee, NULL, false, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, now(), now());
            INSERT INTO outbox_events (id, org_id, type, wallet_id, body, created_at) VALUES ('evt_pgb' || :run || '_' || :client_id || '_' || :seq || 'p', :org, 'transaction.pending', :w_id, CAST(:pending_body AS jsonb), now());
            \\set balance :w_balance_micros - :amount
            \\set day :w_spend_day_micros + :amount
            \\set month :w_spend_month_micros + :amount
            \\set hours :w_spend_hour_count + 1
            UPDATE wallets SET balance_micros = :balance, spend_day_micros = :day, spend_month_micros = :month, spend_hour_count = :hours, day_cutoff = now() - interval '1 day', month_cutoff = now() - interval '30 days', hour_cutoff = now() - interval '1 hour', updated_at = now() WHERE id = :w_id AND org_id = :org;
            COMMIT;
            BEGIN;
            UPDATE transactions SET status = 'confirmed', signature = :signature, slot = :seq, updated_at = now() WHERE id = 'tx_pgb' || :run || '_' || :client_id || '_' || :seq AND org_id = :org;
            INSERT INTO outbox_events (id, org_id, type, wallet_id, body, created_at) VALUES ('evt_pgb' || :run || '_' || :client_id || '_' || :seq || 'c', :org, 'transaction.completed', :w_id, CAST(:completed_body AS jsonb), now());
            COMMIT;
            """;

    private static final Pattern TPS = Pattern.compile("(?m)^tps = ([0-9.]+)");
    private static final Pattern LATENCY = Pattern.compile("(?m)^latency average = ([0-9.]+) ms");
    private static final Pattern FAILED = Pattern.compile("(?m)^number of failed transactions: ([0-9]+)");
    private static final Pattern PROCESSED = Pattern.compile("(?m)^number of transactions actually processed: ([0-9]+)");

    /** What one pgbench run measured; {@code tps} is empty when it did not say. */
    public record Outcome(Optional<Double> tps, Optional<Double> latencyMs, long processed, long failed, boolean clean,
                   String output) {
        /** What pgbench printed, and how it exited: clean if with 0 and no client aborted. */
        static Outcome of(int exitValue, String output) {
            return new Outcome(number(TPS, output), number(LATENCY, output), count(PROCESSED, output),
                    count(FAILED, output), exitValue == 0 && !output.contains("aborted"), output);
        }
    }

    private final Path executable;
    private final Path workDir;
    private final int port;
    private final String database;

    Pgbench(Path executable, Path workDir, int port) {
        this(executable, workDir, port, "postgres");
    }

    /** pgbench against {@code database} of the server on {@code port}, its scripts written to {@code workDir}. */
    public Pgbench(Path executable, Path workDir, int port, String database) {
        this.executable = executable;
        this.workDir = workDir;
        this.port = port;
        this.database = database;
    }

    /** Numbers the wallets for the scripts in {@code bench_wallets}: 1..N the pool, 0 the hot wallet. */
    public static void numberWallets(Jdbi jdbi, List<String> pool, String hot) {
        jdbi.useHandle(h -> {
            h.execute("CREATE TABLE bench_wallets (n integer PRIMARY KEY, wallet_id text NOT NULL)");
            var batch = h.prepareBatch("INSERT INTO bench_wallets (n, wallet_id) VALUES (:n, :wallet)");
            for (int i = 0; i < pool.size(); i++) {
                batch.bind("n", i + 1).bind("wallet", pool.get(i)).add();
            }
            batch.bind("n", 0).bind("wallet", hot).add();
            batch.execute();
            h.execute("ANALYZE bench_wallets");
        });
    }

    /**
     * Writes every dirty page now, so that no checkpoint falls in the run that follows. After it,
     * the first change of each page writes the whole page to the WAL: a run right after it pays
     * for that, as pgbench's and the service's runs do alike.
     */
    public static void checkpoint(Jdbi jdbi) {
        jdbi.useHandle(h -> h.execute("CHECKPOINT"));
    }

    /** pgbench from {@code PGBENCH}, /usr/bin, or the PATH; empty if there is none. */
    public static Optional<Path> find() {
        List<Path> candidates = new ArrayList<>();
        Optional.ofNullable(System.getenv("PGBENCH")).ifPresent(p -> candidates.add(Path.of(p)));
        candidates.add(Path.of("/usr/bin/pgbench"));
        for (String dir : Optional.ofNullable(System.getenv("PATH")).orElse("").split(java.io.File.pathSeparator)) {
            if (!dir.isEmpty()) {
                candidates.add(Path.of(dir, "pgbench"));
            }
        }
        return candidates.stream().filter(Files::isExecutable).findFirst();
    }

    public String version() {
        try {
            Process process = new ProcessBuilder(executable.toString(), "--version").redirectErrorStream(true).start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            process.waitFor(10, TimeUnit.SECONDS);
            return out;
        } catch (IOException e) {
            return "unknown (" + e.getMessage() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    /**
     * Runs {@code script} with {@code clients} clients for {@code seconds}, prepared statements,
     * the given variables ({@code -D}), and answers what it printed.
     */
    public Outcome run(String name, String script, int clients, int threads, int seconds, Map<String, String> variables) {
        try {
            Path file = workDir.resolve(name + ".sql");
            Files.writeString(file, script, StandardCharsets.UTF_8);
            List<String> command = new ArrayList<>(List.of(executable.toString(), "-h", "localhost", "-p",
                    Integer.toString(port), "-U", "postgres", "-n", "-M", "prepared", "-c", Integer.toString(clients),
                    "-j", Integer.toString(threads), "-T", Integer.toString(seconds), "-f", file.toString()));
            variables.forEach((key, value) -> command.addAll(List.of("-D", key + "=" + value)));
            command.add(database);
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
            builder.environment().put("PGCONNECT_TIMEOUT", "10");
            builder.environment().remove("PGPASSWORD");
            Process process = builder.start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(seconds + 120L, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return new Outcome(Optional.empty(), Optional.empty(), 0, 0, false, output + "\n(pgbench timed out)");
            }
            return Outcome.of(process.exitValue(), output);
        } catch (IOException e) {
            throw new UncheckedIOException("pgbench did not run", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while pgbench ran", e);
        }
    }

    private static Optional<Double> number(Pattern pattern, String output) {
        Matcher matcher = pattern.matcher(output);
        return matcher.find() ? Optional.of(Double.parseDouble(matcher.group(1))) : Optional.empty();
    }

    private static long count(Pattern pattern, String output) {
        Matcher matcher = pattern.matcher(output);
        return matcher.find() ? Long.parseLong(matcher.group(1)) : 0;
    }
}
