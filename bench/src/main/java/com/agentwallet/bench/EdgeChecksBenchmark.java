package com.agentwallet.bench;

import com.agentwallet.adapters.persistence.EmbeddedDatabase;
import com.agentwallet.adapters.persistence.JdbiStorage;
import com.agentwallet.adapters.persistence.Postgres;
import com.agentwallet.adapters.persistence.PostgresBuckets;
import com.agentwallet.core.auth.ApiKeyCache;
import com.agentwallet.core.auth.ApiKeyService;
import com.agentwallet.core.auth.Role;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.RandomIdGenerator;
import com.agentwallet.edge.limit.BucketStore;
import com.agentwallet.edge.limit.MemoryBuckets;
import com.agentwallet.edge.limit.RateLimit;
import com.agentwallet.edge.limit.RateLimits;
import com.zaxxer.hikari.HikariDataSource;
import org.jdbi.v3.core.Jdbi;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntConsumer;

/**
 * What the two checks every request passes cost, side by side in one run on the embedded
 * PostgreSQL: an organisation's rate-limit bucket kept in this process against one kept in the
 * database (shared by every process), with one statement's round trip ({@code SELECT 1}) for
 * scale; and authenticating an API key kept in memory and trusted for {@link ApiKeyCache#TRUST_FOR}
 * against one trusted for an hour (as good as never read again, which is how keys were kept before
 * the bound). Each variant runs in rounds on the same threads, the order turning from round to
 * round; the tool prints checks per second, the mean time of one check, and the ratios.
 */
public final class EdgeChecksBenchmark {
    private static final String USAGE = "EdgeChecksBenchmark [--threads 4] [--organisations 16] [--seconds 3] [--rounds 3]";
    /** Large enough that no check of the run is refused: the cost measured is the check's, not a 429's. */
    private static final RateLimit UNREACHED = new RateLimit(1_000_000_000L, 1_000_000_000L);

    private record Options(int threads, int organisations, int seconds, int rounds) {
        static Options parse(String[] args) {
            Arguments arguments = new Arguments(args);
            int threads = 4;
            int organisations = 16;
            int seconds = 3;
            int rounds = 3;
            while (arguments.hasNext()) {
                switch (arguments.next()) {
                    case "--threads" -> threads = Integer.parseInt(arguments.value());
                    case "--organisations" -> organisations = Integer.parseInt(arguments.value());
                    case "--seconds" -> seconds = Integer.parseInt(arguments.value());
                    case "--rounds" -> rounds = Integer.parseInt(arguments.value());
                    default -> throw new Arguments.UsageException("unknown option");
                }
            }
            return new Options(threads, organisations, seconds, rounds);
        }
    }

