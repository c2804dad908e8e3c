package com.agentwallet.bootstrap.api;

import com.agentwallet.adapters.persistence.EmbeddedDatabase;
import com.agentwallet.adapters.persistence.PersistenceSettings;
import com.agentwallet.core.webhook.RetrySchedule;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.testing.ConfigOverride;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The admin port's health checks as a load balancer and an orchestrator poll them, through the real
 * wiring: Dropwizard's health module at {@code /health-check}, readiness ({@code ?type=ready}) and
 * liveness ({@code ?type=alive}), every check named in its JSON with {@code ?name=all}; and
 * Dropwizard's {@code /healthcheck}, with each check's message. Each check goes unhealthy when what
 * it watches fails, and healthy again after: the database refusing connections, the ledger out of
 * reach, the clockwork's last round left behind by a clock moved far ahead. Readiness fails with each;
 * liveness with the stalled worker only. The webhook backlog (bound: two due deliveries here) is
 * reported and never fails a probe. The checks run every 100 ms here; nothing is timed. A worker
 * stalls after 10 minutes here, not 1: the backlog test moves the clock 2 minutes on, and the
 * clockwork's round with the database down takes long enough that its beat before such a move would
 * read as a stall in the test after it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HealthCheckTest {
    private static final Duration LIMIT = Duration.ofMinutes(2);
    private static final String READY = "ready";
    private static final String ALIVE = "alive";

    private final JumpingClock clock = new JumpingClock();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final ObjectMapper mapper = new ObjectMapper();
    private ApiServer server;

    /** One answer of {@code /health-check}: its status, Cache-Control, and each check's view by name. */
    private record Health(int status, Optional<String> cacheControl, Map<String, JsonNode> checks) {
        boolean healthy(String check) {
            return checks.get(check).get("healthy").asBoolean();
        }
    }

    @BeforeAll
    void start() {
        server = ApiServer.start(clock, ApiServer.newDataDirectory(),
                ConfigOverride.config("ledger.type", FaultSwitchLedger.NAME),
                ConfigOverride.config("healthChecks.interval", "100ms"),
                ConfigOverride.config("healthChecks.workerStall", "10m"),
                ConfigOverride.config("healthChecks.webhookBacklog", "2"));
    }

    @AfterAll
    void stop() {
        server.stop();
    }

    @BeforeEach
    void everyCheckIsHealthy() {
        await("every check healthy", READY, health -> health.status() == 200
                && health.checks().values().stream().allMatch(check -> check.get("healthy").asBoolean()));
    }

    @Test
    void bothViewsAnswer200NamingEveryCheckWithItsTypeAndNothingIsWarnedAtStart() throws IOException {
        Health ready = health(READY);
        assertThat(ready.status()).isEqualTo(200);
        assertThat(ready.cacheControl()).contains("no-store");
        assertThat(ready.checks()).containsOnlyKeys("deadlocks", "database", "ledger", "clockwork",
                "webhook-workers", "export-generators", "webhook-backlog");
        assertView(ready, "database", "READY", true);
        assertView(ready, "ledger", "READY", true);
        assertView(ready, "webhook-backlog", "READY", false);
        assertView(ready, "clockwork", "ALIVE", true);
        assertView(ready, "webhook-workers", "ALIVE", true);
        assertView(ready, "export-generators", "ALIVE", true);
        assertView(ready, "deadlocks", "ALIVE", true);
        assertThat(health(ALIVE).status()).isEqualTo(200);

        HttpResponse<String> detailed = get("/healthcheck");
        assertThat(detailed.statusCode()).isEqualTo(200);
        JsonNode checks = mapper.readTree(detailed.body());
        assertThat(checks.get("ledger").get("message").asText()).startsWith("slot ");
        assertThat(checks.get("webhook-backlog").get("message").asText()).contains("webhook deliveries are due");
        assertThat(checks.get("clockwork").get("healthy").asBoolean()).isTrue();

        String log = Files.readString(server.dataDirectory().resolve(ApiServer.LOG_FILE));
        assertThat(log).doesNotContain("HEALTHCHECKS").doesNotContain("health check(s)");
    }

    @Test
    void withTheDatabaseRefusingConnectionsReadinessFailsWhileLivenessHoldsThenBothRecover() throws SQLException {
        try (Connection admin = DriverManager.getConnection(BooksAndChain.databaseUrl(server.dataDirectory())
                        .replace("/" + PersistenceSettings.EMBEDDED_DATABASE, "/postgres"), EmbeddedDatabase.USER,
                BooksAndChain.databasePassword(server.dataDirectory()));
             Statement sql = admin.createStatement()) {
            try {
                sql.execute("ALTER DATABASE " + PersistenceSettings.EMBEDDED_DATABASE + " ALLOW_CONNECTIONS false");
                sql.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '"
                        + PersistenceSettings.EMBEDDED_DATABASE + "'");

                Health ready = await("readiness failing on the database", READY,
                        health -> health.status() == 503 && !health.healthy("database"));
                assertThat(ready.healthy("ledger")).isTrue();
                Health alive = health(ALIVE);
                assertThat(alive.status()).as("liveness, with the database down: %s", alive.checks()).isEqualTo(200);
                assertThat(alive.healthy("clockwork")).isTrue();
                HttpResponse<String> detailed = get("/healthcheck");
                assertThat(detailed.statusCode()).isEqualTo(500);
                assertThat(detailed.body()).as("the classic page, each failure by its message")
                        .contains("the database is unavailable").contains("cannot read the webhook backlog")
                        .doesNotContain("\"stack\"").doesNotContain("at com.");
            } finally {
                sql.execute("ALTER DATABASE " + PersistenceSettings.EMBEDDED_DATABASE + " ALLOW_CONNECTIONS true");
            }
        }
        await("readiness back with the database", READY,
                health -> health.status() == 200 && health.healthy("database"));
    }

    @Test
    void withTheLedgerOutOfReachReadinessFailsWhileLivenessHoldsThenBothRecover() throws IOException {
        FaultSwitchLedger ledger = FaultSwitchLedger.of(server.dataDirectory());
        try {
            ledger.unreachable(true);
            Health ready = await("readiness failing on the ledger", READY,
                    health -> health.status() == 503 && !health.healthy("ledger"));
            assertThat(ready.healthy("database")).isTrue();
            assertThat(health(ALIVE).status()).as("liveness, with the ledger out of reach").isEqualTo(200);
            JsonNode detailed = mapper.readTree(get("/healthcheck").body());
            assertThat(detailed.get("ledger").get("message").asText()).contains("out of reach");
        } finally {
            ledger.unreachable(false);
        }
        await("readiness back with the ledger", READY, health -> health.status() == 200 && health.healthy("ledger"));
    }

    /**
     * The clock is moved an hour ahead at each look, far faster than the clockwork's rounds (a
     * second apart) follow it: its last round is always hours old, as a stuck worker's would be.
     */
    @Test
    void withTheClockworkFallenBehindLivenessAndReadinessFailThenRecoverOnceItCatchesUp() {
        Health alive = await("liveness failing on the clockwork", ALIVE, health -> {
            clock.jumpTo(Instant.now(clock).plus(Duration.ofHours(1)));
            return health.status() == 503 && !health.healthy("clockwork");
        });
        assertThat(alive.healthy("deadlocks")).isTrue();
        assertThat(health(READY).status()).as("readiness, with a worker stalled").isEqualTo(503);

        await("liveness back once the clockwork caught up", ALIVE,
                health -> health.status() == 200 && health.healthy("clockwork"));
    }

    /**
     * The receiver holds every POST, so one delivery at a time is in flight, times out and waits for
     * its retry, while the others stay due behind it: more than the bound of two. The backlog is
     * shared by every server, so it is reported and fails {@code /healthcheck}, never readiness.
     * Answered, and the clock moved past the retries, the backlog drains.
     */
    @Test
    void withWebhookDeliveriesPilingUpTheBacklogIsReportedUnhealthyWithoutFailingReadinessThenDrains()
            throws IOException {
        ApiFixtures fixtures = new ApiFixtures(server);
        try (WebhookReceiver receiver = new WebhookReceiver(server.dataDirectory().resolve("tls/localhost.p12"),
                "agent-wallet-test")) {
            receiver.hold();
            ApiResponse webhook = fixtures.client().post("/webhooks", fixtures.org().adminKey(),
                    Map.of("url", receiver.url(), "events", List.of("wallet.created", "wallet.funded")));
            assertThat(webhook.status()).as(webhook.toString()).isEqualTo(200);
            fixtures.fundedWallet("1.00");
            fixtures.fundedWallet("1.00");

            Health ready = await("the backlog reported", READY, health -> !health.healthy("webhook-backlog"));
            assertThat(ready.status()).as("readiness, with the backlog over its bound").isEqualTo(200);
            assertThat(health(ALIVE).status()).isEqualTo(200);
            HttpResponse<String> detailed = get("/healthcheck");
            assertThat(detailed.statusCode()).isEqualTo(500);
            assertThat(mapper.readTree(detailed.body()).get("webhook-backlog").get("message").asText())
                    .startsWith("more than 2 webhook deliveries are due");

            receiver.release();
            clock.jumpTo(Instant.now(clock).plus(RetrySchedule.OFFSETS.get(1).multipliedBy(2)));
            await("the backlog drained", READY, health -> health.healthy("webhook-backlog"));
        }
    }

    private static void assertView(Health health, String check, String type, boolean critical) {
        JsonNode view = health.checks().get(check);
        assertThat(view.get("healthy").asBoolean()).as("%s healthy", check).isTrue();
        assertThat(view.get("type").asText()).as("%s type", check).isEqualTo(type);
        assertThat(view.get("critical").asBoolean()).as("%s critical", check).isEqualTo(critical);
    }

    private Health await(String what, String type, Predicate<Health> until) {
        Health[] last = new Health[1];
        return Eventually.await(LIMIT, () -> what + " (last answer: " + last[0] + ")", () -> {
            last[0] = health(type);
            return Optional.of(last[0]).filter(until);
        });
    }

    private Health health(String type) {
        HttpResponse<String> response = get("/health-check?type=" + type + "&name=all");
        try {
            Map<String, JsonNode> checks = new LinkedHashMap<>();
            mapper.readTree(response.body()).forEach(view -> checks.put(view.get("name").asText(), view));
            assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                    contentType -> assertThat(contentType).startsWith("application/json"));
            return new Health(response.statusCode(), response.headers().firstValue("Cache-Control"), checks);
        } catch (IOException e) {
            throw new UncheckedIOException(response.body(), e);
        }
    }

    private HttpResponse<String> get(String path) {
        try {
            return http.send(HttpRequest.newBuilder(URI.create(server.adminBase() + path)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
