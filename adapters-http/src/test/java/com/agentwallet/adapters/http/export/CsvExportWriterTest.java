package com.agentwallet.adapters.http.export;

import com.agentwallet.core.export.ExportFormat;
import com.agentwallet.core.payment.Transaction;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringReader;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class CsvExportWriterTest {
    private final SampleTransactions samples = new SampleTransactions();
    private final CsvExportWriter writer = new CsvExportWriter();

    @Test
    void theFileStartsWithTheHeaderRowAndEndsEveryRecordWithCrLf() {
        String csv = write(samples.confirmed("coffee"));

        assertThat(writer.format()).isEqualTo(ExportFormat.CSV);
        assertThat(csv).startsWith("tx_id,type,status,wallet_id,amount,currency,recipient,memo,policy_triggered,"
                + "violation_rule,violation_limit,violation_attempted,tx_signature,on_chain_slot,co_sign_expires_at,"
                + "escrow_id,failure_reason,timestamp,updated_at\r\n");
        assertThat(csv).endsWith("\r\n");
        assertThat(csv.split("\r\n", -1)).hasSize(3);
    }

    @Test
    void aRowHoldsTheApisValuesAndEmptyFieldsForNulls() throws IOException {
        Transaction tx = samples.confirmed("coffee");

        CSVRecord row = parse(write(tx)).get(0);

        assertThat(row.toMap()).containsEntry("tx_id", tx.id().value()).containsEntry("type", "payment")
                .containsEntry("status", "confirmed").containsEntry("wallet_id", tx.walletId().value())
                .containsEntry("amount", "12.50").containsEntry("currency", "USDC").containsEntry("memo", "coffee")
                .containsEntry("policy_triggered", "false").containsEntry("violation_rule", "")
                .containsEntry("tx_signature", "5sig").containsEntry("on_chain_slot", "42")
                .containsEntry("escrow_id", "").containsEntry("timestamp", "2025-03-01T12:00:00.123Z")
                .containsEntry("updated_at", "2025-03-01T12:00:02.123Z");
        assertThat(row.size()).isEqualTo(CsvExportWriter.HEADER.size());
    }

    @Test
    void commasQuotesAndLineBreaksAreQuotedAsRfc4180Says() throws IOException {
        String csv = write(samples.confirmed(SampleTransactions.AWKWARD_MEMO), samples.confirmed("plain"));

        assertThat(csv).contains(",\"Invoice 7, \"\"rush\"\"\r\nsecond line\",")
                .contains(",plain,");
        List<CSVRecord> rows = parse(csv);
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0).get("memo")).isEqualTo(SampleTransactions.AWKWARD_MEMO);
        assertThat(rows.get(1).get("memo")).isEqualTo("plain");
    }

    @Test
    void aCellASpreadsheetWouldReadAsAFormulaGetsALeadingApostrophe() throws IOException {
        List<String> formulas = List.of("=HYPERLINK(\"http://evil\")", "+1+2", "-2+3", "@SUM(A1)", "\tlead", "\rlead");
        List<Transaction> txs = formulas.stream().map(samples::confirmed).toList();

        List<CSVRecord> rows = parse(write(txs.toArray(Transaction[]::new)));

        assertThat(rows).extracting(row -> row.get("memo")).containsExactlyElementsOf(
                formulas.stream().map(memo -> "'" + memo).toList());
    }

    @Test
    void aCellWithAFormulaCharacterAnywhereButFirstIsLeftAsItIs() throws IOException {
        CSVRecord row = parse(write(samples.confirmed("coffee = 2+2 @ 3-1"))).get(0);

        assertThat(row.get("memo")).isEqualTo("coffee = 2+2 @ 3-1");
        assertThat(row.get("amount")).isEqualTo("12.50");
    }

    @Test
    void aViolationIsFlattenedIntoThreeColumns() throws IOException {
        CSVRecord row = parse(write(samples.blocked())).get(0);

        assertThat(row.get("status")).isEqualTo("blocked");
        assertThat(row.get("policy_triggered")).isEqualTo("true");
        assertThat(row.get("violation_rule")).isEqualTo("max_per_tx");
        assertThat(row.get("violation_limit")).isEqualTo("500.00");
        assertThat(row.get("violation_attempted")).isEqualTo("900.00");
    }

    @Test
    void anEmptyExportIsTheHeaderAlone() {
        assertThat(write()).isEqualTo(String.join(",", CsvExportWriter.HEADER) + "\r\n");
    }

    private String write(Transaction... transactions) {
        return SampleTransactions.write(writer, transactions);
    }

    private static List<CSVRecord> parse(String csv) throws IOException {
        try (CSVParser parser = CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true).get()
                .parse(new StringReader(csv))) {
            return parser.getRecords();
        }
    }
}
