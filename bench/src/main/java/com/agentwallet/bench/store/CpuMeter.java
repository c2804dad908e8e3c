package com.agentwallet.bench.store;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

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
     * The CPU seconds each live thread of a JVM has used so far, by an id that names one thread for
     * the JVM's life (from /proc its thread id and start time, as Linux reuses ids of threads that
     * ended), with its kind of thread; from /proc: "workers", "requests" (Jetty's), "JIT", "GC",
     * "pool housekeeping" or "other".
     */
    public record Threads(Map<String, ThreadTime> byId) {
        /** One thread's kind and CPU seconds so far, user and system apart. */
        public record ThreadTime(String kind, double user, double system) {
        }

        /**
         * The CPU seconds used since {@code earlier} by kind, user and system apart ("user:workers",
         * "sys:JIT", ...), of the threads alive now: one started since counts whole, one that ended
         * since is left out (its time is in the process's total only). Subtracting what a thread
         * that ended had used before {@code earlier}, as a sum by kind would, counted that time
         * against the threads still alive.
         */
        public Map<String, Double> since(Threads earlier) {
            return used(earlier, true);
        }

        /** {@link #since}, user and system time together: "workers", "JIT", ... */
        public Map<String, Double> byKindSince(Threads earlier) {
            return used(earlier, false);
        }

        private Map<String, Double> used(Threads earlier, boolean apart) {
            Map<String, Double> byKind = new TreeMap<>();
            byId.forEach((id, now) -> {
                ThreadTime then = earlier.byId.getOrDefault(id, new ThreadTime(now.kind, 0, 0));
                if (apart) {
                    byKind.merge("user:" + now.kind, now.user - then.user, Double::sum);
                    byKind.merge("sys:" + now.kind, now.system - then.system, Double::sum);
                } else {
                    byKind.merge(now.kind, now.user + now.system - then.user - then.system, Double::sum);
                }
            });
            return byKind;
        }
    }

    /** This JVM's threads, read from /proc/self/task. */
    public static Threads jvmThreads() {
        return threads("self");
    }

    /** The threads of the JVM of process {@code pid} (a server under test). */
    public static Threads jvmThreads(long pid) {
        return threads(Long.toString(pid));
    }

    private static Threads threads(String process) {
        Map<String, Threads.ThreadTime> byId = new HashMap<>();
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
                byId.put(task.getFileName() + "@" + s.get()[19], new Threads.ThreadTime(kind,
                        s.get()[11] / TICKS_PER_SECOND, s.get()[12] / TICKS_PER_SECOND));
            }
        } catch (IOException e) {
            // nothing to break down
        }
        return new Threads(byId);
    }

    /**
     * The numeric fields of /proc/[pid]/stat after the command name, indexed from 0 = state (so
     * 1 = ppid, 11 = utime, 12 = stime, 13 = cutime, 14 = cstime, 19 = start time); state itself
     * reads as 0.
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
