package com.agentwallet.core.port;

import com.agentwallet.core.export.ExportFormat;
import com.agentwallet.core.payment.Transaction;

import java.io.OutputStream;

/**
 * Writes transactions into an export file of one format, one row at a time, so that a file of any
 * length takes constant memory. Failures are {@link java.io.UncheckedIOException}s.
 */
public interface ExportWriter {
    ExportFormat format();

    /** Starts a file on {@code out} (a header row, an opening bracket); rows follow, then {@link Rows#end()}. */
    Rows begin(OutputStream out);

    /** The rows of one file being written. */
    interface Rows {
        void row(Transaction transaction);

        /** Completes the file and flushes it to the stream, which stays open. */
        void end();
    }
}
