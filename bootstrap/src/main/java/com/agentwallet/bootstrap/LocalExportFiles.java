package com.agentwallet.bootstrap;

import com.agentwallet.core.export.ExportFormat;
import com.agentwallet.core.id.ExportId;
import com.agentwallet.core.port.ExportFiles;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.UUID;

import static java.util.Objects.requireNonNull;

/**
 * Export files in a local folder ({@code exports.directory}, by default {@code <dataDirectory>/exports/}): {@code <id>.<format>}, written
 * as {@code <id>.<format>.<random>.part} and moved into place when finished, so that a file under
 * its final name is always whole. Each attempt has its own part: a generator that stalled past its
 * lease and the one that took its job over never write into one file. Several servers sharing one
 * database must share this folder too (the server that answers a download may not be the one that
 * wrote the file).
 */
final class LocalExportFiles implements ExportFiles {
    private static final String PART = ".part";
    private final Path directory;

    LocalExportFiles(Path directory) {
        this.directory = requireNonNull(directory, "directory is null").toAbsolutePath();
    }

    @Override
    public Output create(ExportId id, ExportFormat format) {
        Path file = file(id, format);
        Path part = directory.resolve(id.value() + "." + format.wireName() + "." + UUID.randomUUID() + PART);
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
        io(() -> {
            if (Files.isDirectory(directory)) {
                try (DirectoryStream<Path> parts = Files.newDirectoryStream(directory,
                        id.value() + "." + format.wireName() + ".*" + PART)) {
                    for (Path part : parts) {
                        Files.deleteIfExists(part);
                    }
                }
            }
            return Files.deleteIfExists(file(id, format));
        });
    }

    private Path file(ExportId id, ExportFormat format) {
        return directory.resolve(id.value() + "." + format.wireName());
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
