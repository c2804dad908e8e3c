package com.agentwallet.bootstrap.api;

import com.agentwallet.adapters.persistence.Persistence;
import com.agentwallet.adapters.persistence.PersistenceSettings;
import com.agentwallet.core.testing.TempFolders;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.stream.Stream;

/**
 * The embedded PostgreSQL cluster a server makes on its first start (initdb, the service's
 * database, the schema migrated), made once per test JVM by that same code and then copied into
 * each new data directory: every server starts on it as on a later start, without initdb and the
 * migration again. Nothing else of a first start is copied; each server still makes its own demo
 * organisations, keys, certificate and ledger.
 */
final class MigratedCluster {
    /** Where {@code Persistence} keeps the embedded cluster in a data directory. */
    private static final String CLUSTER = "postgres";

    private static Path made;

    private MigratedCluster() {
    }

    /** Copies the migrated cluster into the data directory {@code data}. */
    static void copyInto(Path data) {
        Path source = cluster();
        try (Stream<Path> files = Files.walk(source)) {
            for (Path file : files.toList()) {
                Files.copy(file, data.resolve(CLUSTER).resolve(source.relativize(file).toString()),
                        StandardCopyOption.COPY_ATTRIBUTES);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy the migrated cluster into " + data, e);
        }
    }

    private static synchronized Path cluster() {
        if (made == null) {
            Path data = TempFolders.make("agent-wallet-cluster");
            Persistence.open(PersistenceSettings.embedded(data, 1)).close();
            made = data.resolve(CLUSTER);
        }
        return made;
    }
}
