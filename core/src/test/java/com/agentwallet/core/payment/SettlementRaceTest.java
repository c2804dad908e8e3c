package com.agentwallet.core.payment;

import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.RandomIdGenerator;
import com.agentwallet.core.id.TxId;
import com.agentwallet.core.ledger.LedgerAccount;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.ledger.LedgerOutcome;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.policy.PolicyRules;
import com.agentwallet.core.port.ForwardingLedger;
import com.agentwallet.core.testing.Addresses;
import com.agentwallet.core.testing.CoreFixture;
import com.agentwallet.core.testing.FakeLedger;
import com.agentwallet.core.testing.PaymentRequest;
import com.agentwallet.core.testing.Scenario.FundedWallet;
import com.agentwallet.core.testing.Scenario;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import static com.agentwallet.core.testing.PaymentRequest.paymentFrom;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two settlements of one pending payment at once (a replay of its idempotency key racing the first
 * request, or the recovery job racing either), on a ledger that refuses one submission and executes
 * the next, as the simulator's injected faults do. The books must end as the ledger did: a payment
 * the books fail and give back was never paid.
 */
class SettlementRaceTest {
    private static final String PAYEE = Addresses.external("payee");
    /** How long the refused submission waits for a rival submission, which is blocked when settlements take turns. */
    private static final Duration RIVAL_PATIENCE = Duration.ofSeconds(1);

    private final RacingLedger ledger = new RacingLedger();
    private final CoreFixture core = CoreFixture.on(clock -> ledger, 61);
    private final Scenario given = new Scenario(core);
    private final OrgId org = given.organisation("1000");
    private final FundedWallet wallet = given.wallet(org, given.policy(org, PolicyRules.NONE), "agent-1", "100");

    @Test
    void aRefusalAppliedWhileARivalSubmissionOfTheSamePaymentLandsCannotHappen() throws Exception {
        ledger.chain.leaveUnansweredWhen(instruction -> instruction instanceof LedgerInstruction.Pay);
        Transaction pending = given.pay(wallet, PAYEE, "30").value().transaction();
        assertThat(pending.status()).isEqualTo(TransactionStatus.PENDING);
        ledger.chain.behaveNormally();
        ledger.race(() -> core.payments.get(org, pending.id()).value().status() != TransactionStatus.PENDING);

        ExecutorService settlers = Executors.newFixedThreadPool(2);
        try {
            List<Future<Transaction>> both = List.of(
                    settlers.submit(() -> core.settlement.settle(org, pending.id())),
                    settlers.submit(() -> core.settlement.settle(org, pending.id())));
            for (Future<Transaction> settled : both) {
                settled.get(30, TimeUnit.SECONDS);
            }
        } finally {
            settlers.shutdownNow();
        }

        Transaction after = core.payments.get(org, pending.id()).value();
        boolean paidOnTheLedger = ledger.chain.executed().stream()
                .anyMatch(instruction -> instruction.operationId().equals(pending.id().value()));
        assertThat(after.status()).as("the first submission's refusal decides").isEqualTo(TransactionStatus.FAILED);
        assertThat(paidOnTheLedger).as("a payment the books failed was never paid").isFalse();
        assertThat(ledger.chain.balanceOf(PAYEE)).isZero();
        assertThat(core.wallets.get(org, wallet.wallet().id()).value().balance())
                .as("the hold went back, and the ledger agrees").isEqualTo(Usdc.parse("100"))
                .isEqualTo(ledger.balance(new LedgerAccount.Wallet(wallet.wallet().address())));
    }

