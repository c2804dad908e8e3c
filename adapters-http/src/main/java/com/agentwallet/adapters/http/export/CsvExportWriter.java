package com.agentwallet.adapters.http.export;

import com.agentwallet.adapters.http.view.TransactionJson;
import com.agentwallet.core.export.ExportFormat;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.port.ExportWriter;
import com.agentwallet.edge.error.ErrorJson;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

import java.io.BufferedWriter;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * CSV export files: UTF-8, RFC 4180 (comma separated, CRLF line ends, a field quoted when it holds
 * a comma, a quote or a line break, quotes doubled), a header row, then one row per transaction
 * with the values of the API's transaction ({@link TransactionJson}): its fields in snake_case,
 * {@code violation} flattened into three columns, without {@code object} and
 * {@code co_sign_payload}. A null is an empty field.
 */
public final class CsvExportWriter implements ExportWriter {
    private static final List<Column> COLUMNS = List.of(
            new Column("tx_id", TransactionJson::txId),
            new Column("type", TransactionJson::type),
            new Column("status", TransactionJson::status),
            new Column("wallet_id", TransactionJson::walletId),
            new Column("amount", TransactionJson::amount),
            new Column("currency", TransactionJson::currency),
            new Column("recipient", TransactionJson::recipient),
            new Column("memo", TransactionJson::memo),
            new Column("policy_triggered", TransactionJson::policyTriggered),
            new Column("violation_rule", tx -> violation(tx, ErrorJson.ViolationJson::rule)),
            new Column("violation_limit", tx -> violation(tx, ErrorJson.ViolationJson::limit)),
            new Column("violation_attempted", tx -> violation(tx, ErrorJson.ViolationJson::attempted)),
            new Column("tx_signature", TransactionJson::txSignature),
            new Column("on_chain_slot", TransactionJson::onChainSlot),
            new Column("co_sign_expires_at", TransactionJson::coSignExpiresAt),
            new Column("escrow_id", TransactionJson::escrowId),
            new Column("failure_reason", TransactionJson::failureReason),
            new Column("timestamp", TransactionJson::timestamp),
            new Column("updated_at", TransactionJson::updatedAt));
    /** The header row, in column order. */
    public static final List<String> HEADER = COLUMNS.stream().map(Column::name).toList();
    private static final CSVFormat FORMAT = CSVFormat.RFC4180.builder()
            .setHeader(HEADER.toArray(String[]::new))
            .get();

    private record Column(String name, Function<TransactionJson, Object> value) {
    }

    @Override
    public ExportFormat format() {
        return ExportFormat.CSV;
    }

    @Override
    public Rows begin(OutputStream out) {
        CSVPrinter printer = UncheckedIo.call(() -> new CSVPrinter(
                new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8)), FORMAT));
        return new Rows() {
            public void row(Transaction transaction) {
                TransactionJson json = TransactionJson.of(transaction);
                Object[] values = COLUMNS.stream().map(column -> neutralised(column.value().apply(json))).toArray();
                UncheckedIo.run(() -> printer.printRecord(values));
            }

            public void end() {
                UncheckedIo.run(printer::flush);
            }
        };
    }

    /**
     * A cell a spreadsheet would read as a formula (starting with {@code =}, {@code +}, {@code -},
     * {@code @}, a tab or a carriage return: a memo or recipient is the caller's text) gets a
     * leading {@code '}, so that opening the file never runs it.
     */
    private static Object neutralised(Object cell) {
        if (cell instanceof String text && !text.isEmpty() && "=+-@\t\r".indexOf(text.charAt(0)) >= 0) {
            return "'" + text;
        }
        return cell;
    }

    private static Object violation(TransactionJson tx, Function<ErrorJson.ViolationJson, String> field) {
        return Optional.ofNullable(tx.violation()).map(field).orElse(null);
    }
}
