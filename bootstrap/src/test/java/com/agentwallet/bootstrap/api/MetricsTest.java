package com.agentwallet.bootstrap.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.StreamSupport;

import static com.agentwallet.bootstrap.api.ApiFixtures.body;
import static com.agentwallet.bootstrap.api.ApiFixtures.randomAddress;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The admin port's {@code /metrics} as Prometheus scrapes it, after a workload on a server of its own
 * (so every counter starts at zero and every gauge sees this workload alone): three payments confirmed,
 * two blocked by two rules, one held for its co-signature, one webhook delivered to a real receiver,
 * one export made. Every line of the text parses; the business counters are what the workload did;
 * the gauges read the database; the API's requests are counted by route template, and no id appears
 * anywhere; Dropwizard's own metrics are still there as JSON.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MetricsTest {
    private static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private ApiServer server;
    private ApiFixtures fx;
    private WebhookReceiver receiver;
    /** Every id the workload made or was given: none may appear in the metrics. */
    private final List<String> ids = new ArrayList<>();
    private Scrape scrape;

    /** One parsed sample line: {@code name{labels} value}. */
    private record Sample(String name, Map<String, String> labels, double value) {
    }

    /** The page as scraped: its content type, its text, and every sample line parsed. */
    private record Scrape(String contentType, String text, List<Sample> samples) {
        double value(String name, String... labels) {
            List<Sample> matching = matching(name, labels);
            assertThat(matching).as("one sample of %s %s", name, List.of(labels)).hasSize(1);
            return matching.get(0).value();
        }

        List<Sample> matching(String name, String... labels) {
            Map<String, String> wanted = new LinkedHashMap<>();
            for (int i = 0; i < labels.length; i += 2) {
                wanted.put(labels[i], labels[i + 1]);
            }
            return samples.stream().filter(sample -> sample.name().equals(name))
                    .filter(sample -> sample.labels().entrySet().containsAll(wanted.entrySet())).toList();
        }

        double total(String name) {
            return samples.stream().filter(sample -> sample.name().equals(name)).mapToDouble(Sample::value).sum();
        }
    }

    @BeforeAll
    void runTheWorkloadAndScrape() throws Exception {
        server = ApiServer.start();
        fx = new ApiFixtures(server);
        receiver = new WebhookReceiver(server.dataDirectory().resolve("tls/localhost.p12"), "agent-wallet-test");
        ids.add(server.org().id());

        ApiFixtures.Wallet capped = fx.wallet(fx.policy(body("max_per_tx", "10.00", "max_per_day", "25.00")));
        fx.fund(capped.id(), "100.00");
        ids.addAll(List.of(capped.id(), capped.address()));
        for (String amount : List.of("5.00", "5.00", "9.00")) {
            ApiResponse paid = fx.pay(capped, randomAddress(), amount);
            assertThat(paid.text("status")).as(paid.toString()).isEqualTo("confirmed");
            ids.add(id(paid, "tx_id"));
        }
        assertBlocked(fx.pay(capped, randomAddress(), "20.00"), "max_per_tx");
        assertBlocked(fx.pay(capped, randomAddress(), "9.00"), "max_per_day");
        assertThat(fx.client().get("/wallets/" + capped.id(), server.org().viewerKey()).status()).isEqualTo(200);

        ApiFixtures.Wallet coSigned = fx.wallet(fx.policy(body("require_co_sign", "100.00",
                "co_signer", fx.coSignerPublicKey())));
        fx.fund(coSigned.id(), "1000.00");
        ids.addAll(List.of(coSigned.id(), coSigned.address()));
        ApiResponse held = fx.pay(coSigned, randomAddress(), "100.00");
        assertThat(held.text("status")).as(held.toString()).isEqualTo("pending_co_sign");
        ids.add(id(held, "tx_id"));

        String exportId = id(fx.client().post("/transactions/export", server.org().viewerKey(),
                body("format", "csv", "walletId", capped.id())), "id");
        ids.add(exportId);
        Eventually.await(PATIENCE, () -> "export " + exportId + " ready", () -> Optional.of(
                        fx.client().get("/transactions/exports/" + exportId, server.org().viewerKey()))
                .filter(read -> read.text("status").equals("ready")));

        ApiResponse webhook = fx.client().post("/webhooks", server.org().adminKey(),
                Map.of("url", receiver.url(), "events", List.of("wallet.created")));
        assertThat(webhook.status()).as(webhook.toString()).isEqualTo(200);
        String webhookId = id(webhook, "webhook_id");
        ids.add(webhookId);
        String eventId = id(fx.client().post("/webhooks/" + webhookId + "/test", server.org().adminKey(), Map.of()),
                "event_id");
        ids.add(eventId);
        receiver.await(post -> post.body().contains(eventId), PATIENCE);
        awaitAttempt(webhookId, eventId);

        assertThat(fx.client().get("/no-such-route/" + capped.id(), server.org().viewerKey()).status()).isEqualTo(404);
        assertThat(raw("GET", "/dashboard/sign-in")).isEqualTo(200);
        assertThat(raw("GET", "/dashboard/wallets/" + capped.id())).as("signed out: sent to sign in").isEqualTo(303);
        assertThat(raw("POST", "/mcp")).as("no session token").isEqualTo(401);

        // The attempt is counted once its record is committed, just after the log shows it.
        scrape = Eventually.await(PATIENCE, () -> "the delivery counted", () -> Optional.of(scrape())
                .filter(page -> page.value("agentwallet_webhook_deliveries_total", "outcome", "delivered") == 1));
    }

    /** A request outside /v1 (the dashboard, /mcp) with no credential; answers its status. */
    private int raw(String method, String path) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(server.origin().resolve(path))
                .header("Accept", "text/html, application/json, text/event-stream")
                .method(method, method.equals("GET") ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString("{}"))
                .build();
        return HttpClient.newBuilder().sslContext(server.tls()).build()
                .send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    @AfterAll
    void stop() {
        if (receiver != null) {
            receiver.close();
        }
        if (server != null) {
            server.stop();
        }
    }

    @Test
    void thePageIsPrometheusTextEveryLineOfWhichParses() {
        assertThat(scrape.contentType()).startsWith("text/plain").contains("version=0.0.4");
        assertThat(scrape.samples()).hasSizeGreaterThan(50);
        assertThat(scrape.text()).contains("# TYPE agentwallet_payments_total counter");
    }

    @Test
    void paymentsAreCountedByOutcomeAndBlocksByRule() {
        assertThat(scrape.value("agentwallet_payments_total", "outcome", "confirmed")).isEqualTo(3);
        assertThat(scrape.value("agentwallet_payments_total", "outcome", "blocked")).isEqualTo(2);
        assertThat(scrape.value("agentwallet_payments_total", "outcome", "pending_co_sign")).isEqualTo(1);
        assertThat(scrape.total("agentwallet_payments_total")).isEqualTo(6);
        assertThat(scrape.value("agentwallet_payments_blocked_total", "rule", "max_per_tx")).isEqualTo(1);
        assertThat(scrape.value("agentwallet_payments_blocked_total", "rule", "max_per_day")).isEqualTo(1);
        assertThat(scrape.total("agentwallet_payments_blocked_total")).isEqualTo(2);
    }

    @Test
    void theDeliveryIsCountedAndNothingIsLeftDue() {
        assertThat(scrape.value("agentwallet_webhook_deliveries_total", "outcome", "delivered")).isEqualTo(1);
        assertThat(scrape.total("agentwallet_webhook_deliveries_total")).isEqualTo(1);
        assertThat(scrape.value("agentwallet_webhook_backlog")).isZero();
        assertThat(scrape.value("agentwallet_webhook_oldest_undelivered_age_seconds")).isZero();
    }

    @Test
    void theGaugesReadTheDatabase() {
        assertThat(scrape.value("agentwallet_cosign_holds_waiting")).isEqualTo(1);
        assertThat(scrape.value("agentwallet_cosign_oldest_hold_age_seconds")).isGreaterThanOrEqualTo(0);
        assertThat(scrape.value("agentwallet_settlement_pending")).isZero();
        assertThat(scrape.value("agentwallet_settlement_lag_seconds")).isZero();
        assertThat(scrape.value("agentwallet_exports_queued")).isZero();
        assertThat(scrape.value("agentwallet_exports_generating")).isZero();
    }

    @Test
    void theLedgersSubmissionsAreTimedAndNoneFailed() {
        // Each wallet opened, each funding, each payment sent to the ledger: at least the three confirmed.
        assertThat(scrape.value("agentwallet_ledger_submit_seconds_count")).isGreaterThanOrEqualTo(3);
        assertThat(scrape.matching("agentwallet_ledger_submit_seconds_bucket")).isNotEmpty();
        assertThat(scrape.total("agentwallet_ledger_errors_total")).isZero();
        assertThat(scrape.matching("agentwallet_ledger_errors_total")).extracting(sample -> sample.labels().get("kind"))
                .containsExactlyInAnyOrder("rejected", "unknown", "unavailable", "exception");
    }

    @Test
    void requestsAreCountedByRouteTemplateAndNoIdAppearsAnywhere() {
        String requests = "http_server_requests_seconds_count";
        assertThat(scrape.value(requests, "method", "POST", "uri", "/v1/payments", "status", "200")).isEqualTo(4);
        assertThat(scrape.value(requests, "method", "POST", "uri", "/v1/payments", "status", "422")).isEqualTo(2);
        assertThat(scrape.value(requests, "method", "GET", "uri", "/v1/wallets/{id}", "status", "200")).isEqualTo(1);
        assertThat(scrape.value(requests, "method", "POST", "uri", "/v1/wallets/{id}/fund", "status", "200"))
                .isEqualTo(2);
        assertThat(scrape.matching(requests, "uri", "NOT_FOUND", "status", "404")).isNotEmpty();
        assertThat(scrape.matching("http_server_requests_seconds_bucket", "method", "POST", "uri", "/v1/payments",
                "status", "200")).as("the latency buckets of a route").extracting(sample -> sample.labels().get("le"))
                .contains("0.025", "1.0", "10.0", "+Inf");
        assertThat(scrape.value(requests, "method", "GET", "uri", "/dashboard/sign-in", "status", "200")).isEqualTo(1);
        assertThat(scrape.value(requests, "method", "GET", "uri", "/dashboard/wallets/{id}", "status", "303"))
                .isEqualTo(1);
        assertThat(scrape.value(requests, "method", "POST", "uri", "/mcp", "status", "401")).isEqualTo(1);
        assertThat(scrape.matching(requests)).allSatisfy(sample -> assertThat(sample.labels().get("uri"))
                .matches("NOT_FOUND|/mcp|/(v1|dashboard)(/[a-z-]+|/\\{[a-zA-Z]+})*"));
        assertThat(ids).hasSize(12).allSatisfy(id -> assertThat(scrape.text()).doesNotContain(id));
    }

    @Test
    void thePoolAndTheJvmAreThere() {
        assertThat(scrape.matching("hikaricp_connections_max")).isNotEmpty();
        assertThat(scrape.matching("hikaricp_connections_active")).isNotEmpty();
        assertThat(scrape.matching("jvm_memory_used_bytes")).isNotEmpty();
        assertThat(scrape.matching("jvm_threads_live_threads")).isNotEmpty();
        assertThat(scrape.matching("jvm_classes_loaded_classes")).isNotEmpty();
        assertThat(scrape.matching("process_cpu_usage")).isNotEmpty();
    }

    @Test
    void openMetricsIsAnsweredWhenAskedFor() throws IOException, InterruptedException {
        HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(server.adminBase() + "/metrics"))
                .header("Accept", "application/openmetrics-text; version=1.0.0").build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type")).hasValueSatisfying(type ->
                assertThat(type).startsWith("application/openmetrics-text"));
        assertThat(page.body()).contains("agentwallet_payments_total{outcome=\"confirmed\"}").endsWith("# EOF\n");
    }

    @Test
    void dropwizardsOwnMetricsAreStillThereAsJson() throws IOException, InterruptedException {
        HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(server.adminBase() + "/metrics.json"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(page.statusCode()).isEqualTo(200);
        JsonNode metrics = JSON.readTree(page.body());
        assertThat(metrics.has("version")).isTrue();
        assertThat(metrics.has("gauges")).isTrue();
        assertThat(metrics.path("timers").size()).as("Dropwizard's timers: %s", metrics).isPositive();
    }

    private static String id(ApiResponse response, String field) {
        String id = response.text(field);
        assertThat(id).as("%s of %s", field, response).isNotBlank();
        return id;
    }

    private static void assertBlocked(ApiResponse paid, String rule) {
        assertThat(paid.status()).as(paid.toString()).isEqualTo(422);
        assertThat(paid.json().toString()).as(paid.toString()).contains(rule);
    }

    /** The delivery log's attempt for the event, once there is one. */
    private void awaitAttempt(String webhookId, String eventId) {
        Eventually.await(PATIENCE, () -> "no attempt logged for " + eventId, () -> StreamSupport.stream(
                        fx.client().get("/webhooks/" + webhookId + "/deliveries", server.org().viewerKey())
                                .json().path("data").spliterator(), false)
                .filter(attempt -> attempt.path("event_id").asText().equals(eventId))
                .findFirst());
    }

    private Scrape scrape() {
        try {
            HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(server.adminBase() + "/metrics"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
            return new Scrape(page.headers().firstValue("Content-Type").orElse(""), page.body(),
                    PrometheusText.parse(page.body()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Prometheus's text format, line by line: comments ({@code # HELP}, {@code # TYPE}) and blank lines
     * are skipped; every other line must be {@code name{label="value",...} value}, or the parse fails.
     */
    private static final class PrometheusText {
        private static final Pattern LINE = Pattern.compile(
                "([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})? (\\S+)(?: -?\\d+)?");
        private static final Pattern LABEL = Pattern.compile(
                "([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\[\\\\\"n])*)\"(,|$)");

        static List<Sample> parse(String text) {
            List<Sample> samples = new ArrayList<>();
            for (String line : text.split("\n")) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                Matcher sample = LINE.matcher(line);
                assertThat(sample.matches()).as("a sample line: %s", line).isTrue();
                samples.add(new Sample(sample.group(1), labels(line, sample.group(2)), value(line, sample.group(3))));
            }
            return samples;
        }

        private static Map<String, String> labels(String line, String text) {
            Map<String, String> labels = new LinkedHashMap<>();
            if (text == null || text.isEmpty()) {
                return labels;
            }
            Matcher label = LABEL.matcher(text);
            int end = 0;
            while (end < text.length()) {
                assertThat(label.find(end) && label.start() == end).as("labels of %s", line).isTrue();
                labels.put(label.group(1), label.group(2).replace("\\n", "\n").replace("\\\"", "\"")
                        .replace("\\\\", "\\"));
                end = label.end();
            }
            return labels;
        }

        private static double value(String line, String text) {
            return switch (text) {
                case "+Inf" -> Double.POSITIVE_INFINITY;
                case "-Inf" -> Double.NEGATIVE_INFINITY;
                case "NaN" -> Double.NaN;
                default -> {
                    try {
                        yield Double.parseDouble(text);
                    } catch (NumberFormatException e) {
                        throw new AssertionError("not a sample value in " + line, e);
                    }
                }
            };
        }
    }
}
