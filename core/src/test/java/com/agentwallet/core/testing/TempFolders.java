package com.agentwallet.core.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Folders the tests make under the system's temporary folder for servers and databases of their
 * own, removed with everything in them when the tests' JVM exits, so that runs do not pile up. One
 * shutdown hook does it all, in order: first it stops what may still write in them (a server, its
 * PostgreSQL, which writes its statistics as it stops), then it removes the folders; separate hooks
 * would run at once, and a folder removed while its database stopped would be left half there.
 */
public final class TempFolders {
    private static final List<Runnable> STOPS = new ArrayList<>();
    private static final List<Path> FOLDERS = new ArrayList<>();
    private static boolean hooked;

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
    public static synchronized void removeAtExit(Path folder, Runnable first) {
        stopAtExit(first);
        removeAtExit(folder);
    }

    public static synchronized void removeAtExit(Path folder) {
        hook();
        FOLDERS.add(folder);
    }

    /** Runs {@code stop} when the JVM exits, before any folder is removed. */
    public static synchronized void stopAtExit(Runnable stop) {
        hook();
        STOPS.add(stop);
    }

    private static void hook() {
        if (!hooked) {
            Runtime.getRuntime().addShutdownHook(new Thread(TempFolders::atExit, "remove the test folders"));
            hooked = true;
        }
    }

    private static void atExit() {
        List<Runnable> stops;
        List<Path> folders;
        synchronized (TempFolders.class) {
            stops = List.copyOf(STOPS);
            folders = List.copyOf(FOLDERS);
        }
        for (Runnable stop : stops) {
            try {
                stop.run();
            } catch (RuntimeException e) {
                System.err.println("a test resource did not stop at exit: " + e);
            }
        }
        folders.forEach(TempFolders::remove);
    }

    private static void remove(Path folder) {
        if (!Files.exists(folder)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(folder)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            System.err.println("could not remove the test folder " + folder + ": " + e);
        }
    }
}
