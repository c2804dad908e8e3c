package com.agentwallet.bench.service;

import com.agentwallet.bench.Latencies;
import com.agentwallet.bench.store.CpuMeter;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongFunction;
import java.util.stream.Collectors;

/**
 * Client threads against the running server, each with its own kept-alive connection. Three
 * shapes: a closed loop (each client sends its next request as soon as the last one is answered)
 * for a time, the same for a fixed number of requests, and an open loop (requests due at fixed
 * intervals from one shared schedule, whatever the answers do). Latency is taken from the moment a
 * request was due: in the closed loop that is when it was sent; in the open loop it is its place in
 * the schedule, so a slow answer that holds the next requests back is charged to them too (no
 * coordinated omission).
 *
 * <p>A run also measures the CPU the three processes used over its measured part: this JVM (the
 * load generator), the server's JVM, and PostgreSQL.
 */
final class LoadDriver {
    /** One request on a client's connection; answers null when it went as expected, else what went wrong. */
    @FunctionalInterface
    interface Operation {
        String call(HttpConnection connection, long ticket) throws IOException;
    }

    /** Makes client {@code client}'s connection (not yet open); {@code opened} counts the connections it opens. */
    @FunctionalInterface
    interface Connector {
        HttpConnection connection(int client, AtomicInteger opened);
    }

    /**
     * CPU seconds over a run's measured part; the server's by kind of thread too (user and system
     * time together), of the threads alive at its end: the rest of the server's is "threads that ended".
     */
    record CpuUse(double loadGenerator, double serverJvm, double postgres, Map<String, Double> serverThreads) {
    }

    /** The CPU seconds the three processes have used so far, and the server's threads'. */
    private record CpuSoFar(double loadGenerator, double serverJvm, double postgres, CpuMeter.Threads serverThreads) {
        CpuUse since(CpuSoFar earlier) {
            Map<String, Double> threads = serverThreads.byKindSince(earlier.serverThreads);
            double ended = serverJvm - earlier.serverJvm - threads.values().stream().mapToDouble(Double::doubleValue).sum();
            if (ended > 0) {
                threads.put("threads that ended", ended);
            }
            return new CpuUse(loadGenerator - earlier.loadGenerator, serverJvm - earlier.serverJvm,
                    postgres - earlier.postgres, threads);
        }
    }

    /** What one run measured: the requests answered as expected in its measured part, and their latencies. */
    record Measured(String name, int clients, long ok, Map<String, Long> problems, double seconds, Latencies latencies,
                    Latencies wokeLate, CpuUse cpu, int connections, String disturbances) {
        double perSecond() {
            return ok / seconds;
        }

        double ms(double percentile) {
            return latencies.ms(percentile);
        }

        double maxMs() {
            return latencies.maxMs();
        }

        long failed() {
            return problems.values().stream().mapToLong(Long::longValue).sum();
        }

        /** CPU milliseconds per request answered as expected. */
        double cpuMs(double seconds) {
            return ok == 0 ? Double.NaN : seconds * 1000 / ok;
        }

        /** One line of figures: rate, latencies, connections, problems. */
        String summary(String unit) {
            return String.format(Locale.ROOT, "%.1f %s/s, p50 %.2f ms, p99 %.2f ms, p99.9 %.2f ms, max %.2f ms; "
                            + "%d ok in %.1f s; %d connections for %d clients%s%s", perSecond(), unit, ms(50), ms(99),
                    ms(99.9), maxMs(), ok, seconds, connections, clients,
                    connections > clients ? " (RECONNECTED: the server closed some)" : "",
                    problems.isEmpty() ? "" : "; NOT AS EXPECTED: " + problems) + lateSends();
        }

        /**
         * How late the clients that waited for a request's time woke to send it, if any waited (an
         * open loop's idle clients do): the load generator's own wait for a core, which the open
         * loop's latency includes.
         */
        private String lateSends() {
            return wokeLate.count() == 0 ? "" : String.format(Locale.ROOT, "; clients woke late to send: p50 %.2f ms, "
                            + "p99 %.2f ms, max %.2f ms (%d sends waited for their time)",
                    wokeLate.ms(50), wokeLate.ms(99), wokeLate.maxMs(), wokeLate.count());
        }

        String cpuLine() {
            String threads = cpu.serverThreads().entrySet().stream().filter(e -> cpuMs(e.getValue()) >= 0.005)
                    .map(e -> String.format(Locale.ROOT, "%s %.2f", e.getKey(), cpuMs(e.getValue())))
                    .collect(Collectors.joining(", "));
            return String.format(Locale.ROOT, "CPU ms per request: load generator %.3f, server JVM %.3f (%s), "
                            + "PostgreSQL %.3f", cpuMs(cpu.loadGenerator()), cpuMs(cpu.serverJvm()),
                    threads.isEmpty() ? "-" : threads, cpuMs(cpu.postgres()));
        }
    }

    /** When request {@code ticket} is due (System.nanoTime), or -1 when the run is over. */
    @FunctionalInterface
    private interface Schedule {
        long due(long ticket, long now);
    }

    private final LaunchedServer server;
    private final CpuMeter cpu;
    private final Disturbances disturbances;

    LoadDriver(LaunchedServer server, CpuMeter cpu, Disturbances disturbances) {
        this.server = server;
        this.cpu = cpu;
        this.disturbances = disturbances;
    }

    /** {@code clients} clients in a closed loop: {@code warmup}, then {@code measured}, on the same connections. */
    Measured closed(String name, int clients, Operation operation, Duration warmup, Duration measured)
            throws InterruptedException {
        return closed(name, clients, this::adminConnection, operation, warmup, measured);
    }

