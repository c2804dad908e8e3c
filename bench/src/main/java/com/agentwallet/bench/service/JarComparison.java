package com.agentwallet.bench.service;

import com.agentwallet.bench.BenchmarkSupport;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Two builds of the server in one run, the guard of a change: the baseline (the build before it)
 * and the candidate are each launched on a fresh embedded database, provisioned and warmed up the
 * same way, and then measured in the closed loops of payments, both scenarios at each client count,
 * for {@code --rounds} rounds. Both servers stay up throughout and each run of one is followed by
 * the same run of the other, the order turning from pair to pair and, for each pair, from round to
 * round ({@link #oldFirst}): this machine's speed moves by half within an hour, so two runs minutes
 * apart would compare the machine more than the builds, and turning the order cancels a steady
 * drift.
 * The idle server costs little meanwhile (its workers poll, its clock ticks). A build's rate is its
 * median over the rounds; the guard holds where new/old is at least {@value #GUARD}.
 */
final class JarComparison {
    static final double GUARD = 0.9;

    /** The rates of one scenario at one client count, a run per round, of each build. */
    record Comparison(String scenario, int clients, List<Double> old, List<Double> candidate) {
        double oldRate() {
            return median(old);
        }

        double newRate() {
            return median(candidate);
        }

        double ratio() {
            return newRate() / oldRate();
        }

        boolean holds() {
            return ratio() >= GUARD;
        }

        String row() {
            return String.format(Locale.ROOT, "| %s | %d | %.1f | %.1f | %.2f | %s |", scenario, clients, oldRate(),
                    newRate(), ratio(), holds() ? "yes" : "NO");
        }

        String rounds() {
            return String.format(Locale.ROOT, "%s, %d clients, pay/s by round: old %s; new %s", scenario, clients,
                    rates(old), rates(candidate));
        }

        private static String rates(List<Double> rates) {
            return rates.stream().map(r -> String.format(Locale.ROOT, "%.1f", r)).collect(Collectors.joining(", "));
        }
    }

    private JarComparison() {
    }

    /** The median: the middle rate, or the mean of the two middle ones; NaN when there is none. */
    static double median(List<Double> rates) {
        List<Double> sorted = rates.stream().sorted().toList();
        int n = sorted.size();
        if (n == 0) {
            return Double.NaN;
        }
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    /**
     * Whether the old build runs first in the {@code pair}-th pair of runs of round {@code round}:
     * neighbouring pairs take turns, and every pair swaps its order from one round to the next.
     */
    static boolean oldFirst(int round, int pair) {
        return (round + pair) % 2 == 0;
    }

    /** The table of the comparisons, its verdict last. */
    static List<String> summary(List<Comparison> comparisons) {
        List<String> lines = new ArrayList<>();
        lines.add(String.format(Locale.ROOT, "| scenario | clients | old pay/s | new pay/s | new/old | >= %.2f |", GUARD));
        lines.add("|---|---:|---:|---:|---:|---|");
        comparisons.forEach(c -> lines.add(c.row()));
        List<String> missed = comparisons.stream().filter(c -> !c.holds())
                .map(c -> String.format(Locale.ROOT, "%s at %d clients (%.2f)", c.scenario(), c.clients(), c.ratio()))
                .toList();
        lines.add(String.format(Locale.ROOT, "Guard, new pay/s >= %.2f x old in every scenario: %s", GUARD,
                missed.isEmpty() ? "PASS" : "MISS: " + String.join(", ", missed)));
        return lines;
    }

    static void run(ServiceLoadOptions options, Path baseline, Path candidate, Path temp) throws Exception {
        long started = System.nanoTime();
        System.out.printf(Locale.ROOT, "Comparison of two builds: old %s, new %s; closed loops of payments at %s "
                        + "clients, %d s measured per run after %d s, %d round%s, the builds alternating run by run%n",
                baseline, candidate, options.clients(), options.seconds(), options.runWarmup(), options.rounds(),
                options.rounds() == 1 ? "" : "s");
        String machine = BenchmarkSupport.machine();
        System.out.println(machine);
        ServiceLoadBenchmark.printLoadGenerator();
        System.out.println("old build:");
        try (ServerUnderTest old = ServerUnderTest.start(baseline, temp.resolve("old"), options)) {
            System.out.println("new build:");
            try (ServerUnderTest candidateServer = ServerUnderTest.start(candidate, temp.resolve("new"), options)) {
                if (options.warmup() > 0) {
                    System.out.println("old build:");
                    old.warmUp(options);
                    System.out.println("new build:");
                    candidateServer.warmUp(options);
                }
                List<Comparison> comparisons = measure(old, candidateServer, options);
                System.out.printf(Locale.ROOT, "%nComparison (%d s per run, median of %d round%s):%n%n", options.seconds(),
                        options.rounds(), options.rounds() == 1 ? "" : "s");
                summary(comparisons).forEach(System.out::println);
                System.out.println();
                comparisons.forEach(c -> System.out.println(c.rounds()));
                System.out.println("old " + old.server.logSummary());
                System.out.println("new " + candidateServer.server.logSummary());
            }
        }
        System.out.println(machine);
        System.out.printf(Locale.ROOT, "load average at end: %s; whole run %.0f s%n", BenchmarkSupport.loadAverage(),
                (System.nanoTime() - started) / 1e9);
    }

    private static List<Comparison> measure(ServerUnderTest old, ServerUnderTest candidate, ServiceLoadOptions options)
            throws InterruptedException {
        Map<String, Comparison> comparisons = new LinkedHashMap<>();
        for (int round = 0; round < options.rounds(); round++) {
            int pair = 0;
            for (boolean hot : new boolean[]{false, true}) {
                String scenario = hot ? "1 hot wallet" : ServerUnderTest.WALLETS + " wallets";
                for (int clients : options.clients()) {
                    Comparison comparison = comparisons.computeIfAbsent(scenario + "/" + clients,
                            k -> new Comparison(scenario, clients, new ArrayList<>(), new ArrayList<>()));
                    String keys = "g" + round + (hot ? "h" : "p") + clients + "-";
                    boolean oldFirst = oldFirst(round, pair++);
                    for (boolean isOld : new boolean[]{oldFirst, !oldFirst}) {
                        LoadDriver.Measured run = (isOld ? old : candidate).closed((isOld ? "old" : "new") + ", round "
                                + (round + 1) + ", " + scenario, hot, clients, keys, options);
                        (isOld ? comparison.old() : comparison.candidate()).add(run.perSecond());
                    }
                }
            }
        }
        return List.copyOf(comparisons.values());
    }
}
