package com.agentwallet.bootstrap.metrics;

import com.agentwallet.adapters.persistence.PostgresQueues;
import com.agentwallet.adapters.persistence.PostgresWebhookBacklog;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;

import java.lang.ref.WeakReference;
import java.sql.SQLException;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** The gauges read from the database when it cannot be read: the page still answers, the gauges say NaN. */
class DatabaseGaugesTest {

    /**
     * A registry with the gauges bound, and nothing else holding them, over a database whose every
     * connection fails and is counted in {@code connections}.
     */
    private static PrometheusMeterRegistry gaugesOfADatabaseThatIsDown(AtomicInteger connections) {
        Jdbi down = Jdbi.create(() -> {
            connections.incrementAndGet();
            throw new SQLException("the database is down");
        });
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new DatabaseGauges(new PostgresQueues(down), new PostgresWebhookBacklog(down), Clock.systemUTC())
                .bindTo(registry);
        return registry;
    }

    @Test
    void aDatabaseThatCannotBeReadMakesEveryGaugeNaNAndIsAskedOncePerScrape() {
        AtomicInteger connections = new AtomicInteger();
        PrometheusMeterRegistry registry = gaugesOfADatabaseThatIsDown(connections);

        String page = registry.scrape();

        assertThat(page).contains("agentwallet_cosign_holds_waiting NaN",
                "agentwallet_cosign_oldest_hold_age_seconds NaN", "agentwallet_settlement_pending NaN",
                "agentwallet_settlement_lag_seconds NaN", "agentwallet_webhook_backlog NaN",
                "agentwallet_webhook_oldest_undelivered_age_seconds NaN", "agentwallet_exports_queued NaN",
                "agentwallet_exports_generating NaN");
        assertThat(connections).as("one read for the eight gauges").hasValue(1);
    }

    /** The registry holds what it scrapes: the server keeps no other reference to the gauges. */
    @Test
    void theGaugesOutliveAGarbageCollection() {
        AtomicInteger connections = new AtomicInteger();
        PrometheusMeterRegistry registry = gaugesOfADatabaseThatIsDown(connections);

        WeakReference<Object> canary = new WeakReference<>(new Object());
        for (int i = 0; i < 50 && canary.get() != null; i++) {
            System.gc();
        }
        assertThat(canary.get()).as("a collection ran").isNull();
        registry.scrape();

        assertThat(connections).as("the gauges still asked the database").hasValue(1);
    }
}
