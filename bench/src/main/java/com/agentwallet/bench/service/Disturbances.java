package com.agentwallet.bench.service;

import org.jdbi.v3.core.Jdbi;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.DoubleSummaryStatistics;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What else ran while a run was measured, the usual causes of a tail on this machine: the server's
 * garbage-collection pauses (from its GC log, {@code -Xlog:gc:file=...:time}, each line stamped with
 * the wall-clock time at which the pause ended) and PostgreSQL's autovacuum (the workers running
 * when the run began or ended, and the tables whose vacuum or analyze counts moved in between).
 */
final class Disturbances {
    /** {@code [2026-11-23T00:51:12.735+0000] GC(216) Pause Young (Normal) (G1 Evacuation Pause) 172M->126M(1024M) 21.581ms} */
    private static final Pattern PAUSE = Pattern.compile("^\\[(\\S+)] GC\\(\\d+\\) Pause .* (\\d+\\.\\d+)ms$");
    private static final DateTimeFormatter GC_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSZ");
    /** {@code autovacuum: VACUUM ANALYZE public.transactions}, as {@code pg_stat_activity} shows a worker. */
    private static final Pattern WORKER = Pattern.compile("^autovacuum: (.+?) (?:\\w+\\.)?(\\w+)(?: \\(.*\\))?$");

    /** The state at the start of a run. */
    record Start(Instant at, List<String> running, Map<String, Long> counts) {
    }

    private final Jdbi jdbi;
    private final Path gcLog;

    Disturbances(Jdbi jdbi, Path gcLog) {
        this.jdbi = jdbi;
        this.gcLog = gcLog;
    }

    Start start() {
        return new Start(Instant.now(), running(), counts());
    }

    /** One line: the GC pauses that ended during the run, and the autovacuum work it overlapped. */
    String since(Start start) {
        Instant end = Instant.now();
        Map<String, Long> counts = counts();
        TreeSet<String> vacuums = new TreeSet<>(start.running());
        vacuums.addAll(running());
        counts.forEach((what, n) -> {
            if (n > start.counts().getOrDefault(what, 0L)) {
                vacuums.add(what);
            }
        });
        DoubleSummaryStatistics pauses = pauses(start.at(), end);
        return String.format(Locale.ROOT, "during it: %d GC pauses of the server%s; autovacuum %s", pauses.getCount(),
                pauses.getCount() == 0 ? "" : String.format(Locale.ROOT, " (longest %.1f ms, %.1f ms in all)",
                        pauses.getMax(), pauses.getSum()),
                vacuums.isEmpty() ? "none" : String.join(", ", vacuums));
    }

    /** The pauses, in ms, that ended between the two instants. */
    private DoubleSummaryStatistics pauses(Instant from, Instant to) {
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

    /** The autovacuum and autoanalyze counts of every table, keyed like {@link #running}. */
    private Map<String, Long> counts() {
        return jdbi.withHandle(h -> h.createQuery("SELECT relname, autovacuum_count, autoanalyze_count "
                + "FROM pg_stat_user_tables").map((rows, ctx) -> Map.of(
                "vacuum of " + rows.getString(1), rows.getLong(2),
                "analyze of " + rows.getString(1), rows.getLong(3))).list()).stream()
                .flatMap(m -> m.entrySet().stream())
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, Long::sum));
    }
}
