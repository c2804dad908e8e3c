package com.agentwallet.bootstrap.metrics;

import com.agentwallet.adapters.persistence.PostgresQueues;
import com.agentwallet.adapters.persistence.PostgresWebhookBacklog;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

import static java.util.Objects.requireNonNull;

/**
 * The gauges read from the database, over every server that shares it: co-sign holds waiting,
 * transactions not yet settled on the ledger, the webhook backlog, the export queue. All are read
 * together by two bounded queries ({@link PostgresQueues}, and the health check's
 * {@link PostgresWebhookBacklog}), at most once per {@link #REFRESH}, however often and by however
 * many scrapers the admin port is asked. A read that fails makes every one of them {@code NaN} until
 * the next read, and is kept as long as a good one: a database that is down slows no scrape by more
 * than one wait for a connection per {@link #REFRESH}, and fails none.
 */
public final class DatabaseGauges {
    /** How long one read of the database answers the gauges. */
    public static final Duration REFRESH = Duration.ofSeconds(5);
    /** Each count reads at most this many entries of its index: a count above it reads as it. */
    public static final int CAP = 100_000;
    private static final Logger LOG = LoggerFactory.getLogger(DatabaseGauges.class);

    private final PostgresQueues queues;
    private final PostgresWebhookBacklog backlog;
    private final Clock clock;
    private Optional<Reading> last = Optional.empty();
    private boolean read;
    private long readAtNanos;

    /** What the database held at one read. */
    private record Reading(PostgresQueues.Waiting waiting, PostgresWebhookBacklog.Due due) {
    }

    public DatabaseGauges(PostgresQueues queues, PostgresWebhookBacklog backlog, Clock clock) {
        this.queues = requireNonNull(queues, "queues is null");
        this.backlog = requireNonNull(backlog, "backlog is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    public void bindTo(MeterRegistry registry) {
        gauge(registry, "agentwallet.cosign.holds.waiting", null,
                "Payments waiting for their co-signature", reading -> reading.waiting().holds());
        gauge(registry, "agentwallet.cosign.oldest.hold.age", "seconds",
                "How long the oldest payment waiting for its co-signature has waited; 0 when none",
                reading -> age(reading.waiting().oldestHold()));
        gauge(registry, "agentwallet.settlement.pending", null,
                "Transactions booked and not yet settled on the ledger", reading -> reading.waiting().unsettled());
        gauge(registry, "agentwallet.settlement.lag", "seconds",
                "How long the oldest transaction booked for the ledger has waited for its outcome; 0 when none",
                reading -> age(reading.waiting().oldestUnsettled()));
        gauge(registry, "agentwallet.webhook.backlog", null,
                "Webhook deliveries due and not yet delivered (of active webhooks)", reading -> reading.due().count());
        gauge(registry, "agentwallet.webhook.oldest.undelivered.age", "seconds",
                "How long the oldest due webhook delivery has been due; 0 when none",
                reading -> age(reading.due().oldest()));
        gauge(registry, "agentwallet.exports.queued", null,
                "Export jobs waiting for a generator", reading -> reading.waiting().exportsQueued());
        gauge(registry, "agentwallet.exports.generating", null,
                "Export jobs a generator is writing", reading -> reading.waiting().exportsGenerating());
    }

    private void gauge(MeterRegistry registry, String name, String unit, String description,
                       ToDoubleFunction<Reading> value) {
        // Held strongly: Micrometer keeps a gauge's object weakly, and the server keeps no other reference.
        Gauge.builder(name, this, gauges -> gauges.reading().map(value::applyAsDouble).orElse(Double.NaN))
                .strongReference(true)
                .description(description)
                .baseUnit(unit)
                .register(registry);
    }

    private double age(Optional<Instant> since) {
        return since.map(instant -> Math.max(0, Duration.between(instant, clock.instant()).toMillis()) / 1000.0)
                .orElse(0.0);
    }

    /** The last reading while it is fresh, else a new one; empty when the last read failed. */
    private synchronized Optional<Reading> reading() {
        long now = System.nanoTime();
        if (read && now - readAtNanos < REFRESH.toNanos()) {
            return last;
        }
        try {
            Instant at = clock.instant();
            last = Optional.of(new Reading(queues.waiting(at, CAP), backlog.due(at, CAP)));
        } catch (RuntimeException e) {
            LOG.warn("The metrics could not read the database: {}", e.toString());
            last = Optional.empty();
        }
        read = true;
        readAtNanos = System.nanoTime();
        return last;
    }
}
