package com.agentwallet.bootstrap.api;

import com.agentwallet.bootstrap.api.ApiFixtures.Wallet;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringReader;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static com.agentwallet.bootstrap.api.ApiAssertions.assertTimestamp;
import static com.agentwallet.bootstrap.api.ApiFixtures.body;
import static com.agentwallet.bootstrap.api.ApiFixtures.field;
import static com.agentwallet.bootstrap.api.ApiFixtures.items;
import static com.agentwallet.bootstrap.api.ApiFixtures.randomAddress;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Exports end to end: the clockwork of the running server (it ticks every second) generates the
 * requested file, the job turns {@code ready} with its row count, and the download holds exactly
 * the rows {@code GET /transactions} lists for the wallet, newest first.
 */
class ExportDownloadTest {
    private static final Duration READY_WITHIN = Duration.ofSeconds(30);
    private static final String AWKWARD_MEMO = "Lunch, \"team\" day\nsecond line";
    /** A memo a spreadsheet would run as a formula, were it not neutralised. */
    private static final String FORMULA_MEMO = "=HYPERLINK(\"https://evil.example\",\"invoice\")";
    private static final List<String> CSV_HEADER = List.of("tx_id", "type", "status", "wallet_id", "amount",
            "currency", "recipient", "memo", "policy_triggered", "violation_rule", "violation_limit",
            "violation_attempted", "tx_signature", "on_chain_slot", "co_sign_expires_at", "escrow_id",
            "failure_reason", "timestamp", "updated_at");

    private final ApiServer server = ApiServer.shared();
    private final ApiFixtures fx = new ApiFixtures(server);
    private final ApiClient client = server.client();

    @Test
    void aCsvExportHoldsTheWalletsHistoryWithAHeaderRowAndRfc4180Quoting() throws IOException {
        Exported exported = exportOfAWalletWithHistory("csv");
        String id = exported.id();
        ApiResponse download = exported.download();
        List<JsonNode> listed = exported.listed();

        assertThat(download.header("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("text/csv"));
        assertThat(download.header("Content-Disposition")).contains("attachment; filename=\"" + id + ".csv\"");
        assertThat(download.raw()).startsWith(String.join(",", CSV_HEADER) + "\r\n")
                .contains("\"" + AWKWARD_MEMO.replace("\"", "\"\"") + "\"");
        List<CSVRecord> rows = parseCsv(download.raw());
        assertThat(exported.job().path("row_count").asLong()).isEqualTo(listed.size()).isEqualTo(rows.size());
        assertThat(rows.stream().map(row -> row.get("tx_id")).toList()).isEqualTo(field(listed, "tx_id"));
        for (int i = 0; i < rows.size(); i++) {
            CSVRecord row = rows.get(i);
            JsonNode tx = listed.get(i);
            for (String column : List.of("tx_id", "type", "status", "wallet_id", "amount", "currency", "recipient",
                    "tx_signature", "timestamp", "updated_at")) {
                assertThat(row.get(column)).as(column + " of " + tx).isEqualTo(tx.path(column).asText());
            }
            assertThat(row.get("memo")).isEqualTo(tx.path("memo").isNull() ? ""
                    : tx.path("memo").asText().equals(FORMULA_MEMO) ? "'" + FORMULA_MEMO : tx.path("memo").asText());
            assertThat(row.get("policy_triggered")).isEqualTo(tx.path("policy_triggered").asText());
            assertThat(row.get("on_chain_slot")).isEqualTo(tx.path("on_chain_slot").isNull() ? ""
                    : tx.path("on_chain_slot").asText());
        }
        assertThat(rows).extracting(row -> row.get("memo")).contains(AWKWARD_MEMO, "'" + FORMULA_MEMO);
    }

    @Test
    void aJsonExportIsOneArrayOfTheTransactionsAsTheApiListsThem() throws IOException {
        Exported exported = exportOfAWalletWithHistory("json");
        ApiResponse download = exported.download();

        assertThat(download.header("Content-Type")).hasValueSatisfying(type ->
                assertThat(type).startsWith("application/json"));
        JsonNode file = new ObjectMapper().readTree(download.raw());
        assertThat(file.isArray()).as(download.raw()).isTrue();
        List<JsonNode> elements = new ArrayList<>();
        file.forEach(elements::add);
        assertThat(elements).isEqualTo(exported.listed());
        assertThat(exported.job().path("row_count").asLong()).isEqualTo(elements.size());
    }

    /** A ready export job, its download (a 200) and the wallet's history as the API lists it. */
    private record Exported(String id, JsonNode job, ApiResponse download, List<JsonNode> listed) {
    }

    /** Requests an export of a new wallet's history, waits until it is ready and downloads it. */
    private Exported exportOfAWalletWithHistory(String format) {
        Wallet wallet = walletWithHistory();
        String id = requestExport(format, wallet.id());
        JsonNode ready = awaitReady(id);
        ApiResponse download = client.get("/transactions/exports/" + id + "/download", fx.org().viewerKey());
        assertThat(download.status()).as(download.toString()).isEqualTo(200);
        return new Exported(id, ready, download, history(wallet.id()));
    }

    /** A funded wallet with confirmed payments, one of them with a memo CSV must quote, one with a formula. */
    private Wallet walletWithHistory() {
        Wallet wallet = fx.fundedWallet("20.00");
        fx.confirmedPayment(wallet, randomAddress(), "1.25");
        ApiResponse awkward = fx.pay(wallet, randomAddress(), "2.50", Map.of("memo", AWKWARD_MEMO));
        assertThat(awkward.status()).as(awkward.toString()).isEqualTo(200);
        fx.pay(wallet, randomAddress(), "0.75", Map.of("memo", "plain"));
        ApiResponse formula = fx.pay(wallet, randomAddress(), "0.50", Map.of("memo", FORMULA_MEMO));
        assertThat(formula.status()).as(formula.toString()).isEqualTo(200);
        return wallet;
    }

    private String requestExport(String format, String walletId) {
        ApiResponse requested = client.post("/transactions/export", fx.org().viewerKey(),
                body("format", format, "wallet_id", walletId));
        assertThat(requested.status()).as(requested.toString()).isEqualTo(202);
        return requested.text("id");
    }

    /** Polls the job until the clockwork made it ready; fails if it fails or takes too long. */
    private JsonNode awaitReady(String id) {
        JsonNode ready = Eventually.await(READY_WITHIN, () -> "export " + id + " is not ready", () -> {
            ApiResponse job = client.get("/transactions/exports/" + id, fx.org().viewerKey());
            assertThat(job.status()).as(job.toString()).isEqualTo(200);
            assertThat(job.text("status")).as(job.toString()).isNotEqualTo("failed");
            return job.text("status").equals("ready") ? Optional.of(job.json()) : Optional.empty();
        });
        assertTimestamp(ready.path("completed_at"));
        assertTimestamp(ready.path("expires_at"));
        assertThat(Instant.parse(ready.path("expires_at").asText()))
                .isEqualTo(Instant.parse(ready.path("completed_at").asText()).plus(Duration.ofDays(7)));
        return ready;
    }

    private List<JsonNode> history(String walletId) {
        return items(client.get("/transactions?limit=100&wallet_id=" + walletId, fx.org().viewerKey()));
    }

    private static List<CSVRecord> parseCsv(String csv) throws IOException {
        try (CSVParser parser = CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true).get()
                .parse(new StringReader(csv))) {
            assertThat(parser.getHeaderNames()).isEqualTo(CSV_HEADER);
            return parser.getRecords();
        }
    }
}
