package com.agentwallet.bootstrap;

import com.agentwallet.core.export.ExportFormat;
import com.agentwallet.core.id.ExportId;
import com.agentwallet.core.port.ExportFiles;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import static java.util.Objects.requireNonNull;

/**
 * Export files in a local folder ({@code <dataDirectory>/exports/}): {@code <id>.<format>}, written
 * as {@code <id>.<format>.part} and moved into place when finished, so that a file under its final
 * name is always whole. Several servers sharing one database must share this folder too (the
 * server that answers a download may not be the one that wrote the file).
 */
final class LocalExportFiles implements ExportFiles {
    private final Path directory;

    LocalExportFiles(Path directory) {
        this.directory = requireNonNull(directory, "directory is null").toAbsolutePath();
    }

    @Override
    public Output create(ExportId id, ExportFormat format) {
        Path file = file(id, format);
        Path part = part(id, format);
        OutputStream stream = io(() -> {
            Files.createDirectories(directory);
            return new BufferedOutputStream(Files.newOutputStream(part), 64 * 1024);
        });
        return new Output() {
            private boolean finished;

            public OutputStream stream() {
                return stream;
            }

            public String finish() {
                io(() -> {
                    stream.close();
                    return Files.move(part, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                });
                finished = true;
                return file.toString();
            }

            public void close() {
                if (!finished) {
                    io(() -> {
                        try (stream) {
                            return null;
                        } finally {
                            Files.deleteIfExists(part);
                        }
                    });
                }
            }
        };
    }

    @Override
    public void delete(ExportId id, ExportFormat format) {
        io(() -> Files.deleteIfExists(part(id, format)) | Files.deleteIfExists(file(id, format)));
    }

    private Path file(ExportId id, ExportFormat format) {
        return directory.resolve(id.value() + "." + format.wireName());
    }

    private Path part(ExportId id, ExportFormat format) {
        return directory.resolve(id.value() + "." + format.wireName() + ".part");
    }

    private interface IoWork<T> {
        T run() throws IOException;
    }

    private static <T> T io(IoWork<T> work) {
        try {
            return work.run();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
