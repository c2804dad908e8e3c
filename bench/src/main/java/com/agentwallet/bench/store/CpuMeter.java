package com.agentwallet.bench.store;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * CPU time spent by the benchmark's processes, read from /proc (Linux only; elsewhere it reads
 * nothing): this JVM, the children it has waited for (pgbench), and the PostgreSQL server (the
 * postmaster, the backends it has reaped, and its live backends). On a small machine throughput is
 * bounded by CPU, so CPU per payment says where the time goes even when other work shares it.
 */
public final class CpuMeter {
    /** Clock ticks per second of /proc/[pid]/stat; 100 on every common Linux configuration. */
    private static final double TICKS_PER_SECOND = 100.0;

    /** CPU seconds so far. */
    public record Sample(double jvm, double waitedChildren, double server) {
        public Sample minus(Sample earlier) {
            return new Sample(jvm - earlier.jvm, waitedChildren - earlier.waitedChildren, server - earlier.server);
        }
    }

    private final Optional<Long> postmaster;

    /** The meter of this JVM, its children and the PostgreSQL whose cluster is {@code dataDirectory}. */
    public CpuMeter(Path dataDirectory) {
        Optional<Long> pid;
        try {
            pid = Optional.of(Long.parseLong(Files.readAllLines(dataDirectory.resolve("postmaster.pid")).get(0).trim()));
        } catch (IOException | RuntimeException e) {
            pid = Optional.empty();
        }
        this.postmaster = pid;
    }

    public boolean available() {
        return postmaster.isPresent() && Files.isDirectory(Path.of("/proc/self"));
    }

    public Sample sample() {
        double jvm = ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() / 1e9 : 0;
        double children = stat("self").map(s -> (s[13] + s[14]) / TICKS_PER_SECOND).orElse(0.0);
        double server = 0;
        if (postmaster.isPresent()) {
            long pm = postmaster.get();
            server += stat(Long.toString(pm)).map(s -> (s[11] + s[12] + s[13] + s[14]) / TICKS_PER_SECOND).orElse(0.0);
            try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
                for (Path proc : procs) {
                    Optional<long[]> s = stat(proc.getFileName().toString());
                    if (s.isPresent() && s.get()[1] == pm) {
                        server += (s.get()[11] + s.get()[12]) / TICKS_PER_SECOND;
                    }
                }
            } catch (IOException e) {
                // the sample misses the live backends; it says so by being low
            }
        }
        return new Sample(jvm, children, server);
    }

    /** The CPU seconds (user and system) process {@code pid} has used so far; NaN when /proc does not say. */
    public static double processSeconds(long pid) {
        return stat(Long.toString(pid)).map(s -> (s[11] + s[12]) / TICKS_PER_SECOND).orElse(Double.NaN);
    }

    /**
     * This JVM's CPU seconds by kind of thread, user and system time apart: "user:workers",
     * "sys:workers", "user:JIT", ... read from /proc/self/task (threads that ended are missed).
     */
    static java.util.Map<String, Double> jvmThreads() {
        return threads("self");
    }

    /** The same for the JVM of process {@code pid} (a server under test); Jetty's threads are "requests". */
    public static java.util.Map<String, Double> jvmThreads(long pid) {
        return threads(Long.toString(pid));
    }

    private static java.util.Map<String, Double> threads(String process) {
        java.util.Map<String, Double> byKind = new java.util.TreeMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", process, "task"))) {
            for (Path task : tasks) {
                String name;
                try {
                    name = Files.readString(task.resolve("comm")).trim();
                } catch (IOException e) {
                    continue;
                }
                Optional<long[]> s = stat(process + "/task/" + task.getFileName());
                if (s.isEmpty()) {
                    continue;
                }
                String kind = name.startsWith("pool-") || name.startsWith("ForkJoin") ? "workers"
                        : name.startsWith("dw-") ? "requests"
                        : name.contains("Compiler") ? "JIT"
                        : name.startsWith("GC") || name.startsWith("G1") || name.contains("GC") ? "GC"
                        : name.startsWith("agent-wallet") || name.startsWith("HikariPool") ? "pool housekeeping"
                        : "other";
                byKind.merge("user:" + kind, s.get()[11] / TICKS_PER_SECOND, Double::sum);
                byKind.merge("sys:" + kind, s.get()[12] / TICKS_PER_SECOND, Double::sum);
            }
        } catch (IOException e) {
            // nothing to break down
        }
        return byKind;
    }

    /** {@code later - earlier}, key by key. */
    public static java.util.Map<String, Double> minus(java.util.Map<String, Double> later, java.util.Map<String, Double> earlier) {
        java.util.Map<String, Double> delta = new java.util.TreeMap<>();
        later.forEach((k, v) -> delta.put(k, v - earlier.getOrDefault(k, 0.0)));
        return delta;
    }

    /**
     * The numeric fields of /proc/[pid]/stat after the command name, indexed from 0 = state (so
     * 1 = ppid, 11 = utime, 12 = stime, 13 = cutime, 14 = cstime); state itself reads as 0.
     */
    private static Optional<long[]> stat(String pid) {
        try {
            String line = Files.readString(Path.of("/proc", pid, "stat"));
            String[] fields = line.substring(line.lastIndexOf(')') + 2).trim().split("\\s+");
            long[] values = new long[Math.min(fields.length, 20)];
            for (int i = 1; i < values.length; i++) {
                values[i] = Long.parseLong(fields[i]);
            }
            return Optional.of(values);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
