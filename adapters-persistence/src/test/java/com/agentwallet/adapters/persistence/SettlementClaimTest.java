package com.agentwallet.adapters.persistence;

import com.agentwallet.core.event.EventPublisher;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.RandomIdGenerator;
import com.agentwallet.core.ledger.LedgerAccount;
import com.agentwallet.core.ledger.LedgerAddress;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.ledger.LedgerOutcome;
import com.agentwallet.core.ledger.ProgramError;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.payment.Settlement;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.policy.PolicyRules;
import com.agentwallet.core.port.LedgerPort;
import com.agentwallet.core.testing.Addresses;
import com.agentwallet.core.testing.CoreServices;
import com.agentwallet.core.testing.FakeLedger;
import com.agentwallet.core.testing.MutableClock;
import com.agentwallet.core.testing.Scenario.FundedWallet;
import com.zaxxer.hikari.HikariDataSource;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.IntStream;

import static com.agentwallet.adapters.persistence.PgBooks.number;
import static com.agentwallet.adapters.persistence.PgBooks.text;
import static com.agentwallet.adapters.persistence.PgBooks.texts;
import static com.agentwallet.core.testing.PaymentRequest.paymentFrom;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two server processes settling over one PostgreSQL: each its own storage and {@link Settlement}
 * over the same database and the same ledger. Their claims in the database keep them from settling
 * one transaction at once, and a claim left by a process that died lapses for the other to finish.
 */
class SettlementClaimTest {
    private static final String PAYEE = Addresses.external("payee");
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    private static HikariDataSource pool;
    private static Jdbi jdbi;

    private FakeLedger chain;
    private MutableClock clock;
    private CoreServices core;

    @BeforeAll
    static void createDatabase() {
        pool = TestDatabase.fresh(8);
        jdbi = Postgres.jdbi(pool);
    }

    @AfterAll
    static void closeDatabase() {
        pool.close();
    }

    @BeforeEach
    void emptyBooks() {
        TestDatabase.truncateAll(pool);
        chain = new FakeLedger();
        clock = MutableClock.atTestEpoch();
        core = PgBooks.services(new JdbiStorage(jdbi, clock), chain, clock, 19);
    }