    private EdgeChecksBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Options options = Arguments.parseOrExit(args, USAGE, Options::parse);
        BenchmarkSupport.runInTempDirectory("edge-checks-benchmark", temp -> run(options, temp));
    }

    private static void run(Options options, Path temp) throws Exception {
        BenchmarkSupport.printMachine();
        try (EmbeddedDatabase db = EmbeddedDatabase.start(temp.resolve("data"), temp.resolve("work"), 0);
             HikariDataSource pool = Postgres.pool(db.jdbcUrl("postgres"), EmbeddedDatabase.USER, db.password(),
                     options.threads())) {
            BenchmarkSupport.migrateQuietly(pool);
            Jdbi jdbi = Postgres.jdbi(pool);
            System.out.printf(Locale.ROOT, "%s; %d threads, %d organisations, %d rounds of %d s a variant%n",
                    BenchmarkSupport.serverVersion(jdbi), options.threads(), options.organisations(), options.rounds(),
                    options.seconds());

            Clock clock = Clock.systemUTC();
            Map<String, IntConsumer> limits = new LinkedHashMap<>();
            limits.put("rate limit, bucket in memory", rateLimits(new MemoryBuckets(options.organisations() + 1), clock));
            limits.put("rate limit, bucket in PostgreSQL", rateLimits(new PostgresBuckets(jdbi), clock));
            limits.put("reference: SELECT 1, one round trip", i -> jdbi.withHandle(handle ->
                    handle.createQuery("SELECT 1").mapTo(Integer.class).one()));
            compare(options, limits);

            RandomIdGenerator ids = new RandomIdGenerator(new SecureRandom());
            JdbiStorage storage = new JdbiStorage(jdbi, clock);
            OrgId org = new CoreWiring(storage, clock, ids).organisations.create("Bench").id();
            Map<String, IntConsumer> authentication = new LinkedHashMap<>();
            authentication.put("authenticate, key trusted 1 h", authenticating(storage, ids, clock, org,
                    Duration.ofHours(1), options.organisations()));
            authentication.put("authenticate, key trusted " + ApiKeyCache.TRUST_FOR.toMillis() + " ms",
                    authenticating(storage, ids, clock, org, ApiKeyCache.TRUST_FOR, options.organisations()));
            compare(options, authentication);
        }
    }

    private static IntConsumer rateLimits(BucketStore store, Clock clock) {
        RateLimits limits = new RateLimits(UNREACHED, Map.of(), clock, store);
        return i -> {
            if (!limits.takeForOrg("org_bench_" + i).allowed()) {
                throw new IllegalStateException("a check was refused; the benchmark's limit is meant never to be reached");
            }
        };
    }

    private static IntConsumer authenticating(JdbiStorage storage, RandomIdGenerator ids, Clock clock, OrgId org,
                                              Duration trustFor, int keys) {
        ApiKeyCache cache = new ApiKeyCache(clock, trustFor);
        cache.following(true);
        ApiKeyService service = new ApiKeyService(storage, ids, clock, cache);
        List<String> secrets = new ArrayList<>();
        for (int i = 0; i < keys; i++) {
            secrets.add(service.issue(org, Role.OPERATOR).value().secret());
        }
        return i -> {
            if (service.authenticate(secrets.get(i)).isEmpty()) {
                throw new IllegalStateException("a live key was refused");
            }
        };
    }

    /** Runs the variants in rounds and prints each one's rate and mean, and its ratio to the first. */
    private static void compare(Options options, Map<String, IntConsumer> variants) throws InterruptedException {
        Map<String, long[]> totals = new LinkedHashMap<>();
        variants.keySet().forEach(name -> totals.put(name, new long[2]));
        for (IntConsumer check : variants.values()) {
            measure(options, check, 1);
        }
        List<Map.Entry<String, IntConsumer>> order = new ArrayList<>(variants.entrySet());
        for (int round = 0; round < options.rounds(); round++) {
            // the order turns from round to round, so that no variant always runs first
            Collections.rotate(order, 1);
            for (Map.Entry<String, IntConsumer> variant : order) {
                long start = System.nanoTime();
                long checks = measure(options, variant.getValue(), options.seconds());
                long[] total = totals.get(variant.getKey());
                total[0] += checks;
                total[1] += System.nanoTime() - start;
            }
        }
        double first = 0;
        for (Map.Entry<String, long[]> total : totals.entrySet()) {
            double perSecond = total.getValue()[0] / (total.getValue()[1] / 1e9);
            double meanMicros = options.threads() * 1e6 / perSecond;
            if (first == 0) {
                first = perSecond;
            }
            System.out.printf(Locale.ROOT, "%-40s %12.0f checks/s  %9.2f µs a check (mean, %d threads)  rate ratio %.3f%n",
                    total.getKey(), perSecond, meanMicros, options.threads(), perSecond / first);
        }
    }

    /** Checks on every thread for {@code seconds}, each thread cycling through the organisations; answers how many. */
    private static long measure(Options options, IntConsumer check, int seconds) throws InterruptedException {
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        LongAdder done = new LongAdder();
        CountDownLatch finished = new CountDownLatch(options.threads());
        for (int t = 0; t < options.threads(); t++) {
            int offset = t;
            Thread worker = new Thread(() -> {
                try {
                    for (int i = offset; running.get(); i++) {
                        check.accept(i % options.organisations());
                        done.increment();
                    }
                } catch (RuntimeException e) {
                    failure.compareAndSet(null, e);
                    running.set(false);
                } finally {
                    finished.countDown();
                }
            }, "edge-check-" + t);
            worker.start();
        }
        Thread.sleep(seconds * 1000L);
        running.set(false);
        finished.await();
        if (failure.get() != null) {
            throw failure.get();
        }
        return done.sum();
    }
}
