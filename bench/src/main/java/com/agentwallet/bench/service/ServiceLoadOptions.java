package com.agentwallet.bench.service;

import com.agentwallet.bench.Arguments;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * The options of {@link ServiceLoadBenchmark}. With {@code --baseline-jar} the run compares two
 * builds ({@link JarComparison}) and measures nothing else, so the options of what it leaves out
 * are refused there rather than ignored.
 */
record ServiceLoadOptions(Optional<Path> serverJar, Optional<Path> baselineJar, int rounds, List<String> serverJvm,
                          OptionalInt pool, List<Integer> clients, int warmup, int seconds, int readSeconds,
                          int exportRows, boolean exportJson, boolean pgbench, OptionalInt openRate,
                          List<Double> curve) {
    static final String USAGE = """
            usage: ServiceLoadBenchmark [--server-jar PATH] [--server-jvm "-Xms1g -Xmx1g -XX:MaxGCPauseMillis=10"]
                   [--pool N] [--clients 16,32,64] [--warmup 10] [--seconds 15] [--read-seconds 8]
                   [--export-rows 1000000] [--export-json] [--no-export] [--no-pgbench] [--open-rate N]
                   [--curve 0.2,0.3]
               or: ServiceLoadBenchmark --baseline-jar PATH [--server-jar PATH] [--rounds 3] [--server-jvm "..."]
                   [--pool N] [--clients 32,64] [--warmup 10] [--seconds 15]
            The second form runs the closed loops of both builds, alternating, and prints new/old.""";

    /** What the comparison of two builds does not measure. */
    private static final Set<String> SINGLE_BUILD_ONLY = Set.of("--read-seconds", "--export-rows", "--export-json",
            "--open-rate", "--curve");
    /** The warm-up of each run, after the warm-up of the whole service. */
    private static final int RUN_WARMUP = 3;

    static ServiceLoadOptions parse(String... args) {
        Arguments in = new Arguments(args);
        Optional<Path> serverJar = Optional.empty();
        Optional<Path> baselineJar = Optional.empty();
        int rounds = 3;
        List<String> serverJvm = List.of("-Xms1g", "-Xmx1g", "-XX:MaxGCPauseMillis=10");
        OptionalInt pool = OptionalInt.empty();
        List<Integer> clients = List.of(16, 32, 64);
        int warmup = 10;
        int seconds = 15;
        int readSeconds = 8;
        int exportRows = 1_000_000;
        boolean exportJson = false;
        boolean pgbench = true;
        OptionalInt openRate = OptionalInt.empty();
        List<Double> curve = List.of();
        Set<String> given = new LinkedHashSet<>();
        while (in.hasNext()) {
            String option = in.next();
            given.add(option);
            switch (option) {
                case "--server-jar" -> serverJar = Optional.of(in.path());
                case "--baseline-jar" -> baselineJar = Optional.of(in.path());
                case "--rounds" -> rounds = in.positive();
                case "--server-jvm" -> serverJvm = Arrays.stream(in.value().trim().split("\\s+"))
                        .filter(s -> !s.isEmpty()).toList();
                case "--pool" -> pool = OptionalInt.of(in.positive());
                case "--clients" -> clients = in.positives();
                case "--warmup" -> warmup = in.notNegative();
                case "--seconds" -> seconds = in.positive();
                case "--read-seconds" -> readSeconds = in.positive();
                case "--export-rows" -> exportRows = in.positive();
                case "--export-json" -> exportJson = true;
                case "--no-export" -> exportRows = 0;
                case "--no-pgbench" -> pgbench = false;
                case "--open-rate" -> openRate = OptionalInt.of(in.positive());
                case "--curve" -> {
                    curve = in.numbers().stream().sorted().toList();
                    if (curve.stream().anyMatch(f -> !(f > 0 && f <= 1))) {
                        throw in.invalid("takes fractions of the peak above 0 and at most 1, comma-separated");
                    }
                }
                default -> throw in.unknown();
            }
        }
        if (baselineJar.isPresent()) {
            List<String> leftOut = given.stream().filter(SINGLE_BUILD_ONLY::contains).toList();
            if (!leftOut.isEmpty()) {
                throw new Arguments.UsageException(String.join(", ", leftOut) + ": not measured when --baseline-jar "
                        + "compares two builds (closed-loop payments only); leave "
                        + (leftOut.size() == 1 ? "it" : "them") + " out");
            }
        } else if (given.contains("--rounds")) {
            throw new Arguments.UsageException("--rounds counts the rounds of the comparison of two builds: give "
                    + "--baseline-jar too");
        }
        return new ServiceLoadOptions(serverJar, baselineJar, rounds, serverJvm, pool, clients, warmup, seconds,
                readSeconds, exportRows, exportJson, pgbench, openRate, curve);
    }

    /** The warm-up before each measured run: {@value #RUN_WARMUP} s, or {@code --warmup} if that is less. */
    int runWarmup() {
        return Math.min(warmup, RUN_WARMUP);
    }
}
