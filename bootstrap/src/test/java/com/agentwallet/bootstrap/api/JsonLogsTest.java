package com.agentwallet.bootstrap.api;

import com.agentwallet.core.testing.TempFolders;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dropwizard.testing.ConfigOverride;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static com.agentwallet.bootstrap.api.ApiAssertions.assertError;
import static com.agentwallet.bootstrap.api.ApiFixtures.body;
import static com.agentwallet.bootstrap.api.ApiFixtures.payment;
import static com.agentwallet.bootstrap.api.ApiFixtures.randomAddress;
import static com.agentwallet.bootstrap.api.ApiFixtures.unique;
import static com.agentwallet.bootstrap.api.ApiServer.read;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The server with the JSON layouts docs/OPERATIONS.md ("Logs") shows, on its log file and its
 * request log, and the tests' text layouts on a second file of each: a run that pays, delivers a
 * webhook, refuses a key and fails a request on a ledger out of reach leaves JSON files of which
 * every line parses as a JSON object with the fields a log pipeline reads; the lines logged while
 * serving a request carry the id the request was answered with, in either layout, and the
 * background's lines carry none; no line of the four files carries a secret the run handled.
 */
class JsonLogsTest {
    private static final Duration PATIENCE = Duration.ofSeconds(15);
    private static final ObjectMapper JSON = new ObjectMapper();

    private static ApiServer server;
    /** The same log and request log in the tests' text layout, written beside the JSON ones. */
    private static Path textLog;
    private static Path textRequestLog;
    private static List<JsonNode> logLines;
    private static List<JsonNode> requestLines;
    /** Secrets the run handled, by what they are. */
    private static final Map<String, String> SECRETS = new LinkedHashMap<>();
    /** The request refused 503 while the ledger was out of reach, which the server logs as a warning. */
    private static ApiResponse unavailable;
    /** Every answer the run read itself, for its Request-Id. */
    private static final List<ApiResponse> ANSWERS = new ArrayList<>();

    @BeforeAll
    static void aRunWithJsonLogs() {
        Path text = TempFolders.make("agent-wallet-text-logs");
        textLog = text.resolve(ApiServer.LOG_FILE);
        textRequestLog = text.resolve(ApiServer.REQUEST_LOG_FILE);
        server = ApiServer.startEdited(config -> {
            ArrayNode appenders = (ArrayNode) config.path("logging").path("appenders");
            ObjectNode log = (ObjectNode) appenders.get(1);
            appenders.add(log.deepCopy().put("currentLogFilename", textLog.toString()));
            log.putObject("layout").put("type", "json").put("flattenMdc", true);
            ArrayNode requestAppenders = (ArrayNode) config.path("server").path("requestLog").path("appenders");
            ObjectNode requestLog = (ObjectNode) requestAppenders.get(0);
            requestAppenders.add(requestLog.deepCopy().put("currentLogFilename", textRequestLog.toString()));
            requestLog.putObject("layout").put("type", "access-json").putArray("responseHeaders").add("Request-Id");
        }, ConfigOverride.config("logging.level", "INFO"), ConfigOverride.config("ledger.type", FaultSwitchLedger.NAME));
        try {
            run();
        } finally {
            server.stop();
        }
        logLines = parse(server.dataDirectory().resolve(ApiServer.LOG_FILE));
        requestLines = parse(server.dataDirectory().resolve(ApiServer.REQUEST_LOG_FILE));
        System.out.printf("JSON logs: %d lines in the log, %d in the request log; for example%n  %s%n  %s%n",
                logLines.size(), requestLines.size(), logLines.stream().filter(line -> line.has("request_id"))
                        .findFirst().orElse(null), requestLines.get(requestLines.size() - 1));
    }

    private static void run() {
        ApiClient client = server.client();
        DemoOrg org = server.org();
        ApiFixtures fx = new ApiFixtures(server);
        for (DemoOrg each : List.of(server.org(), server.otherOrg())) {
            SECRETS.put(each.id() + " owner key", each.ownerKey());
            SECRETS.put(each.id() + " admin key", each.adminKey());
            SECRETS.put(each.id() + " operator key", each.operatorKey());
            SECRETS.put(each.id() + " viewer key", each.viewerKey());
            SECRETS.put(each.id() + " co-signer key", each.coSignerSecretKey());
            each.dashboardUsers().forEach(user -> SECRETS.put(user.email() + " password", user.password()));
        }
        SECRETS.put("session signing key", read(server.dataDirectory().resolve("session-signing.key")).trim());

        try (WebhookReceiver receiver = new WebhookReceiver(server.dataDirectory().resolve("tls/localhost.p12"),
                "agent-wallet-test")) {
            ApiResponse webhook = answer(client.post("/webhooks", org.adminKey(),
                    body("url", receiver.url(), "events", List.of("transaction.completed"))));
            assertThat(webhook.status()).as(webhook.toString()).isEqualTo(200);
            SECRETS.put("webhook signing secret", webhook.text("signing_secret"));

            ApiFixtures.Wallet wallet = fx.fundedWallet("10.00");
            SECRETS.put("session token", wallet.token());
            ApiResponse paid = answer(fx.pay(wallet, randomAddress(), "1.00"));
            assertThat(paid.status()).as(paid.toString()).isEqualTo(200);
            receiver.await(post -> post.isEvent("transaction.completed", wallet.id()), PATIENCE);

            // credentials where they do not belong, refused: their requests are logged too
            assertError(answer(client.get("/wallets", org.adminKey() + "0")), 401, "authentication_failed");
            assertThat(answer(client.get("/wallets", wallet.token())).status()).isEqualTo(403);
            assertThat(answer(client.call("POST", "/payments").key(org.adminKey()).header("Session-Token",
                    org.adminKey()).body(payment(wallet.id(), randomAddress(), "1.00")).send()).status()).isEqualTo(401);
        }

        FaultSwitchLedger ledger = FaultSwitchLedger.of(server.dataDirectory());
        ledger.unreachable(true);
        try {
            unavailable = answer(client.post("/policies", org.adminKey(), body("name", unique("unreachable"))));
        } finally {
            ledger.unreachable(false);
        }
        assertError(unavailable, 503, "service_unavailable");
    }

