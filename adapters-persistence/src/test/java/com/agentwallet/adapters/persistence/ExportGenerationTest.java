package com.agentwallet.adapters.persistence;

import com.agentwallet.core.event.EventPublisher;
import com.agentwallet.core.export.ExportFormat;
import com.agentwallet.core.export.ExportJob;
import com.agentwallet.core.export.ExportService;
import com.agentwallet.core.export.ExportSettings;
import com.agentwallet.core.export.ExportStatus;
import com.agentwallet.core.id.IdGenerator;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.RandomIdGenerator;
import com.agentwallet.core.idempotency.RequestKey;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.port.ExportStore;
import com.agentwallet.core.port.ExportWriter;
import com.agentwallet.core.port.Storage;
import com.agentwallet.core.testing.Addresses;
import com.agentwallet.core.testing.CoreServices;
import com.agentwallet.core.testing.FakeExportFiles;
import com.agentwallet.core.testing.FakeExportWriter;
import com.agentwallet.core.testing.FakeLedger;
import com.agentwallet.core.testing.MutableClock;
import com.agentwallet.core.testing.Scenario.FundedWallet;
import com.agentwallet.core.webhook.WebhookDispatcher;
import com.agentwallet.core.webhook.WebhookLimits;
import com.zaxxer.hikari.HikariDataSource;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import static com.agentwallet.adapters.persistence.PgBooks.events;
import static com.agentwallet.adapters.persistence.PgBooks.number;
import static com.agentwallet.core.testing.PaymentRequest.paymentFrom;
import static com.agentwallet.core.testing.RulesBuilder.rules;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The export generator on PostgreSQL: two server processes (two pools on one database) share the
 * pending jobs through leased claims and never generate one job twice; a job whose process died is
 * taken over once its lease runs out; and a file being written holds nothing that stops other work.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ExportGenerationTest {
    private static final int JOBS = 12;

    private static HikariDataSource pool;
    private static HikariDataSource otherProcess;
    private static Jdbi jdbi;

    private final MutableClock clock = MutableClock.atTestEpoch();
    private final FakeExportFiles files = new FakeExportFiles();
    private CoreServices core;
    private OrgId org;

    @BeforeAll
    static void createDatabase() {
        pool = TestDatabase.fresh(4);
        otherProcess = PgBooks.reopen(pool, 4);
        jdbi = Postgres.jdbi(pool);
    }

    @AfterAll
    static void closeDatabase() {
        otherProcess.close();
        pool.close();
    }

    @BeforeEach
    void anOrganisationWithAHistory() {
        TestDatabase.truncateAll(pool);
        core = PgBooks.services(new JdbiStorage(jdbi, clock), new FakeLedger(), clock, 61);
        org = PgBooks.organisation(core, "1000");
        FundedWallet wallet = PgBooks.wallet(core, org, PgBooks.policy(core, org, rules().build()), "agent-1", "100");
        for (int i = 0; i < 5; i++) {
            clock.advance(Duration.ofSeconds(1));
            core.payments.pay(paymentFrom(wallet).to(Addresses.external("payee")).amount("0.01").build()).value();
        }
    }

    @Test
    void twoProcessesGeneratingAtOnceGenerateEveryJobExactlyOnce() throws Exception {
        List<ExportJob> jobs = requests(JOBS);
        CountDownLatch bothWriting = new CountDownLatch(2);
        ExportService one = generator(new JdbiStorage(jdbi, clock), 1, overlapping(bothWriting, FakeExportWriter::new));
        ExportService two = generator(new JdbiStorage(Postgres.jdbi(otherProcess), clock), 2,
                overlapping(bothWriting, FakeExportWriter::new));
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            Future<Integer> byOne = threads.submit(() -> {
                start.await();
                return one.generatePending(JOBS);
            });
            Future<Integer> byTwo = threads.submit(() -> {
                start.await();
                return two.generatePending(JOBS);
            });
            start.countDown();

            assertThat(byOne.get(60, TimeUnit.SECONDS) + byTwo.get(60, TimeUnit.SECONDS)).isEqualTo(JOBS);
            assertThat(byOne.get()).isPositive();
            assertThat(byTwo.get()).isPositive();
        } finally {
            threads.shutdownNow();
        }
        for (ExportJob job : jobs) {
            ExportJob ready = core.exports.get(org, job.id()).value();
            assertThat(ready.status()).isEqualTo(ExportStatus.READY);
            assertThat(ready.rowCount()).contains(6L);
            assertThat(files.creations(job.id())).as("files started for " + job.id()).isEqualTo(1);
            assertThat(events(jdbi, "export.ready", "export_id", job.id().value())).isEqualTo(1);
        }
        assertThat(number(jdbi, "SELECT count(*) FROM export_jobs WHERE status = 'pending'")).isZero();
    }

    @Test
    void aJobAnotherProcessClaimedIsSkippedWhileItsLeaseHoldsAndTakenOverOnceItRunsOut() {
        List<ExportJob> jobs = requests(3);
        ExportService generator = generator(new JdbiStorage(jdbi, clock), 1, FakeExportWriter::new);
        Storage otherStorage = new JdbiStorage(Postgres.jdbi(otherProcess), clock);
        Instant now = clock.instant();
        ExportStore.Claimed died = otherStorage.inTransaction(stores -> stores.exports()
                .claim(now, now.plus(ExportSettings.DEFAULTS.lease()), ExportSettings.RUNNING_PER_ORGANISATION, 1)).get(0);
        assertThat(died.job()).isEqualTo(jobs.get(0));

        assertThat(generator.generatePending(10)).isEqualTo(2);
        assertThat(status(jobs.get(0))).isEqualTo(ExportStatus.PENDING);
        assertThat(status(jobs.get(1))).isEqualTo(ExportStatus.READY);
        assertThat(status(jobs.get(2))).isEqualTo(ExportStatus.READY);

        clock.advance(ExportSettings.DEFAULTS.lease());
        assertThat(generator.generatePending(10)).isEqualTo(1);

        ExportJob ready = core.exports.get(org, jobs.get(0).id()).value();
        assertThat(ready.status()).isEqualTo(ExportStatus.READY);
        boolean finishedByTheDead = otherStorage.inTransaction(stores -> stores.exports()
                .finish(died, died.job().failed(clock.instant())));
        assertThat(finishedByTheDead).as("the process whose lease ran out cannot finish the job any more").isFalse();
        assertThat(core.exports.get(org, jobs.get(0).id()).value()).isEqualTo(ready);
        assertThat(events(jdbi, "export.ready", "export_id", jobs.get(0).id().value())).isEqualTo(1);
    }

    @Test
    void anExportBeingWrittenHoldsUpNoOtherOrganisationsWebhookFanOutNorDelivery() throws Exception {
        OrgId other = PgBooks.organisation(core, "1000");
        core.webhooks.create(other, "https://hooks.example.com/in", List.of("*"), RequestKey.none());
        FundedWallet payer = PgBooks.wallet(core, other, PgBooks.policy(core, other, rules().build()), "agent-b", "100");
        PostgresDeliveryTest.Receiver receiver = new PostgresDeliveryTest.Receiver();
        WebhookDispatcher dispatcher = new WebhookDispatcher(new JdbiStorage(jdbi, clock), receiver, core.receivers,
                WebhookLimits.DEFAULTS, clock);
        drain(dispatcher);
        receiver.received.clear();
        ExportJob job = requests(1).get(0);
        CountDownLatch writing = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ExportService generator = generator(new JdbiStorage(jdbi, clock), 1, beforeEachRow(() -> {
            writing.countDown();
            await(release);
        }));
        ExecutorService thread = Executors.newSingleThreadExecutor();
        try {
            Future<Integer> generated = thread.submit(() -> generator.generatePending(1));
            assertThat(writing.await(60, TimeUnit.SECONDS)).isTrue();

            String paid = core.payments.pay(paymentFrom(payer).to(Addresses.external("payee")).amount("0.01").build())
                    .value().transaction().id().value();
            assertThat(dispatcher.fanOut(100)).as("the other organisation's events are fanned out").isPositive();
            while (dispatcher.deliverNext()) {
                assertThat(status(job)).isEqualTo(ExportStatus.PENDING);
            }
            assertThat(receiver.received).as("and delivered, while the export is still being written")
                    .anySatisfy(body -> assertThat(body.toString()).contains(paid));
            assertThat(status(job)).isEqualTo(ExportStatus.PENDING);

            release.countDown();
            assertThat(generated.get(60, TimeUnit.SECONDS)).isEqualTo(1);
        } finally {
            release.countDown();
            thread.shutdownNow();
        }
        assertThat(status(job)).isEqualTo(ExportStatus.READY);
    }

    /** Fans out and delivers everything there is so far. */
    private static void drain(WebhookDispatcher dispatcher) {
        int moved;
        do {
            moved = dispatcher.fanOut(100);
            while (dispatcher.deliverNext()) {
                moved++;
            }
        } while (moved > 0);
    }

    @Test
    void aWriterFailingHalfwayMakesTheJobFailedWithNoFileAndNoEvent() {
        ExportJob job = requests(1).get(0);
        AtomicInteger written = new AtomicInteger();
        ExportService generator = generator(new JdbiStorage(jdbi, clock), 1, beforeEachRow(() -> {
            if (written.incrementAndGet() == 3) {
                throw new UncheckedIOException(new IOException("No space left on device"));
            }
        }));

        assertThat(generator.generatePending(10)).isEqualTo(1);

        ExportJob failed = core.exports.get(org, job.id()).value();
        assertThat(failed.status()).isEqualTo(ExportStatus.FAILED);
        assertThat(failed.completedAt()).isPresent();
        assertThat(failed.filePath()).isEmpty();
        assertThat(files.content(job.id())).isEmpty();
        assertThat(files.unfinished()).isEmpty();
        assertThat(events(jdbi, "export.ready", "export_id", job.id().value())).isZero();
    }

    private List<ExportJob> requests(int count) {
        List<ExportJob> jobs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            clock.advance(Duration.ofMillis(1));
            jobs.add(core.exports.request(org, ExportFormat.values()[i % 2], Optional.empty(), Optional.empty(),
                    Optional.empty(), RequestKey.none()).value());
        }
        return jobs;
    }

    /** A generator of its own process: its own storage and ids, the shared files and clock. */
    private ExportService generator(Storage storage, long seed, Function<ExportFormat, ExportWriter> writer) {
        IdGenerator ids = new RandomIdGenerator(new Random(seed * 1_000_003));
        return new ExportService(storage, new EventPublisher(ids, clock), files,
                Arrays.stream(ExportFormat.values()).map(writer).toList(), ids, ExportSettings.DEFAULTS, clock);
    }

    /** Fake writers that run {@code before} before they write each row. */
    private static Function<ExportFormat, ExportWriter> beforeEachRow(Runnable before) {
        return format -> new ExportWriter() {
            public ExportFormat format() {
                return format;
            }

            public Rows begin(OutputStream out) {
                Rows rows = new FakeExportWriter(format).begin(out);
                return new Rows() {
                    public void row(Transaction transaction) {
                        before.run();
                        rows.row(transaction);
                    }

                    public void end() {
                        rows.end();
                    }
                };
            }
        };
    }

    /**
     * Writers whose first file waits until the other generator is writing one too, so the two
     * generators certainly hold a job each at the same moment; later files go straight through.
     */
    private static Function<ExportFormat, ExportWriter> overlapping(CountDownLatch bothWriting,
                                                                    Function<ExportFormat, ExportWriter> writers) {
        return format -> new ExportWriter() {
            public ExportFormat format() {
                return format;
            }

            public Rows begin(OutputStream out) {
                bothWriting.countDown();
                await(bothWriting);
                return writers.apply(format).begin(out);
            }
        };
    }

    private ExportStatus status(ExportJob job) {
        return core.exports.get(org, job.id()).value().status();
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("never released");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