    @Test
    void aReplayArrivingWhileTheFirstRequestSettlesWaitsForItsOutcome() throws Exception {
        PaymentRequest request = paymentFrom(wallet).to(PAYEE).amount("30").idempotencyKey("key-1");
        // Racing from the first submission on; a rival would come after the debit, so the hold back means refused.
        ledger.race(() -> core.wallets.get(org, wallet.wallet().id()).value().balance().equals(Usdc.parse("100")));

        ExecutorService requests = Executors.newFixedThreadPool(2);
        try {
            Future<PaymentResult> first = requests.submit(() -> core.payments.pay(request.build()).value());
            ledger.firstSubmission.await(30, TimeUnit.SECONDS);
            Future<PaymentResult> replay = requests.submit(() -> core.payments.pay(request.build()).value());

            Transaction paid = first.get(30, TimeUnit.SECONDS).transaction();
            PaymentResult replayed = replay.get(30, TimeUnit.SECONDS);
            assertThat(paid.status()).as("the refusal of its only submission decides").isEqualTo(TransactionStatus.FAILED);
            assertThat(replayed.replayed()).isTrue();
            assertThat(replayed.transaction()).isEqualTo(paid);
        } finally {
            requests.shutdownNow();
        }
        assertThat(ledger.payments.get()).as("the replay never submitted the payment again").isEqualTo(1);
        assertThat(ledger.chain.balanceOf(PAYEE)).isZero();
        assertThat(core.wallets.get(org, wallet.wallet().id()).value().balance()).isEqualTo(Usdc.parse("100"));
    }

    @Test
    void settlementsOfDifferentTransactionsNeverWaitForEachOther() throws Exception {
        RandomIdGenerator ids = new RandomIdGenerator(new Random(61));
        TxId held = ids.tx();
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService callers = Executors.newFixedThreadPool(2);
        try {
            Future<Boolean> holder = callers.submit(() -> core.settlement.holding(held, () -> {
                holding.countDown();
                return awaitQuietly(release);
            }));
            assertThat(holding.await(30, TimeUnit.SECONDS)).isTrue();
            // Enough ids that a lock shared by a fraction of them (a stripe of 1,024) would be met.
            Future<Integer> others = callers.submit(() -> {
                int settled = 0;
                for (int i = 0; i < 20_000; i++) {
                    settled += core.settlement.holding(ids.tx(), () -> 1);
                }
                return settled;
            });
            assertThat(others.get(30, TimeUnit.SECONDS)).as("none waited for the held transaction").isEqualTo(20_000);
            assertThat(holder.isDone()).as("the held one is still held").isFalse();
            release.countDown();
            assertThat(holder.get(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            release.countDown();
            callers.shutdownNow();
        }
    }

    private static boolean awaitQuietly(CountDownLatch latch) {
        try {
            return latch.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * The fake ledger, but once racing, payments are answered so as to interleave the worst way: the
     * first submission waits (a bounded time) for a rival, then is refused without executing; the
     * rival executes and answers only once the refusal was applied to the books.
     */
    private static final class RacingLedger extends ForwardingLedger {
        final FakeLedger chain;
        final AtomicInteger payments = new AtomicInteger();
        private final CountDownLatch rivalArrived = new CountDownLatch(1);
        /** Counted down when the first payment reaches the ledger once racing. */
        final CountDownLatch firstSubmission = new CountDownLatch(1);
        private volatile BooleanSupplier refusalApplied;

        RacingLedger() {
            this(new FakeLedger());
        }

        private RacingLedger(FakeLedger chain) {
            super(chain);
            this.chain = chain;
        }

        void race(BooleanSupplier refusalApplied) {
            this.refusalApplied = refusalApplied;
        }

        @Override
        public LedgerOutcome submit(LedgerInstruction instruction) {
            if (refusalApplied == null || !(instruction instanceof LedgerInstruction.Pay)) {
                return chain.submit(instruction);
            }
            if (payments.incrementAndGet() == 1) {
                firstSubmission.countDown();
                awaitTheRival();
                return new LedgerOutcome.Rejected("ledger_unavailable", "refused before reaching the chain");
            }
            rivalArrived.countDown();
            LedgerOutcome executed = chain.submit(instruction);
            await(refusalApplied);
            return executed;
        }

        /** Waits a bounded time for a rival submission; with settlements taking turns none comes. */
        private void awaitTheRival() {
            try {
                rivalArrived.await(RIVAL_PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private static void await(BooleanSupplier condition) {
            long deadline = System.nanoTime() + RIVAL_PATIENCE.toNanos();
            while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }
}