    @Test
    void everyLineOfTheLogIsAJsonObjectWithTheFieldsAPipelineReads() {
        assertThat(logLines).as("the log").isNotEmpty();
        for (JsonNode line : logLines) {
            for (String field : List.of("timestamp", "level", "logger", "message", "thread")) {
                assertThat(line.path(field).isMissingNode()).as(field + " in " + line).isFalse();
            }
            assertThat(line.path("level").asText()).as(line.toString()).isIn("ERROR", "WARN", "INFO");
        }
    }

    @Test
    void theWarningOfAFailedRequestCarriesTheIdItWasAnsweredWith() {
        String requestId = unavailable.header("Request-Id").orElseThrow();
        List<JsonNode> warned = logLines.stream().filter(line -> line.path("message").asText()
                .startsWith("Answered 503 service_unavailable")).toList();

        assertThat(warned).as("the 503's warning").hasSize(1);
        assertThat(warned.get(0).path("level").asText()).isEqualTo("WARN");
        assertThat(warned.get(0).path("request_id").asText()).isEqualTo(requestId);
        assertThat(logLines.stream().filter(line -> requestId.equals(line.path("request_id").asText())))
                .as("the lines of the request").containsExactly(warned.get(0));
    }

    @Test
    void theTextLayoutShowsTheSameIdsInBrackets() {
        String requestId = unavailable.header("Request-Id").orElseThrow();
        assertThat(read(textLog).lines().filter(line -> line.contains(requestId)))
                .as("the 503's lines in the text log").singleElement().asString()
                .startsWith("WARN  [").contains("] [" + requestId + "] com.agentwallet.adapters.http.error.ErrorMapper:"
                        + " Answered 503 service_unavailable");
        List<String> requests = read(textRequestLog).lines().toList();
        for (ApiResponse answer : ANSWERS) {
            String id = answer.header("Request-Id").orElseThrow();
            assertThat(requests).as("the text request log line of " + answer)
                    .anyMatch(line -> line.endsWith(" " + id) && line.contains("\" " + answer.status() + " "));
        }
    }

    @Test
    void linesLoggedInTheBackgroundCarryNoRequestId() {
        List<JsonNode> background = logLines.stream().filter(line -> !line.path("thread").asText().startsWith("dw-"))
                .toList();
        assertThat(background).as("lines of the clockwork, the workers, start and stop").isNotEmpty()
                .allSatisfy(line -> assertThat(line.has("request_id")).as(line.toString()).isFalse());
    }

    @Test
    void everyLineOfTheRequestLogIsAJsonObjectWithTheRequestsId() {
        assertThat(requestLines).as("the request log").isNotEmpty();
        for (JsonNode line : requestLines) {
            for (String field : List.of("timestamp", "method", "uri", "status")) {
                assertThat(line.path(field).isMissingNode()).as(field + " in " + line).isFalse();
            }
            assertThat(line.path("responseHeaders").path("Request-Id").asText()).as(line.toString()).startsWith("req_");
        }
        for (ApiResponse answer : ANSWERS) {
            String requestId = answer.header("Request-Id").orElseThrow();
            assertThat(requestLines).as("the request log line of " + answer)
                    .anySatisfy(line -> {
                        assertThat(line.path("responseHeaders").path("Request-Id").asText()).isEqualTo(requestId);
                        assertThat(line.path("status").asInt()).isEqualTo(answer.status());
                    });
        }
    }

    @Test
    void noLineCarriesASecretTheRunHandled() {
        String logged = read(server.dataDirectory().resolve(ApiServer.LOG_FILE))
                + read(server.dataDirectory().resolve(ApiServer.REQUEST_LOG_FILE)) + read(textLog) + read(textRequestLog);
        List<String> leaks = SECRETS.entrySet().stream().filter(secret -> logged.contains(secret.getValue()))
                .map(Map.Entry::getKey).toList();
        System.out.printf("JSON logs: %d secrets checked in %d lines, %d found%n", SECRETS.size(),
                logged.lines().count(), leaks.size());
        assertThat(leaks).as("secrets in the JSON logs").isEmpty();
    }

    private static ApiResponse answer(ApiResponse answer) {
        ANSWERS.add(answer);
        return answer;
    }

    /** Each line of the file as a JSON object; a line that is not one fails the test, naming it. */
    private static List<JsonNode> parse(Path file) {
        List<JsonNode> lines = new ArrayList<>();
        for (String line : read(file).lines().toList()) {
            try {
                JsonNode parsed = JSON.readTree(line);
                assertThat(parsed != null && parsed.isObject()).as("a JSON object: " + line).isTrue();
                lines.add(parsed);
            } catch (IOException e) {
                throw new AssertionError(file.getFileName() + " has a line that is not JSON: " + line, e);
            }
        }
        return lines;
    }
}
