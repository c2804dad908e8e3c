package com.agentwallet.bench.delivery;

import com.agentwallet.adapters.http.webhook.HttpWebhookTransport;
import com.agentwallet.adapters.http.webhook.ReceiverTls;
import com.agentwallet.adapters.http.webhook.ResolvingReceiverGuard;
import com.agentwallet.adapters.persistence.EmbeddedDatabase;
import com.agentwallet.adapters.persistence.JdbiStorage;
import com.agentwallet.adapters.persistence.Postgres;
import com.agentwallet.bench.Arguments;
import com.agentwallet.bench.BenchmarkSupport;
import com.agentwallet.bench.CoreWiring;
import com.agentwallet.bootstrap.Heartbeats;
import com.agentwallet.bootstrap.ServiceConfiguration;
import com.agentwallet.bootstrap.WebhookWorkers;
import com.agentwallet.core.event.DomainEvent;
import com.agentwallet.core.event.EventPublisher;
import com.agentwallet.core.id.EventId;
import com.agentwallet.core.id.IdGenerator;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.RandomIdGenerator;
import com.agentwallet.core.id.WebhookId;
import com.agentwallet.core.idempotency.RequestKey;
import com.agentwallet.core.port.ReceiverGuard;
import com.agentwallet.core.port.Storage;
import com.agentwallet.core.webhook.WebhookDispatcher;
import com.agentwallet.core.webhook.WebhookService;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.zaxxer.hikari.HikariDataSource;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Whether one organisation's slow receiver holds up another's deliveries: how long organisation B's
 * events wait from their commit to their first delivery attempt, first with organisation A idle,
 * then with A's receiver taking {@code --delay-ms} to answer each of {@code --a-events} events queued
 * before B's. Both run in one process on an embedded PostgreSQL 17, with the service's own
 * {@link WebhookWorkers} (its default settings), the real {@link WebhookDispatcher} and
 * {@link HttpWebhookTransport}, and local HTTPS receivers; the events are pings, one webhook each.
 *
 * <pre>
 * mvn -B -q -pl bench -am package -DskipTests
 * java -cp bench/target/benchmarks.jar com.agentwallet.bench.delivery.DeliveryFairnessBenchmark [--a-events 40] [--delay-ms 4900]
 * </pre>
 *
 * Options: {@code --a-events} queued for A (40), {@code --delay-ms} A's receiver takes to answer
 * (4900), {@code --samples} B's events per phase, one at a time (5), {@code --workers} (4),
 * {@code --poll-ms} the workers' poll interval (200, the service's default).
 */
public final class DeliveryFairnessBenchmark {
    private static final Duration PATIENCE = Duration.ofMinutes(5);

    record Options(int aEvents, int delayMs, int samples, int workers, int pollMs) {
        static final String USAGE = "usage: DeliveryFairnessBenchmark [--a-events 40] [--delay-ms 4900] [--samples 5] "
                + "[--workers 4] [--poll-ms 200]";

        static Options parse(String... args) {
            Arguments in = new Arguments(args);
            int aEvents = 40;
            int delayMs = 4900;
            int samples = 5;
            int workers = 4;
            int pollMs = 200;
            while (in.hasNext()) {
                switch (in.next()) {
                    case "--a-events" -> aEvents = in.positive();
                    case "--delay-ms" -> delayMs = in.notNegative();
                    case "--samples" -> samples = in.positive();
                    case "--workers" -> workers = in.positive();
                    case "--poll-ms" -> pollMs = in.positive();
                    default -> throw in.unknown();
                }
            }
            return new Options(aEvents, delayMs, samples, workers, pollMs);
        }
    }

