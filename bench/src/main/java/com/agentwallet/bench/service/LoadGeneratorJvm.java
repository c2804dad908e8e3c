package com.agentwallet.bench.service;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The load generator's own JVM. A collection that stops it stops its clients: the requests due
 * meanwhile go late, and the open loop charges the pause to them as latency (it counts from the
 * scheduled send). Under the JVM's defaults on this machine (G1, a heap sized from the machine's
 * memory, 60 to 130 MB of it young), the tool paused every 3 to 6 s for 14 to 21 ms (the medians of
 * three runs; up to 147 ms), a few times in every measured run; with a young generation of 2.5 GB,
 * every 45 s for 64 to 109 ms. So the tool runs in a JVM of its own, started with {@link #OPTIONS}:
 * ZGC, whose pauses stay under a millisecond, on a fixed heap. Each run counts the pauses that still
 * fall in it ({@link Disturbances}).
 */
final class LoadGeneratorJvm {
    /** ZGC on a fixed heap; options given to the first JVM come after them, and so win. */
    static final List<String> OPTIONS = List.of("-XX:+UseZGC", "-Xms2g", "-Xmx2g");
    private static final String STARTED = "agentwallet.bench.loadGenerator";

    /** The collections that stopped this JVM so far: their number, and their time in ms. */
    record Pauses(long count, long ms) {
        Pauses minus(Pauses earlier) {
            return new Pauses(count - earlier.count, ms - earlier.ms);
        }
    }

    private LoadGeneratorJvm() {
    }

    /** Whether this JVM is the one {@link #relaunch} started. */
    static boolean isThisOne() {
        return Boolean.getBoolean(STARTED);
    }

    /**
     * Runs {@code main} with {@code args} in a new JVM with {@link #OPTIONS}, then this JVM's own
     * options (a collector chosen there replaces ZGC), its output this JVM's; answers its exit status.
     * Stopping this JVM stops that one, which stops its server.
     */
    static int relaunch(Class<?> main, String[] args) throws IOException, InterruptedException {
        List<String> own = ManagementFactory.getRuntimeMXBean().getInputArguments();
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        boolean collectorChosen = own.stream().anyMatch(o -> o.startsWith("-XX:+Use") && o.endsWith("GC"));
        OPTIONS.stream().filter(o -> !collectorChosen || !o.equals("-XX:+UseZGC")).forEach(command::add);
        command.addAll(own);
        command.add("-D" + STARTED + "=true");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(main.getName());
        command.addAll(List.of(args));
        Process child = new ProcessBuilder(command).inheritIO().start();
        Thread stop = new Thread(child::destroy, "stop-load-generator");
        Runtime.getRuntime().addShutdownHook(stop);
        int status = child.waitFor();
        Runtime.getRuntime().removeShutdownHook(stop);
        return status;
    }

    /**
     * The pauses of this JVM's collectors so far. ZGC and Shenandoah report their concurrent cycles
     * apart from their pauses (beans named "... Cycles"), which are left out; G1's beans count pauses.
     */
    static Pauses pauses() {
        long count = 0;
        long ms = 0;
        for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (!collector.getName().endsWith("Cycles")) {
                count += collector.getCollectionCount();
                ms += collector.getCollectionTime();
            }
        }
        return new Pauses(count, ms);
    }
}
