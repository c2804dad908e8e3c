package com.agentwallet.adapters.http.export;

import com.agentwallet.adapters.http.json.ApiJson;
import com.agentwallet.adapters.http.view.TransactionJson;
import com.agentwallet.core.export.ExportFormat;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.port.ExportWriter;
import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.OutputStream;

import static java.util.Objects.requireNonNull;

/**
 * JSON export files: one UTF-8 JSON array of transactions, each exactly as the API answers it
 * ({@link TransactionJson}, snake_case, nulls written), streamed one element at a time.
 */
public final class JsonExportWriter implements ExportWriter {
    private final ObjectMapper mapper;
    private final ObjectWriter element;

    /** {@code mapper}: one the API's rules were applied to ({@link ApiJson#configure}), as for responses. */
    public JsonExportWriter(ObjectMapper mapper) {
        this.mapper = requireNonNull(mapper, "mapper is null");
        this.element = mapper.writerFor(TransactionJson.class).without(SerializationFeature.FLUSH_AFTER_WRITE_VALUE);
    }

    @Override
    public ExportFormat format() {
        return ExportFormat.JSON;
    }

    @Override
    public Rows begin(OutputStream out) {
        JsonGenerator generator = UncheckedIo.call(() -> {
            JsonGenerator created = mapper.getFactory().createGenerator(out, JsonEncoding.UTF8)
                    .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            created.writeStartArray();
            return created;
        });
        return new Rows() {
            public void row(Transaction transaction) {
                UncheckedIo.run(() -> element.writeValue(generator, TransactionJson.of(transaction)));
            }

            public void end() {
                UncheckedIo.run(() -> {
                    generator.writeEndArray();
                    generator.close();
                });
            }
        };
    }
}