    @Test
    void twoProcessesRecoveringTheSamePaymentsSubmitEachOnceAndSettleThemAll() throws Exception {
        List<Transaction> pending = pendingPayments(6);
        GatedLedger ledger = new GatedLedger(chain, instruction -> chain.submit(instruction));
        Settlement first = process(ledger, 1);
        Settlement second = process(ledger, 2);

        ExecutorService processes = Executors.newFixedThreadPool(2);
        try {
            List<Future<Integer>> recoveries = List.of(
                    processes.submit(() -> first.recover(Duration.ZERO, 100)),
                    processes.submit(() -> second.recover(Duration.ZERO, 100)));
            assertThat(ledger.entered.tryAcquire(2, PATIENCE.toSeconds(), TimeUnit.SECONDS))
                    .as("each process is in a submission at once").isTrue();
            assertThat(ledger.submissions).as("of two different payments").hasSize(2);
            assertThat(number(jdbi, "SELECT count(*) FROM settlement_claims")).as("each claimed by its process")
                    .isEqualTo(2);
            ledger.gate.countDown();
            for (Future<Integer> recovery : recoveries) {
                assertThat(recovery.get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isEqualTo(pending.size());
            }
        } finally {
            processes.shutdownNow();
        }

        assertThat(ledger.submissions.keySet()).as("none lost")
                .containsExactlyInAnyOrderElementsOf(pending.stream().map(tx -> tx.id().value()).toList());
        assertThat(ledger.submissions.values()).as("each submitted once").allSatisfy(count ->
                assertThat(count.get()).isEqualTo(1));
        assertThat(texts(jdbi, "SELECT DISTINCT status FROM transactions WHERE type = 'payment'"))
                .containsExactly("confirmed");
        assertThat(chain.balanceOf(PAYEE)).isEqualTo(Usdc.parse("6").micros());
        assertThat(number(jdbi, "SELECT count(*) FROM settlement_claims")).as("every claim ended").isZero();
    }

    @Test
    void aProcessThatDiesMidSettlementLeavesItToAnotherOnceItsClaimLapsesAndAppliesNothingAfter() throws Exception {
        Transaction payment = pendingPayments(1).get(0);
        // The dying process never reaches the chain; when it wakes, long after, it hears a refusal.
        GatedLedger dying = new GatedLedger(chain,
                instruction -> ProgramError.INSUFFICIENT_FUNDS.rejected("a stale refusal"));
        GatedLedger living = new GatedLedger(chain, instruction -> chain.submit(instruction));
        living.gate.countDown();
        Settlement first = process(dying, 1);
        Settlement second = process(living, 2);

        ExecutorService processes = Executors.newSingleThreadExecutor();
        try {
            Future<Transaction> stalled = processes.submit(() -> first.settle(payment.orgId(), payment.id()));
            assertThat(dying.entered.tryAcquire(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();

            assertThat(second.recover(Duration.ZERO, 10)).isEqualTo(1);
            assertThat(living.submissions).as("not while the first process's claim runs").isEmpty();

            clock.advance(Settlement.LEASE.plusSeconds(1));
            second.recover(Duration.ZERO, 10);
            assertThat(living.submissions.get(payment.id().value())).hasValue(1);
            assertThat(status(payment)).isEqualTo("confirmed");

            dying.gate.countDown();
            assertThat(stalled.get(PATIENCE.toSeconds(), TimeUnit.SECONDS).status().wireName())
                    .as("the refusal heard too late is not applied").isEqualTo("confirmed");
        } finally {
            processes.shutdownNow();
        }
        assertThat(status(payment)).isEqualTo("confirmed");
        assertThat(chain.executed().stream().filter(i -> i.operationId().equals(payment.id().value())))
                .as("paid once").hasSize(1);
        assertThat(chain.balanceOf(PAYEE)).isEqualTo(Usdc.parse("1").micros());
        assertThat(core.wallets.get(payment.orgId(), payment.walletId()).value().balance())
                .isEqualTo(Usdc.parse("99"));
        assertThat(number(jdbi, "SELECT count(*) FROM settlement_claims")).isZero();
    }

    /** Payments of one USDC each, left pending by a ledger that did not answer. */
    private List<Transaction> pendingPayments(int count) {
        OrgId org = PgBooks.organisation(core, "1000");
        FundedWallet wallet = PgBooks.wallet(core, org, PgBooks.policy(core, org, PolicyRules.NONE), "agent-1", "100");
        chain.leaveUnansweredWhen(instruction -> instruction instanceof LedgerInstruction.Pay);
        List<Transaction> pending = IntStream.range(0, count).mapToObj(i -> core.payments
                .pay(paymentFrom(wallet).to(PAYEE).amount("1").build()).value().transaction()).toList();
        chain.behaveNormally();
        assertThat(pending).allSatisfy(tx -> assertThat(status(tx)).isEqualTo("pending"));
        return pending;
    }

    /** A server process of its own: its own storage and settlement, over the same database. */
    private Settlement process(LedgerPort ledger, long seed) {
        return new Settlement(new JdbiStorage(jdbi, clock), ledger,
                new EventPublisher(new RandomIdGenerator(new Random(seed)), clock), clock);
    }

    private static String status(Transaction tx) {
        return text(jdbi, "SELECT status FROM transactions WHERE id = ?", tx.id().value());
    }

    /**
     * The ledger as a process reaches it: counts each operation's submissions, and holds each at a
     * gate until the test opens it, then answers with {@code answer}.
     */
    private static final class GatedLedger implements LedgerPort {
        final Map<String, AtomicInteger> submissions = new ConcurrentHashMap<>();
        final Semaphore entered = new Semaphore(0);
        final CountDownLatch gate = new CountDownLatch(1);
        private final LedgerPort chain;
        private final Function<LedgerInstruction, LedgerOutcome> answer;

        GatedLedger(LedgerPort chain, Function<LedgerInstruction, LedgerOutcome> answer) {
            this.chain = chain;
            this.answer = answer;
        }

        @Override
        public LedgerOutcome submit(LedgerInstruction instruction) {
            submissions.computeIfAbsent(instruction.operationId(), id -> new AtomicInteger()).incrementAndGet();
            entered.release();
            try {
                if (!gate.await(PATIENCE.toSeconds(), TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the gate never opened");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            return answer.apply(instruction);
        }

        @Override
        public LedgerAddress walletAddress(OrgId orgId, String agentId) {
            return chain.walletAddress(orgId, agentId);
        }

        @Override
        public byte[] coSignMessage(LedgerInstruction.Pay payment) {
            return chain.coSignMessage(payment);
        }

        @Override
        public void coSignAbandoned(String operationId) {
            chain.coSignAbandoned(operationId);
        }

        @Override
        public long currentSlot() {
            return chain.currentSlot();
        }

        @Override
        public Usdc balance(LedgerAccount account) {
            return chain.balance(account);
        }
    }
}