    private DeliveryFairnessBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Options options = Arguments.parseOrExit(args, Options.USAGE, Options::parse);
        BenchmarkSupport.runInTempDirectory("delivery-fairness", temp -> run(options, temp));
    }

    private static void run(Options options, Path temp) throws Exception {
        System.out.printf(Locale.ROOT, "Webhook fairness benchmark: B's first-attempt delay, A idle, then A's receiver "
                        + "taking %d ms for each of %d queued events; %d workers polling every %d ms, %d samples each%n",
                options.delayMs(), options.aEvents(), options.workers(), options.pollMs(), options.samples());
        BenchmarkSupport.printMachine();
        Path keyStore = temp.resolve("receiver.p12");
        try (EmbeddedDatabase db = EmbeddedDatabase.start(temp.resolve("data"), temp.resolve("work"), 0);
             HikariDataSource pool = Postgres.pool(db.jdbcUrl("postgres"), EmbeddedDatabase.USER, db.password(),
                     options.workers() + 2);
             Receiver slow = Receiver.start(keyStore, options.aEvents() + options.workers(),
                     Duration.ofMillis(options.delayMs()));
             Receiver fast = Receiver.start(keyStore, options.workers())) {
            BenchmarkSupport.migrateQuietly(pool);
            Clock clock = Clock.tick(Clock.systemUTC(), Duration.ofMillis(1));
            IdGenerator ids = new RandomIdGenerator(new SecureRandom());
            Storage storage = new JdbiStorage(Postgres.jdbi(pool), clock);
            CoreWiring core = new CoreWiring(storage, clock, ids);
            ServiceConfiguration.WebhookSettings settings = new ObjectMapper().convertValue(Map.of(
                    "workers", options.workers(), "pollInterval", options.pollMs() + "ms",
                    "allowPrivateReceivers", true, "acceptSelfSignedReceivers", true),
                    ServiceConfiguration.WebhookSettings.class);
            ReceiverGuard guard = new ResolvingReceiverGuard(true);
            WebhookService webhooks = new WebhookService(storage, guard, core.events, ids, settings.limits(), clock);
            OrgId a = core.organisations.create("Organisation A").id();
            OrgId b = core.organisations.create("Organisation B").id();
            WebhookId aHook = webhooks.create(a, slow.url(), List.of("wallet.created"), RequestKey.none()).value().id();
            WebhookId bHook = webhooks.create(b, fast.url(), List.of("wallet.created"), RequestKey.none()).value().id();
            System.out.printf(Locale.ROOT, "limits: %s%n", settings.limits());

            WebhookWorkers workers = new WebhookWorkers(new WebhookDispatcher(storage,
                    new HttpWebhookTransport(ReceiverTls.of(true), new ObjectMapper()), guard, settings.limits(), clock),
                    settings, new Heartbeats(clock));
            workers.start();
            try {
                Pinger pinger = new Pinger(storage, core.events, clock);
                pinger.ping(b, bHook, fast); // warms the path up; not counted
                List<Double> idle = pinger.delays(b, bHook, fast, options.samples());
                List<EventId> queued = pinger.publish(a, aHook, options.aEvents());
                long waited = System.nanoTime();
                while (slow.firstArrival(queued.get(0).value()) == null) {
                    pinger.pause(waited);
                }
                List<Double> busy = pinger.delays(b, bHook, fast, options.samples());
                System.out.printf(Locale.ROOT, "%nA's first event reached its receiver; A's receiver answered %d of "
                        + "%d by the end%n", slow.acknowledgedCount(), options.aEvents());
                print("A idle", idle);
                print("A slow", busy);
                System.out.printf(Locale.ROOT, "median ratio, A slow to A idle: %.2f%n", median(busy) / median(idle));
            } finally {
                workers.stop();
            }
        }
    }

    private static void print(String phase, List<Double> delays) {
        System.out.printf(Locale.ROOT, "B's first attempt after its commit, %s: median %.3f s, max %.3f s (%s)%n", phase,
                median(delays), delays.stream().mapToDouble(Double::doubleValue).max().orElseThrow(),
                delays.stream().map(d -> String.format(Locale.ROOT, "%.3f", d)).toList());
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int middle = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
    }

    /** Commits pings and times them to their first arrival at a receiver. */
    private record Pinger(Storage storage, EventPublisher events, Clock clock) {
        List<EventId> publish(OrgId org, WebhookId webhook, int count) {
            return storage.inTransaction(stores -> {
                List<EventId> written = new ArrayList<>();
                for (int i = 0; i < count; i++) {
                    written.add(events.publish(stores, new DomainEvent.Ping(org, webhook, clock.instant())));
                }
                return written;
            });
        }

        /** Seconds from the commit of one ping to its first arrival. */
        double ping(OrgId org, WebhookId webhook, Receiver receiver) {
            String id = publish(org, webhook, 1).get(0).value();
            long committed = System.nanoTime();
            Long arrived;
            while ((arrived = receiver.firstArrival(id)) == null) {
                pause(committed);
            }
            return (arrived - committed) / 1e9;
        }

        List<Double> delays(OrgId org, WebhookId webhook, Receiver receiver, int samples) {
            List<Double> delays = new ArrayList<>();
            for (int i = 0; i < samples; i++) {
                delays.add(ping(org, webhook, receiver));
            }
            return delays;
        }

        void pause(long since) {
            if (System.nanoTime() - since > PATIENCE.toNanos()) {
                throw new IllegalStateException("no delivery within " + PATIENCE);
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
    }
}