    /** As {@link #closed(String, int, Operation, Duration, Duration)}, each client on the connection of {@code connector}. */
    Measured closed(String name, int clients, Connector connector, Operation operation, Duration warmup,
                    Duration measured) throws InterruptedException {
        return drive(name, clients, connector, operation, warmup, start -> {
            long end = start + warmup.toNanos() + measured.toNanos();
            return (ticket, now) -> now < end ? now : -1;
        });
    }

    /** {@code clients} clients in a closed loop until {@code count} requests are answered, all measured. */
    Measured closedCount(String name, int clients, Operation operation, long count) throws InterruptedException {
        return drive(name, clients, this::adminConnection, operation, Duration.ZERO,
                start -> (ticket, now) -> ticket < count ? now : -1);
    }

    /**
     * An open loop at {@code perSecond} on {@code connections} connections: request {@code i} is due
     * at {@code start + i / perSecond}; a client takes the next due request as soon as it is free.
     */
    Measured open(String name, int connections, Operation operation, double perSecond, Duration warmup,
                  Duration measured) throws InterruptedException {
        double interval = 1e9 / perSecond;
        return drive(name, connections, this::adminConnection, operation, warmup, start -> {
            long end = start + warmup.toNanos() + measured.toNanos();
            return (ticket, now) -> {
                long due = start + (long) (ticket * interval);
                return due < end ? due : -1;
            };
        });
    }

    /** The connections of the server's API with the admin key. */
    private HttpConnection adminConnection(int client, AtomicInteger opened) {
        return server.api(opened);
    }

    private Measured drive(String name, int clients, Connector connector, Operation operation, Duration warmup,
                           LongFunction<Schedule> scheduleFrom) throws InterruptedException {
        ExecutorService executor = Executors.newFixedThreadPool(clients);
        AtomicInteger opened = new AtomicInteger();
        AtomicLong tickets = new AtomicLong();
        Map<String, Long> problems = new ConcurrentHashMap<>();
        CountDownLatch ready = new CountDownLatch(clients);
        CountDownLatch go = new CountDownLatch(1);
        long[] timing = new long[2];
        Latencies latencies = new Latencies();
        Latencies wokeLate = new Latencies();
        List<Future<Long>> futures = new ArrayList<>();
        try {
            for (int c = 0; c < clients; c++) {
                int client = c;
                futures.add(executor.submit(() -> {
                    long lastDone = 0;
                    try (HttpConnection connection = connector.connection(client, opened)) {
                        try {
                            connection.open();
                        } finally {
                            ready.countDown();
                        }
                        go.await();
                        Schedule schedule = scheduleFrom.apply(timing[0]);
                        long measureFrom = timing[1];
                        for (long ticket = tickets.getAndIncrement(); ; ticket = tickets.getAndIncrement()) {
                            long due = schedule.due(ticket, System.nanoTime());
                            if (due < 0) {
                                break;
                            }
                            long wait = due - System.nanoTime();
                            boolean waits = wait > 0;
                            for (; wait > 0; wait = due - System.nanoTime()) {
                                LockSupport.parkNanos(wait);
                            }
                            long sent = System.nanoTime();
                            String problem = call(operation, connection, ticket);
                            long done = System.nanoTime();
                            if (due >= measureFrom) {
                                lastDone = done;
                                if (problem != null) {
                                    problems.merge(problem, 1L, Long::sum);
                                } else {
                                    latencies.record(done - due);
                                }
                                if (waits) {
                                    wokeLate.record(sent - due);
                                }
                            }
                        }
                    }
                    return lastDone;
                }));
            }
            ready.await();
            long start = System.nanoTime();
            timing[0] = start;
            timing[1] = start + warmup.toNanos();
            go.countDown();
            sleepUntil(timing[1]);
            Disturbances.Start measuring = disturbances.start();
            CpuSoFar before = cpuNow();
            long lastDone = timing[1];
            for (Future<Long> future : futures) {
                lastDone = Math.max(lastDone, future.get());
            }
            CpuSoFar after = cpuNow();
            String meanwhile = disturbances.since(measuring, latencies.count());
            return new Measured(name, clients, latencies.count(), new TreeMap<>(problems),
                    Math.max(lastDone - timing[1], 1) / 1e9, latencies, wokeLate, after.since(before), opened.get(),
                    meanwhile);
        } catch (ExecutionException e) {
            throw new IllegalStateException(name + ": a client failed", e.getCause());
        } finally {
            executor.shutdownNow();
        }
    }

    private static String call(Operation operation, HttpConnection connection, long ticket) {
        try {
            return operation.call(connection, ticket);
        } catch (IOException e) {
            connection.close();
            return "I/O error: " + e.getClass().getSimpleName();
        }
    }

    private CpuSoFar cpuNow() {
        CpuMeter.Sample sample = cpu.sample();
        return new CpuSoFar(sample.jvm(), CpuMeter.processSeconds(server.pid()), sample.server(),
                CpuMeter.jvmThreads(server.pid()));
    }

    private static void sleepUntil(long nanoTime) throws InterruptedException {
        for (long wait = nanoTime - System.nanoTime(); wait > 0; wait = nanoTime - System.nanoTime()) {
            Thread.sleep(Math.max(1, wait / 1_000_000));
        }
    }

    /** The error code of an API error body ({@code "code":"..."}), or "-" when it has none. */
    static String errorCode(String body) {
        int at = body.indexOf("\"code\":\"");
        if (at < 0) {
            return "-";
        }
        int from = at + 8;
        int to = body.indexOf('"', from);
        return to < 0 ? "-" : body.substring(from, to);
    }

    /** "status code": what a response that was not the expected one was. */
    static String unexpected(HttpConnection.Response response) {
        return response.status() + " " + errorCode(response.body());
    }
}
