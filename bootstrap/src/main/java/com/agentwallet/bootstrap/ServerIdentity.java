package com.agentwallet.bootstrap;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.UUID;

/**
 * The server's name among the processes that share its database: a random id kept in its data
 * directory ({@code server-id}), made at its first start, so that it is the same after a restart.
 * Servers sharing a database each have a data directory of their own.
 */
final class ServerIdentity {
    static final String FILE = "server-id";

    private ServerIdentity() {
    }

    static String of(Path dataDirectory) {
        Path file = dataDirectory.resolve(FILE);
        try {
            if (!Files.exists(file)) {
                Files.createDirectories(dataDirectory);
                Path made = Files.writeString(Files.createTempFile(dataDirectory, FILE, ".new"),
                        UUID.randomUUID().toString(), StandardCharsets.UTF_8);
                Files.move(made, file, StandardCopyOption.ATOMIC_MOVE);
            }
            return Files.readString(file, StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or make the server's id in " + file, e);
        }
    }
}
