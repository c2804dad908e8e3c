package com.agentwallet.adapters.http.export;

import com.agentwallet.adapters.http.json.ApiJson;
import com.agentwallet.adapters.http.view.TransactionJson;
import com.agentwallet.core.export.ExportFormat;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.port.ExportWriter;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

class JsonExportWriterTest {
    private final ObjectMapper api = ApiJson.configure(new ObjectMapper());
    private final SampleTransactions samples = new SampleTransactions();
    private final JsonExportWriter writer = new JsonExportWriter(api);

    @Test
    void theFileIsOneArrayOfTransactionsExactlyAsTheApiAnswersThem() throws IOException {
        Transaction confirmed = samples.confirmed(SampleTransactions.AWKWARD_MEMO);
        Transaction blocked = samples.blocked();

        JsonNode file = api.readTree(write(confirmed, blocked));

        assertThat(writer.format()).isEqualTo(ExportFormat.JSON);
        assertThat(file.isArray()).isTrue();
        assertThat(file).hasSize(2);
        assertThat(file.get(0)).isEqualTo(asTheApiAnswers(confirmed));
        assertThat(file.get(1)).isEqualTo(asTheApiAnswers(blocked));
        assertThat(file.get(0).get("object").asText()).isEqualTo("transaction");
        assertThat(file.get(0).get("tx_id").asText()).isEqualTo(confirmed.id().value());
        assertThat(file.get(0).get("amount").asText()).isEqualTo("12.50");
        assertThat(file.get(0).get("memo").asText()).isEqualTo(SampleTransactions.AWKWARD_MEMO);
        assertThat(file.get(0).has("escrow_id")).as("nulls are written").isTrue();
        assertThat(file.get(0).get("escrow_id").isNull()).isTrue();
        assertThat(file.get(1).get("violation").get("rule").asText()).isEqualTo("max_per_tx");
    }

    @Test
    void anEmptyExportIsAnEmptyArray() {
        assertThat(write()).isEqualTo("[]");
    }

    @Test
    void theStreamIsLeftOpenForItsOwner() throws IOException {
        AtomicBoolean closed = new AtomicBoolean();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ExportWriter.Rows rows = writer.begin(new FilterOutputStream(bytes) {
            @Override
            public void close() throws IOException {
                closed.set(true);
                super.close();
            }
        });
        rows.row(samples.confirmed("one"));
        rows.end();

        assertThat(closed).isFalse();
        assertThat(api.readTree(bytes.toByteArray())).hasSize(1);
    }

    /** The transaction as a response body carries it, read back as a tree. */
    private JsonNode asTheApiAnswers(Transaction tx) throws IOException {
        return api.readTree(api.writeValueAsString(TransactionJson.of(tx)));
    }

    private String write(Transaction... transactions) {
        return SampleTransactions.write(writer, transactions);
    }
}
