package com.agentwallet.bootstrap.metrics;

import com.agentwallet.adapters.persistence.Persistence;
import com.agentwallet.adapters.persistence.PostgresQueues;
import com.agentwallet.adapters.persistence.PostgresWebhookBacklog;
import com.zaxxer.hikari.metrics.micrometer.MicrometerMetricsTrackerFactory;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.lifecycle.Managed;
import io.dropwizard.metrics.servlets.MetricsServlet;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import jakarta.servlet.Filter;
import org.glassfish.jersey.server.monitoring.ApplicationEventListener;

import java.time.Clock;

import static java.util.Objects.requireNonNull;

/**
 * The server's metrics in Prometheus's text format at the admin port's {@link #PATH}: the JVM's, the
 * requests by route (the API's, the dashboard's, the MCP endpoint's), the connection pool's, and the
 * service's own (counted by the use cases through {@link MicrometerServiceMetrics}, timed at the
 * ledger by {@link MeasuredLedger}, read from the database by {@link DatabaseGauges}). Dropwizard's
 * own metrics, which its admin servlet answered at {@code /metrics}, are answered as JSON at
 * {@link #DROPWIZARD_PATH}. One registry per server, so servers in one JVM (the tests') count apart.
 */
public final class ServerMetrics {
    public static final String PATH = "/metrics";
    public static final String DROPWIZARD_PATH = "/metrics.json";

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    /** What times a Jersey application's requests by route, for each application beside the API's. */
    public ApplicationEventListener routes() {
        return new HttpRouteMetrics(registry);
    }

    /** A filter timing the requests of {@code path}, a servlet that is not Jersey's, under that one path. */
    public Filter requests(String path) {
        return new PathRequestMetrics(registry, path);
    }

    /**
     * Binds the JVM's, the pool's, the API's and the database's meters, and mounts both pages on the
     * admin connectors; the registry closes with the server.
     */
    public void register(Environment environment, Persistence persistence, Clock clock) {
        requireNonNull(environment, "environment is null");
        new JvmMemoryMetrics().bindTo(registry);
        JvmGcMetrics gc = new JvmGcMetrics();
        gc.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        persistence.dataSource().setMetricsTrackerFactory(new MicrometerMetricsTrackerFactory(registry));
        new DatabaseGauges(new PostgresQueues(persistence.jdbi()), new PostgresWebhookBacklog(persistence.jdbi()),
                clock).bindTo(registry);
        environment.jersey().register(routes());
        environment.admin().addServlet("prometheus", new PrometheusServlet(registry)).addMapping(PATH);
        environment.admin().addServlet("metrics-json", new MetricsServlet(environment.metrics()))
                .addMapping(DROPWIZARD_PATH);
        environment.lifecycle().manage(new Managed() {
            @Override
            public void stop() {
                gc.close();
                registry.close();
            }
        });
    }
}
