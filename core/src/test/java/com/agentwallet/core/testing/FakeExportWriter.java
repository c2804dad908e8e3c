package com.agentwallet.core.testing;

import com.agentwallet.core.export.ExportFormat;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.port.ExportWriter;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/** Writes one line per transaction (its id), between a {@code begin <format>} and an {@code end} line. */
public final class FakeExportWriter implements ExportWriter {
    private final ExportFormat format;

    public FakeExportWriter(ExportFormat format) {
        this.format = format;
    }

    /** A writer for every format. */
    public static List<ExportWriter> all() {
        return Arrays.stream(ExportFormat.values()).<ExportWriter>map(FakeExportWriter::new).toList();
    }

    @Override
    public ExportFormat format() {
        return format;
    }

    @Override
    public Rows begin(OutputStream out) {
        line(out, "begin " + format.wireName());
        return new Rows() {
            public void row(Transaction transaction) {
                line(out, transaction.id().value());
            }

            public void end() {
                line(out, "end");
            }
        };
    }

    private static void line(OutputStream out, String line) {
        try {
            out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
