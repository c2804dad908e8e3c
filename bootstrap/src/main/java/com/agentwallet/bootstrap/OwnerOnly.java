package com.agentwallet.bootstrap;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Files and folders of secrets (keys, passwords, credentials) that only the account running the
 * server may read: folders 0700, files 0600, whatever the umask.
 */
final class OwnerOnly {
    private OwnerOnly() {
    }

    /** Makes {@code directory} (and missing parents) if absent, and closes it to everyone but its owner. */
    static Path directory(Path directory) {
        try {
            Files.createDirectories(directory);
            Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwx------"));
            return directory;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make " + directory + " readable by its owner only", e);
        }
    }

    /** Closes the existing file {@code file} to everyone but its owner. */
    static void file(Path file) {
        try {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make " + file + " readable by its owner only", e);
        }
    }

    /**
     * Writes {@code file} whole or not at all (a crash leaves no half of it), readable by its owner only
     * from its first byte; {@code write} fills the file it is given.
     */
    static void write(Path file, Writer write) throws IOException {
        Path partial = file.resolveSibling(file.getFileName() + ".partial");
        Files.deleteIfExists(partial);
        Files.createFile(partial, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        write.to(partial);
        Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** {@link #write} of a string. */
    static void writeString(Path file, String content) throws IOException {
        write(file, partial -> Files.writeString(partial, content, StandardOpenOption.WRITE));
    }

    /** What fills a file {@link #write} made. */
    @FunctionalInterface
    interface Writer {
        void to(Path file) throws IOException;
    }
}
