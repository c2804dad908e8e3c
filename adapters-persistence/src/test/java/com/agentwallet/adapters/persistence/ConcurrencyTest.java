package com.agentwallet.adapters.persistence;

import com.agentwallet.core.common.Rejection;
import com.agentwallet.core.common.Result;
import com.agentwallet.core.event.EventType;
import com.agentwallet.core.event.OutboxEvent;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.idempotency.RequestKey;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.payment.PayCommand;
import com.agentwallet.core.payment.PaymentResult;
import com.agentwallet.core.payment.TransactionStatus;
import com.agentwallet.core.policy.Policy;
import com.agentwallet.core.testing.Addresses;
import com.agentwallet.core.testing.CoreServices;
import com.agentwallet.core.testing.FakeLedger;
import com.agentwallet.core.testing.MutableClock;
import com.agentwallet.core.testing.Scenario.FundedWallet;
import com.agentwallet.core.wallet.AutoTopup;
import com.agentwallet.core.wallet.Funding;
import com.agentwallet.core.wallet.Wallet;
import com.zaxxer.hikari.HikariDataSource;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.stream.Collectors;

import static com.agentwallet.adapters.persistence.PgBooks.events;
import static com.agentwallet.adapters.persistence.PgBooks.number;
import static com.agentwallet.adapters.persistence.PgBooks.orgBalance;
import static com.agentwallet.adapters.persistence.PgBooks.texts;
import static com.agentwallet.adapters.persistence.PgBooks.walletBalance;
import static com.agentwallet.core.testing.PaymentRequest.paymentFrom;
import static com.agentwallet.core.testing.RulesBuilder.rules;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Many threads on one set of books through the real use cases and PostgreSQL row locks: the
 * balance, the caps and idempotency hold exactly, and nothing deadlocks.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ConcurrencyTest {
    private static final int CONNECTIONS = 16;
    private static final long RACE_TIMEOUT_SECONDS = 60;
    private static final String PAYEE = Addresses.external("payee");

    private static HikariDataSource pool;
    private static Jdbi jdbi;
    /** The books' and the use cases' clock: the races here take no time. */
    private static final MutableClock CLOCK = MutableClock.atTestEpoch();
    private static JdbiStorage storage;

    private FakeLedger ledger;
    private CoreServices core;

    @BeforeAll
    static void createDatabase() {
        pool = TestDatabase.fresh(CONNECTIONS);
        jdbi = Postgres.jdbi(pool);
        storage = new JdbiStorage(jdbi, CLOCK);
    }

    @AfterAll
    static void closeDatabase() {
        pool.close();
    }

    @BeforeEach
    void emptyBooks() {
        TestDatabase.truncateAll(pool);
        ledger = new FakeLedger();
        core = PgBooks.services(storage, ledger, CLOCK, 29);
    }

    @Test
    void aWalletFundedForExactlyNPaymentsMakesExactlyNAndEndsAtZero() throws Exception {
        int payments = 200;
        int threads = 32;
        int attemptsPerThread = 20;
        OrgId org = PgBooks.organisation(core, "1000");
        FundedWallet wallet = PgBooks.wallet(core, org, PgBooks.policy(core, org, rules().build()), "agent-1",
                Integer.toString(payments));
        PayCommand oneDollar = paymentFrom(wallet).to(PAYEE).amount("1.00").build();

        Race<String> race = race(threads, thread -> {
            List<String> outcomes = new ArrayList<>();
            for (int i = 0; i < attemptsPerThread; i++) {
                outcomes.add(outcome(core.payments.pay(oneDollar)));
            }
            return outcomes;
        });

        Map<String, Long> counts = race.counts();
        print("one wallet, N=" + payments, race);
        assertThat(race.results()).hasSize(threads * attemptsPerThread);
        assertThat(counts).containsOnlyKeys("confirmed", "InsufficientFunds")
                .containsEntry("confirmed", (long) payments)
                .containsEntry("InsufficientFunds", (long) threads * attemptsPerThread - payments);
        assertThat(walletBalance(jdbi, wallet.wallet().id())).isZero();
        assertThat(number(jdbi, "SELECT count(*) FROM transactions WHERE type = 'payment'")).isEqualTo(payments);
        assertThat(number(jdbi, "SELECT count(*) FROM transactions WHERE type = 'payment' AND status = 'confirmed'"))
                .isEqualTo(payments);
        assertThat(number(jdbi, "SELECT sum(amount_micros) FROM transactions WHERE type = 'payment' AND status = 'confirmed'"))
                .isEqualTo(payments * 1_000_000L);
        assertThat(number(jdbi, "SELECT count(DISTINCT id) FROM transactions WHERE type = 'payment'")).isEqualTo(payments);
        assertThat(number(jdbi, "SELECT count(*) FROM spend_entries")).isEqualTo(payments);
        assertThat(events(jdbi, org, "transaction.completed")).isEqualTo(payments);
        assertThat(ledger.executed()).filteredOn(i -> i instanceof LedgerInstruction.Pay).hasSize(payments);
        assertThat(ledger.balanceOf(wallet.wallet().address().base58())).isZero();
        assertThat(ledger.balanceOf(PAYEE)).isEqualTo(payments * 1_000_000L);
    }

    @Test
    void aDayCapOfKPaymentsLetsExactlyKThroughAndNotOneMicroMore() throws Exception {
        int capPayments = 50;
        int threads = 32;
        int attemptsPerThread = 4;
        Usdc amount = Usdc.parse("1.000001");
        Usdc cap = Usdc.ofMicros(amount.micros() * capPayments);
        OrgId org = PgBooks.organisation(core, "1000");
        FundedWallet wallet = PgBooks.wallet(core, org, PgBooks.policy(core, org, rules().maxPerDay(cap.toString()).build()),
                "agent-1", "200");
        PayCommand payment = paymentFrom(wallet).to(PAYEE).amount(amount.toString()).build();

        Race<String> race = race(threads, thread -> {
            List<String> outcomes = new ArrayList<>();
            for (int i = 0; i < attemptsPerThread; i++) {
                outcomes.add(outcome(core.payments.pay(payment)));
            }
            return outcomes;
        });

        int attempts = threads * attemptsPerThread;
        print("day cap of K=" + capPayments + " payments (" + cap + ")", race);
        assertThat(race.counts()).containsOnlyKeys("confirmed", "PolicyViolated:max_per_day")
                .containsEntry("confirmed", (long) capPayments)
                .containsEntry("PolicyViolated:max_per_day", (long) attempts - capPayments);
        long confirmedTotal = number(jdbi, "SELECT coalesce(sum(amount_micros), 0) FROM transactions "
                + "WHERE type = 'payment' AND status = 'confirmed'");
        assertThat(confirmedTotal).isEqualTo(cap.micros()).isLessThanOrEqualTo(cap.micros());
        assertThat(number(jdbi, "SELECT spend_day_micros FROM wallets WHERE id = ?", wallet.wallet().id().value()))
                .isEqualTo(cap.micros());
        assertThat(number(jdbi, "SELECT count(*) FROM transactions WHERE status = 'blocked' AND violation_rule = 'max_per_day'"))
                .isEqualTo(attempts - capPayments);
        assertThat(texts(jdbi, "SELECT DISTINCT violation_attempted FROM transactions WHERE status = 'blocked'"))
                .containsExactly(cap.plus(amount).toString());
        assertThat(walletBalance(jdbi, wallet.wallet().id())).isEqualTo(Usdc.parse("200").minus(cap).micros());
        assertThat(ledger.balanceOf(PAYEE)).isEqualTo(cap.micros());
    }

    /**
     * Payments of many wallets at once, booked in batches that hold several wallets (one statement
     * locks them, one writes them): each wallet's day cap lets exactly its K through, and each
     * balance ends exact.
     */
    @Test
    void paymentsOfEightWalletsBookedTogetherKeepEachWalletsCapExact() throws Exception {
        int walletCount = 8;
        int capPayments = 10;
        int threads = 32;
        int attemptsPerThread = 6;
        Usdc amount = Usdc.parse("1.5");
        Usdc cap = Usdc.ofMicros(amount.micros() * capPayments);
        RequestLog sent = new RequestLog();
        core = PgBooks.services(new JdbiStorage(Postgres.jdbi(sent.recording(pool)), CLOCK), ledger, CLOCK, 31);
        OrgId org = PgBooks.organisation(core, "1000");
        Policy policy = PgBooks.policy(core, org, rules().maxPerDay(cap.toString()).build());
        List<FundedWallet> wallets = new ArrayList<>();
        for (int i = 0; i < walletCount; i++) {
            wallets.add(PgBooks.wallet(core, org, policy, "agent-" + i, "100"));
        }
        sent.clear();

        Race<String> race = race(threads, thread -> {
            List<String> outcomes = new ArrayList<>();
            for (int i = 0; i < attemptsPerThread; i++) {
                FundedWallet from = wallets.get((thread + i) % walletCount);
                outcomes.add(outcome(core.payments.pay(paymentFrom(from).to(PAYEE).amount(amount.toString()).build())));
            }
            return outcomes;
        });

        int attempts = threads * attemptsPerThread;
        print(walletCount + " wallets, day cap of K=" + capPayments + " payments each", race);
        assertThat(race.counts()).containsOnlyKeys("confirmed", "PolicyViolated:max_per_day")
                .containsEntry("confirmed", (long) walletCount * capPayments)
                .containsEntry("PolicyViolated:max_per_day", (long) attempts - walletCount * capPayments);
        for (FundedWallet wallet : wallets) {
            String id = wallet.wallet().id().value();
            assertThat(number(jdbi, "SELECT spend_day_micros FROM wallets WHERE id = ?", id)).isEqualTo(cap.micros());
            assertThat(number(jdbi, "SELECT count(*) FROM transactions WHERE wallet_id = ? AND type = 'payment' "
                    + "AND status = 'confirmed'", id))
                    .isEqualTo(capPayments);
            assertThat(walletBalance(jdbi, wallet.wallet().id())).isEqualTo(Usdc.parse("100").minus(cap).micros());
        }
        assertThat(ledger.balanceOf(PAYEE)).isEqualTo(cap.micros() * walletCount);
        assertThat(sent.statements()).as("payments of different wallets booked together")
                .anyMatch(sql -> sql.contains("UPDATE wallets AS t SET (label"));
    }

    @Test
    void sixteenRequestsWithOneIdempotencyKeyMakeOnePaymentAndOneDebit() throws Exception {
        int threads = 16;
        OrgId org = PgBooks.organisation(core, "1000");
        FundedWallet wallet = PgBooks.wallet(core, org, PgBooks.policy(core, org, rules().build()), "agent-1", "100");
        PayCommand command = paymentFrom(wallet).to(PAYEE).amount("7.25").memo("invoice 9")
                .idempotencyKey("invoice-9").build();

        Race<PaymentResult> race = race(threads, thread -> List.of(core.payments.pay(command).value()));

        System.out.printf("[concurrency] one idempotency key: %d requests, %d replayed, %d distinct tx, elapsed %d ms%n",
                race.results().size(), race.results().stream().filter(PaymentResult::replayed).count(),
                race.results().stream().map(r -> r.transaction().id()).distinct().count(), race.elapsed().toMillis());
        assertThat(race.results()).hasSize(threads);
        assertThat(race.results()).extracting(r -> r.transaction().id()).containsOnly(race.results().get(0).transaction().id());
        assertThat(race.results()).filteredOn(r -> !r.replayed()).hasSize(1);
        assertThat(race.results()).filteredOn(PaymentResult::replayed).hasSize(threads - 1);
        assertThat(race.results()).extracting(r -> r.transaction().status()).containsOnly(TransactionStatus.CONFIRMED);
        assertThat(walletBalance(jdbi, wallet.wallet().id())).isEqualTo(Usdc.parse("92.75").micros());
        assertThat(number(jdbi, "SELECT count(*) FROM transactions WHERE type = 'payment'")).isOne();
        assertThat(number(jdbi, "SELECT count(*) FROM idempotency_keys")).isOne();
        assertThat(number(jdbi, "SELECT count(*) FROM spend_entries")).isOne();
        assertThat(ledger.executed()).filteredOn(i -> i instanceof LedgerInstruction.Pay).hasSize(1);
        assertThat(ledger.balanceOf(PAYEE)).isEqualTo(Usdc.parse("7.25").micros());
    }

    @Test
    void sixteenFundingsWithOneRequestKeyAllocateOnceAndFifteenAreReplays() throws Exception {
        int threads = 16;
        OrgId org = PgBooks.organisation(core, "1000");
        FundedWallet wallet = PgBooks.wallet(core, org, PgBooks.policy(core, org, rules().build()), "agent-1", "0");

        Race<Boolean> race = race(threads, thread -> {
            RequestKey key = RequestKey.of(org, "allocation-3", "same request", "Idempotency-Key");
            core.wallets.fund(org, wallet.wallet().id(), Usdc.parse("12.50"), key).value();
            return List.of(key.replayed());
        });

        System.out.printf("[concurrency] one request key: %d fundings, %d replayed, elapsed %d ms%n",
                race.results().size(), race.results().stream().filter(replayed -> replayed).count(),
                race.elapsed().toMillis());
        assertThat(race.results()).filteredOn(replayed -> !replayed).hasSize(1);
        assertThat(race.results()).filteredOn(replayed -> replayed).hasSize(threads - 1);
        assertThat(walletBalance(jdbi, wallet.wallet().id())).isEqualTo(Usdc.parse("12.50").micros());
        assertThat(number(jdbi, "SELECT count(*) FROM transactions WHERE type = 'funding'")).isOne();
        assertThat(number(jdbi, "SELECT count(*) FROM request_keys WHERE subject IS NOT NULL")).isOne();
    }

    @Test
    void fundingsAndPaymentsAcrossTwentyWalletsWithAutoTopupConserveMoneyAndNeverDeadlock() throws Exception {
        int walletCount = 20;
        int threads = 32;
        int operationsPerThread = 25;
        Usdc deposit = Usdc.parse("3000");
        List<String> externals = List.of(Addresses.external("shop-1"), Addresses.external("shop-2"),
                Addresses.external("shop-3"));
        OrgId org = PgBooks.organisation(core, deposit.toString());
        Policy policy = PgBooks.policy(core, org, rules().build());
        List<FundedWallet> wallets = new ArrayList<>();
        for (int i = 0; i < walletCount; i++) {
            FundedWallet wallet = PgBooks.wallet(core, org, policy, "agent-" + i, "20");
            core.wallets.setAutoTopup(org, wallet.wallet().id(),
                    Optional.of(new AutoTopup(true, Usdc.parse("10"), Usdc.parse("15")))).value();
            wallets.add(wallet);
        }
        long fundingsBefore = number(jdbi, "SELECT count(*) FROM transactions WHERE type = 'funding'");

        Race<String> race = race(threads, thread -> {
            Random random = new Random(1000L + thread);
            List<String> outcomes = new ArrayList<>();
            for (int i = 0; i < operationsPerThread; i++) {
                int dice = random.nextInt(20);
                FundedWallet from = wallets.get(random.nextInt(walletCount));
                if (dice < 12) {
                    FundedWallet to = wallets.get(random.nextInt(walletCount));
                    String recipient = dice < 3 && to != from ? to.wallet().address().base58()
                            : externals.get(random.nextInt(externals.size()));
                    Usdc amount = Usdc.ofMicros(1_000_000 + random.nextInt(3_000_001));
                    outcomes.add("pay " + outcome(core.payments.pay(new PayCommand(org, from.wallet().id(), recipient,
                            amount, Optional.empty(), Optional.empty(), false, Optional.of(from.session()), Optional.empty()))));
                } else if (dice < 17) {
                    Usdc amount = Usdc.ofMicros(100_000 + random.nextInt(900_001));
                    outcomes.add("fund " + outcome(core.wallets.fund(org, from.wallet().id(), amount, RequestKey.none())));
                } else {
                    List<Funding> lines = new ArrayList<>();
                    for (int w : random.ints(0, walletCount).distinct().limit(3).toArray()) {
                        lines.add(new Funding(wallets.get(w).wallet().id(), Usdc.ofMicros(100_000 + random.nextInt(400_001))));
                    }
                    outcomes.add("batch " + outcome(core.wallets.fundBatch(org, lines, RequestKey.none())));
                }
            }
            return outcomes;
        });

        print("20 wallets, fundings + payments + auto-topup", race);
        assertThat(race.results()).hasSize(threads * operationsPerThread);
        assertThat(race.counts().keySet()).isSubsetOf(Set.of("pay confirmed", "pay InsufficientFunds", "fund ok",
                "fund InsufficientFunds", "batch ok", "batch InsufficientFunds"));
        assertThat(race.counts()).containsKeys("pay confirmed", "fund ok", "batch ok");
        assertThat(number(jdbi, "SELECT count(*) FROM transactions WHERE status NOT IN ('confirmed', 'blocked')"))
                .as("nothing left pending or failed").isZero();

        long orgBooks = orgBalance(jdbi, org);
        long walletsBooks = number(jdbi, "SELECT sum(balance_micros) FROM wallets WHERE org_id = ?", org.value());
        long paidOut = number(jdbi, "SELECT coalesce(sum(amount_micros), 0) FROM transactions t WHERE type = 'payment' "
                + "AND status = 'confirmed' AND NOT EXISTS (SELECT 1 FROM wallets w WHERE w.address = t.recipient)");
        long topups = number(jdbi, "SELECT count(*) FROM transactions WHERE type = 'funding'") - fundingsBefore
                - race.results().stream().filter(r -> r.equals("fund ok")).count()
                - 3 * race.results().stream().filter(r -> r.equals("batch ok")).count();
        System.out.printf("[concurrency]   org %s + wallets %s + paid out %s = %s (deposits %s); auto-topups %d, "
                        + "balance.low events %d%n", Usdc.ofMicros(orgBooks), Usdc.ofMicros(walletsBooks),
                Usdc.ofMicros(paidOut), Usdc.ofMicros(orgBooks + walletsBooks + paidOut), deposit, topups,
                events(jdbi, org, "balance.low"));
        assertThat(orgBooks + walletsBooks + paidOut).as("money conserved").isEqualTo(deposit.micros());
        assertThat(topups).as("auto-topups started by the payments").isPositive();
        assertThat(ledger.balanceOf(FakeLedger.treasury(org))).isEqualTo(orgBooks);
        for (FundedWallet wallet : wallets) {
            Wallet now = core.wallets.get(org, wallet.wallet().id()).value();
            assertThat(ledger.balanceOf(now.address().base58())).as("ledger balance of " + now.agentId())
                    .isEqualTo(now.balance().micros());
        }
        assertThat(externals.stream().mapToLong(ledger::balanceOf).sum()).isEqualTo(paidOut);
    }

    /**
     * The interleaving behind the deadlock the random mix above can hit, made exact with two hooks:
     * T1 settles a payment into wallet B and has written its {@code transaction.completed} event
     * (whose foreign key to the organisation takes a KEY SHARE lock on the organisation row) but
     * not yet credited B; T2 funds B, which locks B and then the organisation FOR UPDATE. Both must
     * finish; nothing may end in "deadlock detected".
     */
    @Test
    void aPaymentSettlingIntoAWalletAndAFundingOfThatWalletBothFinish() throws Exception {
        OrgId org = PgBooks.organisation(core, "1000");
        Policy policy = PgBooks.policy(core, org, rules().build());
        FundedWallet payer = PgBooks.wallet(core, org, policy, "payer", "50");
        FundedWallet receiver = PgBooks.wallet(core, org, policy, "receiver", "0");

        Interleaved done = settleWhileFunding(org, EventType.TRANSACTION_COMPLETED,
                paymentFrom(payer).to(receiver.wallet().address().base58()).amount("5").build(), receiver);

        assertThat(done.payment().value().transaction().status()).isEqualTo(TransactionStatus.CONFIRMED);
        assertThat(done.funding().isOk()).isTrue();
        assertThat(walletBalance(jdbi, receiver.wallet().id())).isEqualTo(Usdc.parse("15").micros());
        assertThat(walletBalance(jdbi, payer.wallet().id())).isEqualTo(Usdc.parse("45").micros());
        assertThat(orgBalance(jdbi, org)).isEqualTo(Usdc.parse("940").micros());
    }

    /**
     * The same cycle on the way back: T1 applies the ledger's refusal of a payment and has written
     * {@code transaction.failed} but not yet given the hold back to the wallet; T2 funds that wallet.
     */
    @Test
    void aRefusedPaymentGivingItsHoldBackAndAFundingOfThatWalletBothFinish() throws Exception {
        OrgId org = PgBooks.organisation(core, "1000");
        FundedWallet payer = PgBooks.wallet(core, org, PgBooks.policy(core, org, rules().build()), "payer", "50");
        ledger.rejectWhen(i -> i instanceof LedgerInstruction.Pay);

        Interleaved done = settleWhileFunding(org, EventType.TRANSACTION_FAILED,
                paymentFrom(payer).to(PAYEE).amount("5").build(), payer);

        assertThat(done.payment().value().transaction().status()).isEqualTo(TransactionStatus.FAILED);
        assertThat(done.funding().isOk()).isTrue();
        assertThat(walletBalance(jdbi, payer.wallet().id())).isEqualTo(Usdc.parse("60").micros());
        assertThat(orgBalance(jdbi, org)).isEqualTo(Usdc.parse("940").micros());
    }

    private record Interleaved(Result<PaymentResult> payment, Result<Wallet> funding) {
    }

    /**
     * T1 pays and is held inside its settlement right after writing an event of {@code pauseAfter};
     * then T2 funds {@code funded} with 10, and T1 goes on once T2 holds that wallet's row lock (or
     * after a few seconds, if T2 cannot get it because T1 already holds it).
     */
    private Interleaved settleWhileFunding(OrgId org, EventType pauseAfter, PayCommand payment, FundedWallet funded)
            throws InterruptedException {
        CountDownLatch settlerWroteItsEvent = new CountDownLatch(1);
        CountDownLatch funderLockedTheWallet = new CountDownLatch(1);
        CoreServices settler = PgBooks.services(new InterceptingStorage(storage, (store, method, args, result) -> {
            if (store.equals("outbox") && method.equals("append") && ((OutboxEvent) args[0]).event().type() == pauseAfter) {
                settlerWroteItsEvent.countDown();
                awaitQuietly(funderLockedTheWallet);
            }
        }), ledger, CLOCK, 31);
        CoreServices funder = PgBooks.services(new InterceptingStorage(storage, (store, method, args, result) -> {
            if (store.equals("wallets") && method.equals("lock") && ((Optional<?>) result).isPresent()
                    && ((Wallet) ((Optional<?>) result).get()).id().equals(funded.wallet().id())) {
                funderLockedTheWallet.countDown();
            }
        }), ledger, CLOCK, 37);
        ExecutorService executor = Executors.newFixedThreadPool(2);
        Future<Result<PaymentResult>> paying = executor.submit(() -> settler.payments.pay(payment));
        boolean paused = settlerWroteItsEvent.await(RACE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        Future<Result<Wallet>> funding = executor.submit(() -> funder.wallets.fund(org, funded.wallet().id(),
                Usdc.parse("10"), RequestKey.none()));
        executor.shutdown();
        boolean finished = executor.awaitTermination(RACE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        if (!finished) {
            executor.shutdownNow();
        }
        assertThat(paused).as("the settlement reached its %s event", pauseAfter.wireName()).isTrue();
        assertThat(finished).as("both threads finished").isTrue();
        return new Interleaved(outcomeOf(paying), outcomeOf(funding));
    }

    private static <T> T outcomeOf(Future<T> future) throws InterruptedException {
        try {
            return future.get();
        } catch (ExecutionException e) {
            throw new AssertionError("a thread failed: " + e.getCause(), e.getCause());
        }
    }

    /** Waits a few seconds at most: if the other thread cannot get there (it waits for us), go on. */
    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A use case's answer as one word: the final status of the transaction, "ok", or the refusal's kind (and rule). */
    private static String outcome(Result<?> result) {
        if (result.isOk()) {
            return result.value() instanceof PaymentResult paid
                    ? paid.transaction().status().wireName() : "ok";
        }
        Rejection rejection = result.rejection();
        String kind = rejection.getClass().getSimpleName();
        return rejection instanceof Rejection.PolicyViolated violated
                ? kind + ":" + violated.violation().rule().wireName() : kind;
    }

    private static void print(String scenario, Race<String> race) {
        System.out.printf("[concurrency] %s: %d attempts in %d ms (%.0f/s): %s%n", scenario, race.results().size(),
                race.elapsed().toMillis(), race.results().size() * 1000.0 / Math.max(1, race.elapsed().toMillis()),
                race.counts());
    }

    private record Race<T>(List<T> results, Duration elapsed) {
        Map<String, Long> counts() {
            return results.stream().collect(Collectors.groupingBy(String::valueOf, TreeMap::new, Collectors.counting()));
        }
    }

    /**
     * Runs {@code work(thread)} on {@code threads} threads released at once by a start gate, and
     * waits at most {@link #RACE_TIMEOUT_SECONDS} for all of them: a deadlock fails the test
     * instead of hanging it. An exception in any thread fails the test with its cause.
     */
    private static <T> Race<T> race(int threads, IntFunction<List<T>> work) throws InterruptedException {
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        CountDownLatch ready = new CountDownLatch(threads);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<List<T>>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            futures.add(executor.submit(() -> {
                ready.countDown();
                start.await();
                return work.apply(thread);
            }));
        }
        assertThat(ready.await(RACE_TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("all threads at the start gate").isTrue();
        long started = System.nanoTime();
        start.countDown();
        executor.shutdown();
        boolean finished = executor.awaitTermination(RACE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
        if (!finished) {
            executor.shutdownNow();
        }
        assertThat(finished).as("every thread finished within %d s (no deadlock, no starvation)", RACE_TIMEOUT_SECONDS)
                .isTrue();
        List<T> results = new ArrayList<>();
        for (Future<List<T>> future : futures) {
            try {
                results.addAll(future.get());
            } catch (ExecutionException e) {
                throw new AssertionError("a racing thread failed: " + e.getCause(), e.getCause());
            }
        }
        return new Race<>(results, elapsed);
    }
}
