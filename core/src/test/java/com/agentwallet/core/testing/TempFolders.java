package com.agentwallet.core.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Folders the tests make under the system's temporary folder for servers and databases of their
 * own, removed with everything in them when the tests' JVM exits, so that runs do not pile up.
 */
public final class TempFolders {
    private TempFolders() {
    }

    /** A new empty folder, removed at exit. */
    public static Path make(String prefix) {
        try {
            Path folder = Files.createTempDirectory(prefix);
            removeAtExit(folder);
            return folder;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Removes {@code folder} and everything in it when the JVM exits, after {@code first} has run. */
    public static void removeAtExit(Path folder, Runnable first) {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            first.run();
            remove(folder);
        }, "remove " + folder));
    }

    public static void removeAtExit(Path folder) {
        removeAtExit(folder, () -> {
        });
    }

    private static void remove(Path folder) {
        if (!Files.exists(folder)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(folder)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException("could not remove the test folder " + folder, e);
        }
    }
}
