package com.agentwallet.bench.delivery;

import org.jdbi.v3.core.statement.SqlLogger;
import org.jdbi.v3.core.statement.StatementContext;

import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How long the adapter's statements take, by kind ({@code SELECT webhook_deliveries (SKIP LOCKED)},
 * {@code INSERT outbox_events}, ...): Jdbi's execution to completion, in microseconds. Commits are
 * not statements and are not in it.
 */
final class StatementTimes implements SqlLogger {
    private static final Pattern WRITE = Pattern.compile("^(INSERT INTO|UPDATE|DELETE FROM)\\s+(\\w+)");
    private static final Pattern FROM = Pattern.compile("\\bFROM\\s+(\\w+)");
    /** What marks the dispatcher's claim of due deliveries among the selects. */
    static final String CLAIM = " (SKIP LOCKED)";

    /** One kind of statement: how many ran and their time. */
    record Kind(String label, long calls, long micros) {
        double meanMs() {
            return calls == 0 ? 0 : micros / 1000.0 / calls;
        }
    }

    private final Map<String, LongAdder[]> kinds = new ConcurrentHashMap<>();
    private final Map<String, String> labels = new ConcurrentHashMap<>();
    private final Map<String, String> rendered = new ConcurrentHashMap<>();

    @Override
    public void logAfterExecution(StatementContext context) {
        String label = labels.computeIfAbsent(context.getRawSql(), StatementTimes::label);
        LongAdder[] kind = kinds.computeIfAbsent(label, l -> new LongAdder[] {new LongAdder(), new LongAdder()});
        rendered.putIfAbsent(label, context.getRenderedSql());
        kind[0].increment();
        kind[1].add(context.getElapsedTime(ChronoUnit.MICROS));
    }

    /** Forgets what ran so far: the measured window starts. */
    void reset() {
        kinds.clear();
    }

    /** The kinds so far, most time first. */
    List<Kind> kinds() {
        return kinds.entrySet().stream()
                .map(e -> new Kind(e.getKey(), e.getValue()[0].sum(), e.getValue()[1].sum()))
                .sorted(Comparator.comparingLong(Kind::micros).reversed())
                .toList();
    }

    /** The SQL of the statements of that kind, with its named parameters, as the adapter sent it. */
    Optional<String> sql(String label) {
        return Optional.ofNullable(rendered.get(label));
    }

    /** The verb and the first table: enough to tell the dispatcher's and the outbox's statements apart. */
    static String label(String sql) {
        String flat = sql.replaceAll("\\s+", " ").trim();
        Matcher write = WRITE.matcher(flat);
        if (write.find()) {
            return write.group(1).split(" ")[0] + " " + write.group(2);
        }
        Matcher from = FROM.matcher(flat);
        if (flat.startsWith("SELECT") && from.find()) {
            return "SELECT " + from.group(1) + (flat.contains("SKIP LOCKED") ? CLAIM : "");
        }
        return flat.length() <= 48 ? flat : flat.substring(0, 45) + "...";
    }
}
