package com.agentwallet.bootstrap;

import com.agentwallet.adapters.persistence.Persistence;
import com.agentwallet.adapters.persistence.PostgresWebhookBacklog;
import com.agentwallet.core.port.LedgerPort;
import com.codahale.metrics.health.HealthCheck;
import com.google.inject.Injector;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.health.DefaultHealthFactory;
import io.dropwizard.health.HealthCheckConfiguration;
import io.dropwizard.health.HealthCheckType;
import io.dropwizard.health.HealthFactory;
import io.dropwizard.health.Schedule;
import io.dropwizard.util.Duration;

import java.time.Clock;
import java.util.List;

/**
 * The server's health checks, and Dropwizard's health module that runs them in the background and
 * answers the admin port's {@code /health-check}: {@code ?type=ready} (readiness, for a load
 * balancer: every critical check) and {@code ?type=alive} (liveness, for an orchestrator: the checks
 * a restart would cure). The database and the ledger are ready checks; the background workers and
 * the JVM's deadlock detector are alive checks, so that a database outage takes a server out of the
 * balancer but never restarts it. The webhook backlog is shared by every server on the database, so
 * taking servers out would not drain it: it is reported, never critical. A check flips to unhealthy
 * after two failed runs and back after one good run.
 */
final class HealthChecks {
    static final String DEADLOCKS = "deadlocks";
    static final String DATABASE = "database";
    static final String LEDGER = "ledger";
    static final String CLOCKWORK = "clockwork";
    static final String WEBHOOK_WORKERS = "webhook-workers";
    static final String EXPORT_GENERATORS = "export-generators";
    static final String WEBHOOK_BACKLOG = "webhook-backlog";
    /** Where the module answers, on the admin connectors (beside Dropwizard's {@code /healthcheck}). */
    static final String PATH = "/health-check";

    private static final int FAILURES_TO_UNHEALTHY = 2;
    private static final int SUCCESSES_TO_HEALTHY = 1;

    private HealthChecks() {
    }

    /** The module's configuration: each check by name, with its type, whether it is critical, and its schedule. */
    static HealthFactory factory(ServiceConfiguration.HealthCheckSettings settings) {
        DefaultHealthFactory factory = new DefaultHealthFactory();
        Schedule schedule = new Schedule();
        Duration interval = Duration.milliseconds(settings.interval().toMillis());
        schedule.setCheckInterval(interval);
        schedule.setDowntimeInterval(interval);
        schedule.setFailureAttempts(FAILURES_TO_UNHEALTHY);
        schedule.setSuccessAttempts(SUCCESSES_TO_HEALTHY);
        factory.setHealthCheckConfigurations(List.of(
                check(DEADLOCKS, HealthCheckType.ALIVE, true, schedule),
                check(CLOCKWORK, HealthCheckType.ALIVE, true, schedule),
                check(WEBHOOK_WORKERS, HealthCheckType.ALIVE, true, schedule),
                check(EXPORT_GENERATORS, HealthCheckType.ALIVE, true, schedule),
                check(DATABASE, HealthCheckType.READY, true, schedule),
                check(LEDGER, HealthCheckType.READY, true, schedule),
                check(WEBHOOK_BACKLOG, HealthCheckType.READY, false, schedule)));
        factory.setHealthCheckUrlPaths(List.of(PATH));
        factory.setHealthResponderFactory(new AdminHealthResponder());
        return factory;
    }

    /**
     * Registers the checks the module schedules (Dropwizard registers {@code deadlocks} itself) and
     * mounts its responder on the admin connectors.
     */
    static void register(Environment environment, ServiceConfiguration configuration, Injector injector) {
        ServiceConfiguration.HealthCheckSettings settings = configuration.getHealthChecks();
        Clock clock = injector.getInstance(Clock.class);
        Persistence persistence = injector.getInstance(Persistence.class);
        Heartbeats heartbeats = injector.getInstance(Heartbeats.class);
        register(environment, DATABASE, new DatabaseHealthCheck(persistence.dataSource()));
        register(environment, LEDGER, new LedgerHealthCheck(injector.getInstance(LedgerPort.class), clock,
                settings.ledgerStall()));
        register(environment, CLOCKWORK, new StallHealthCheck(heartbeats.clockwork(), settings.workerStall()));
        register(environment, WEBHOOK_WORKERS,
                new StallHealthCheck(heartbeats.webhookWorkers(), settings.workerStall()));
        register(environment, EXPORT_GENERATORS,
                new StallHealthCheck(heartbeats.exportGenerators(), settings.exportStall()));
        register(environment, WEBHOOK_BACKLOG, new WebhookBacklogHealthCheck(
                new PostgresWebhookBacklog(persistence.jdbi()), clock, settings.webhookBacklog(),
                settings.webhookOldest()));
        configuration.getHealthFactory()
                .map(DefaultHealthFactory.class::cast)
                .map(DefaultHealthFactory::getHealthResponderFactory)
                .map(AdminHealthResponder.class::cast)
                .orElseThrow()
                .mountOn(environment.admin());
    }

    private static void register(Environment environment, String name, HealthCheck check) {
        environment.healthChecks().register(name, check);
    }

    private static HealthCheckConfiguration check(String name, HealthCheckType type, boolean critical,
                                                  Schedule schedule) {
        HealthCheckConfiguration check = new HealthCheckConfiguration();
        check.setName(name);
        check.setType(type);
        check.setCritical(critical);
        check.setSchedule(schedule);
        return check;
    }
}
