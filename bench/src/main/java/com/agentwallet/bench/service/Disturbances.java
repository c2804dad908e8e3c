package com.agentwallet.bench.service;

import com.agentwallet.bench.MachineCpu;
import org.jdbi.v3.core.Jdbi;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.DoubleSummaryStatistics;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What else ran while a run was measured, the usual causes of a tail on this machine: the server's
 * garbage-collection pauses (from its GC log, {@code -Xlog:gc:file=...:time}, each line stamped with
 * the wall-clock time at which the pause ended), the load generator's own (from its collectors'
 * counts, {@link LoadGeneratorJvm#pauses}) and PostgreSQL's autovacuum (the workers running
 * when the run began or ended, and the tables whose vacuum or analyze counts moved in between). And
 * how long the service's database transactions stayed open, sampled from {@code pg_stat_activity}
 * every 20 ms on a connection of the tool's own (about 50 small queries a second): whether a tail is
 * PostgreSQL's or the server's; for the longest seen, what its backend was doing then (running a
 * statement or idle in the transaction, waiting for what, on which statement). And the deadlocks
 * PostgreSQL broke meanwhile (each after waiting {@code deadlock_timeout}, a second), and the
 * transactions its database committed for each request (every commit: the service's, its webhook
 * workers' and this tool's sampling, about 50 a second, included), as its statistics counted them
 * by the end of the run (a backend reports them at most once a second): the fewer, the more payments
 * each transaction carried. And how busy the whole machine was (stolen time counted as busy), and
 * how much of its time the hypervisor took for other guests (steal): a stall of the machine shows
 * there, not in any process's own time. And the machine's context switches for each request: how
 * often a request's work hands the cores from one thread or process to another.
 * And the WAL PostgreSQL wrote over the run divided by its requests, in bytes and in full-page
 * images (a page's first change after a checkpoint writes the whole page), from
 * {@code pg_stat_wal}: all of it, an autovacuum's included.
 */
final class Disturbances {
    /** {@code [2026-11-23T00:51:12.735+0000] GC(216) Pause Young (Normal) (G1 Evacuation Pause) 172M->126M(1024M) 21.581ms} */
    private static final Pattern PAUSE = Pattern.compile("^\\[(\\S+)] GC\\(\\d+\\) Pause .* (\\d+\\.\\d+)ms$");
    private static final DateTimeFormatter GC_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSZ");
    /** {@code autovacuum: VACUUM ANALYZE public.transactions}, as {@code pg_stat_activity} shows a worker. */
    private static final Pattern WORKER = Pattern.compile("^autovacuum: (.+?) (?:\\w+\\.)?(\\w+)(?: \\(.*\\))?$");

    private static final Duration SAMPLE_EVERY = Duration.ofMillis(20);
    /**
     * The oldest transaction open on another connection than this one: its age in ms, its backend's
     * state, what that backend waits for, and the start of its statement (the last one it ran, if idle).
     */
    private static final String OLDEST_OPEN = "SELECT extract(epoch FROM clock_timestamp() - xact_start) * 1000, state, "
            + "coalesce(wait_event_type || ':' || wait_event, 'no wait'), "
            + "left(btrim(regexp_replace(query, '\\s+', ' ', 'g')), 60) "
            + "FROM pg_stat_activity WHERE backend_type = 'client backend' AND xact_start IS NOT NULL "
            + "AND pid <> pg_backend_pid() ORDER BY xact_start LIMIT 1";

    /** The state at the start of a run, and the sampler of its open transactions. */
    record Start(Instant at, List<String> running, Map<String, Long> counts, Database database, OpenTransactions open,
                 LoadGeneratorJvm.Pauses ownPauses, MachineCpu machine, Wal wal) {
    }

    /** The service's database's counts since its statistics began: deadlocks broken, transactions committed. */
    record Database(long deadlocks, long commits) {
    }

    /** The WAL PostgreSQL has written since its statistics began: bytes, and full-page images. */
    record Wal(long bytes, long fullPages) {
    }

    private final Jdbi jdbi;
    private final Path gcLog;

    Disturbances(Jdbi jdbi, Path gcLog) {
        this.jdbi = jdbi;
        this.gcLog = gcLog;
    }

    Start start() {
        return new Start(Instant.now(), running(), counts(), database(), new OpenTransactions(jdbi),
                LoadGeneratorJvm.pauses(), MachineCpu.now(), wal());
    }

    /**
     * One line: the GC pauses that ended during the run, the autovacuum work it overlapped, the
     * longest the service's database transactions were seen open, the deadlocks broken, the
     * database's commits for each of the run's {@code requests}, the machine's busy and stolen
     * shares, and the context switches and WAL for each request.
     */
    String since(Start start, long requests) {
        MachineCpu machine = MachineCpu.now();
        Wal wal = wal();
        Database database = database();
        String open = start.open().stop();
        Instant end = Instant.now();
        Map<String, Long> counts = counts();
        TreeSet<String> vacuums = new TreeSet<>(start.running());
        vacuums.addAll(running());
        counts.forEach((what, n) -> {
            if (n > start.counts().getOrDefault(what, 0L)) {
                vacuums.add(what);
            }
        });
        DoubleSummaryStatistics pauses = pauses(gcLog, start.at(), end);
        LoadGeneratorJvm.Pauses own = LoadGeneratorJvm.pauses().minus(start.ownPauses());
        return String.format(Locale.ROOT, "during it: %d GC pauses of the server%s, %d of the load generator (%d ms in "
                        + "all); autovacuum %s; %s; deadlocks %d; database commits a request %.2f; the machine %.0f %% "
                        + "busy, %.1f %% stolen, %.1f context switches a request; WAL a request %.1f kB, %.2f full-page "
                        + "images",
                pauses.getCount(), pauses.getCount() == 0 ? "" : String.format(Locale.ROOT,
                        " (longest %.1f ms, %.1f ms in all)", pauses.getMax(), pauses.getSum()), own.count(), own.ms(),
                vacuums.isEmpty() ? "none" : String.join(", ", vacuums), open,
                database.deadlocks() - start.database().deadlocks(),
                perRequest(database.commits() - start.database().commits(), requests),
                machine.busySince(start.machine()) * 100, machine.stolenSince(start.machine()) * 100,
                perRequest(machine.switchesSince(start.machine()), requests),
                perRequest(wal.bytes() - start.wal().bytes(), requests) / 1000,
                perRequest(wal.fullPages() - start.wal().fullPages(), requests));
    }

    private static double perRequest(long amount, long requests) {
        return requests == 0 ? Double.NaN : (double) amount / requests;
    }

    private Wal wal() {
        return jdbi.withHandle(h -> h.createQuery("SELECT wal_bytes::bigint, wal_fpi FROM pg_stat_wal")
                .map((rows, ctx) -> new Wal(rows.getLong(1), rows.getLong(2))).one());
    }

    /** The pauses in {@code gcLog}, in ms, that ended between the two instants. */
    static DoubleSummaryStatistics pauses(Path gcLog, Instant from, Instant to) {
        if (!Files.exists(gcLog)) {
            return new DoubleSummaryStatistics();
        }
        try (Stream<String> lines = Files.lines(gcLog)) {
            return lines.map(PAUSE::matcher).filter(Matcher::matches).filter(m -> {
                Instant ended = OffsetDateTime.parse(m.group(1), GC_TIME).toInstant();
                return !ended.isBefore(from) && !ended.isAfter(to);
            }).mapToDouble(m -> Double.parseDouble(m.group(2))).summaryStatistics();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** "vacuum of transactions", "analyze of transactions": what the autovacuum workers are doing now. */
    private List<String> running() {
        return jdbi.withHandle(h -> h.createQuery("SELECT query FROM pg_stat_activity WHERE backend_type = "
                        + "'autovacuum worker'").mapTo(String.class).list()).stream()
                .map(WORKER::matcher).filter(Matcher::matches)
                .flatMap(m -> Stream.of(m.group(1).toLowerCase(Locale.ROOT).split(" ")).map(w -> w + " of " + m.group(2)))
                .toList();
    }

    private Database database() {
        return jdbi.withHandle(h -> h.createQuery("SELECT deadlocks, xact_commit FROM pg_stat_database WHERE datname = "
                + "current_database()").map((rows, ctx) -> new Database(rows.getLong(1), rows.getLong(2))).one());
    }

    /** The autovacuum and autoanalyze counts of every table, keyed like {@link #running}. */
    private Map<String, Long> counts() {
        return jdbi.withHandle(h -> h.createQuery("SELECT relname, autovacuum_count, autoanalyze_count "
                + "FROM pg_stat_user_tables").map((rows, ctx) -> Map.of(
                "vacuum of " + rows.getString(1), rows.getLong(2),
                "analyze of " + rows.getString(1), rows.getLong(3))).list()).stream()
                .flatMap(m -> m.entrySet().stream())
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, Long::sum));
    }

    /**
     * Samples, every {@link #SAMPLE_EVERY} until stopped, the age of the oldest database transaction
     * open on the service's connections, from a thread and a connection of its own.
     */
    static final class OpenTransactions {
        /** One sample's oldest transaction: age, its backend's state and wait, its statement's start. */
        private record Oldest(double ms, String state, String waiting, String statement) {
        }

        private final Thread thread;
        private volatile boolean stopped;
        private double longest;
        private Oldest seenLongest;
        private double sum;
        private long samples;
        private RuntimeException failure;

        OpenTransactions(Jdbi jdbi) {
            thread = new Thread(() -> sample(jdbi), "open-transactions");
            thread.setDaemon(true);
            thread.start();
        }

        private void sample(Jdbi jdbi) {
            try {
                jdbi.useHandle(handle -> {
                    while (!stopped) {
                        Optional<Oldest> oldest = handle.createQuery(OLDEST_OPEN).map((rows, ctx) -> new Oldest(
                                rows.getDouble(1), rows.getString(2), rows.getString(3), rows.getString(4))).findOne();
                        double age = oldest.map(Oldest::ms).orElse(0.0);
                        synchronized (this) {
                            if (age > longest) {
                                longest = age;
                                seenLongest = oldest.get();
                            }
                            sum += age;
                            samples++;
                        }
                        Thread.sleep(SAMPLE_EVERY.toMillis());
                    }
                });
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                synchronized (this) {
                    failure = e;
                }
            }
        }

        /** Stops sampling and says what it saw. */
        String stop() {
            stopped = true;
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            synchronized (this) {
                if (failure != null) {
                    throw new IllegalStateException("sampling the open transactions failed", failure);
                }
                return String.format(Locale.ROOT, "oldest open database transaction, sampled every %d ms: "
                                + "longest %.1f ms%s, mean %.1f ms (%d samples)", SAMPLE_EVERY.toMillis(), longest,
                        seenLongest == null ? "" : String.format(Locale.ROOT, " (seen then: %s, %s, \"%s\")",
                                seenLongest.state(), seenLongest.waiting(), seenLongest.statement()),
                        samples == 0 ? 0 : sum / samples, samples);
            }
        }
    }
}
