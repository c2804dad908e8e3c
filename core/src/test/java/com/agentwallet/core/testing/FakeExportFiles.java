package com.agentwallet.core.testing;

import com.agentwallet.core.export.ExportFormat;
import com.agentwallet.core.id.ExportId;
import com.agentwallet.core.port.ExportFiles;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Export files in memory, safe for several generators at once: what was finished, what is being
 * written, and how often each job's file was started. {@link #breakDisk()} makes every write fail.
 */
public final class FakeExportFiles implements ExportFiles {
    private final Map<ExportId, byte[]> finished = new ConcurrentHashMap<>();
    private final Map<ExportId, ByteArrayOutputStream> partial = new ConcurrentHashMap<>();
    private final Map<ExportId, AtomicInteger> creations = new ConcurrentHashMap<>();
    private volatile boolean broken;

    public static String path(ExportId id, ExportFormat format) {
        return "memory:/exports/" + id.value() + "." + format.wireName();
    }

    /** From now on, writing a file fails as a full disk does. */
    public void breakDisk() {
        broken = true;
    }

    /** The finished file of a job. */
    public Optional<String> content(ExportId id) {
        return Optional.ofNullable(finished.get(id)).map(bytes -> new String(bytes, StandardCharsets.UTF_8));
    }

    /** Files started and neither finished nor discarded yet. */
    public Set<ExportId> unfinished() {
        return Set.copyOf(partial.keySet());
    }

    /** How many times the job's file was started. */
    public int creations(ExportId id) {
        return Optional.ofNullable(creations.get(id)).map(AtomicInteger::get).orElse(0);
    }

    @Override
    public Output create(ExportId id, ExportFormat format) {
        creations.computeIfAbsent(id, key -> new AtomicInteger()).incrementAndGet();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        partial.put(id, bytes);
        OutputStream stream = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                if (broken) {
                    throw new IOException("No space left on device");
                }
                bytes.write(b);
            }
        };
        return new Output() {
            private boolean done;

            public OutputStream stream() {
                return stream;
            }

            public String finish() {
                finished.put(id, bytes.toByteArray());
                partial.remove(id);
                done = true;
                return path(id, format);
            }

            public void close() {
                if (!done) {
                    partial.remove(id);
                }
            }
        };
    }

    @Override
    public void delete(ExportId id, ExportFormat format) {
        finished.remove(id);
        partial.remove(id);
    }
}
