package com.agentwallet.core.port;

import com.agentwallet.core.export.ExportFormat;
import com.agentwallet.core.id.ExportId;

import java.io.OutputStream;

/**
 * Where export files live. A file is written through an {@link Output} and becomes the job's file
 * only when finished: an output closed unfinished leaves nothing behind, so a failed or interrupted
 * generation never leaves a partial file to serve. Failures are {@link java.io.UncheckedIOException}s.
 */
public interface ExportFiles {

    /** Starts the job's file, replacing whatever an earlier, interrupted attempt left. */
    Output create(ExportId id, ExportFormat format);

    /** Removes the job's file, finished or not; nothing happens when there is none. */
    void delete(ExportId id, ExportFormat format);

    /** A file being written. */
    interface Output extends AutoCloseable {
        /** The bytes of the file; {@link #finish()} and {@link #close()} close it, the writer does not. */
        OutputStream stream();

        /** Completes the file (flushed and in its place) and answers the path a download reads it from. */
        String finish();

        /** Releases the file; one not finished is discarded. */
        @Override
        void close();
    }
}
