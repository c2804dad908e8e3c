package com.agentwallet.bootstrap.api;

import com.agentwallet.adapters.persistence.EmbeddedDatabase;
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
 * migration again. The folder of unpacked PostgreSQL binaries is linked, not copied, so that a
 * server in a process of its own ({@link ServerProcess}) does not unpack them again. Nothing else of
 * a first start is copied but the cluster's password, which goes with it; each server still makes
 * its own demo organisations, keys, certificate and ledger.
 */
public final class MigratedCluster {
    /** Where {@code Persistence} keeps the embedded cluster, and the binaries it runs, in a data directory. */
    private static final String CLUSTER = "postgres";
    private static final String BINARIES = "postgres-bin";

    private static Path firstStart;

    private MigratedCluster() {
    }

    /** Copies the migrated cluster into the data directory {@code data}, and links the binaries. */
    public static void copyInto(Path data) {
        Path first = firstStart();
        Path source = first.resolve(CLUSTER);
        try (Stream<Path> files = Files.walk(source)) {
            for (Path file : files.toList()) {
                Files.copy(file, data.resolve(CLUSTER).resolve(source.relativize(file).toString()),
                        StandardCopyOption.COPY_ATTRIBUTES);
            }
            Files.copy(EmbeddedDatabase.passwordFile(source), EmbeddedDatabase.passwordFile(data.resolve(CLUSTER)),
                    StandardCopyOption.COPY_ATTRIBUTES);
            Files.createSymbolicLink(data.resolve(BINARIES), first.resolve(BINARIES));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy the migrated cluster into " + data, e);
        }
    }

    /** The data directory of the server's first start, made now unless already made. */
    private static synchronized Path firstStart() {
        if (firstStart == null) {
            Path data = TempFolders.make("agent-wallet-cluster");
            Persistence.open(PersistenceSettings.embedded(data, 1)).close();
            firstStart = data;
        }
        return firstStart;
    }
}
