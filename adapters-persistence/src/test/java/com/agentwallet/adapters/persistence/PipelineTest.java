package com.agentwallet.adapters.persistence;

import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.RandomIdGenerator;
import com.agentwallet.core.id.TxId;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.payment.IdempotencyRecord;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.payment.TransactionStatus;
import com.agentwallet.core.payment.TransactionType;
import com.agentwallet.core.policy.Policy;
import com.agentwallet.core.policy.SpendEntry;
import com.agentwallet.core.policy.SpendWindow;
import com.agentwallet.core.policy.TimeRange;
import com.agentwallet.core.port.StorageUnavailableException;
import com.agentwallet.core.port.Stores;
import com.agentwallet.core.testing.Addresses;
import com.agentwallet.core.testing.CoreServices;
import com.agentwallet.core.testing.FakeLedger;
import com.agentwallet.core.testing.MutableClock;
import com.agentwallet.core.testing.Scenario.FundedWallet;
import com.agentwallet.core.wallet.Wallet;
import com.agentwallet.core.wallet.WalletStatus;
import com.zaxxer.hikari.HikariDataSource;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.JdbiException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import static com.agentwallet.core.testing.PaymentRequest.paymentFrom;
import static com.agentwallet.core.testing.RulesBuilder.rules;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The statements of a unit of work in as few round trips as their answers allow ({@link Pipeline}):
 * writes held back travel with the next statement waited for, in order; a held write's failure
 * fails the unit of work whole; a locked idempotency key's record is read with the lock, after it.
 */
class PipelineTest {
    private static final String PAYEE = Addresses.external("pipeline-payee");
    private static final RequestLog sent = new RequestLog();
    private static final RandomIdGenerator IDS = new RandomIdGenerator(new Random(9));
    private static final TxId PIPELINED = IDS.tx();
    private static final TxId TWICE = IDS.tx();
    private static final TxId EARLIER = IDS.tx();
    private static final TxId THEIRS = IDS.tx();
    private static final TxId NEW = IDS.tx();
    private static HikariDataSource pool;
    private static Jdbi jdbi;

    private MutableClock clock;
    private JdbiStorage storage;
    private CoreServices core;
    private OrgId org;
    private Wallet wallet;

    @BeforeAll
    static void createDatabase() {
        pool = TestDatabase.fresh(3);
        jdbi = Postgres.jdbi(sent.recording(pool));
    }

    @AfterAll
    static void closeDatabase() {
        pool.close();
    }

    @BeforeEach
    void aWalletWithTen() {
        TestDatabase.truncateAll(pool);
        clock = MutableClock.atTestEpoch();
        storage = new JdbiStorage(jdbi, clock);
        core = PgBooks.services(storage, new FakeLedger(), clock, 7);
        org = PgBooks.organisation(core, "100");
        FundedWallet funded = PgBooks.wallet(core, org, PgBooks.policy(core, org, rules().build()), "agent-1", "10");
        wallet = funded.wallet();
        sent.clear();
    }

    @Test
    void heldWritesTravelWithTheNextStatementWaitedForInTheOrderMade() {
        storage.inTransaction(stores -> {
            Wallet locked = stores.wallets().lock(org, wallet.id()).orElseThrow();
            stores.wallets().update(locked.withBalance(Usdc.parse("7"), locked.updatedAt()));
            stores.transactions().insert(payment(PIPELINED));
            return stores.transactions().lock(org, PIPELINED).orElseThrow();
        });

        assertThat(sent.summary()).containsExactly(
                "SET LOCAL plan_cache_mode + SELECT wallets + SELECT policies + SELECT spend_entries",
                "UPDATE wallets + INSERT transactions + SELECT transactions",
                RequestLog.COMMIT);
        assertThat(PgBooks.walletBalance(jdbi, wallet.id())).isEqualTo(7_000_000L);
        assertThat(core.payments.get(org, PIPELINED).value().status())
                .isEqualTo(TransactionStatus.PENDING);
    }

    /**
     * A request is one round trip on the wire too, once the driver prepares its statements on the
     * server (after five executions): the wallet's lock with the read-ahead of its spends (bound by
     * times), then its update with the commit.
     */
    @Test
    void aLockAndItsReadAheadTakeOneRoundTripOnceTheDriverHasPreparedThem() {
        Runnable unitOfWork = () -> storage.inTransaction(stores -> {
            Wallet locked = stores.wallets().lock(org, wallet.id()).orElseThrow();
            stores.wallets().update(locked.withBalance(locked.balance(), locked.updatedAt()));
            return null;
        });
        for (int i = 0; i < 10; i++) {
            unitOfWork.run();
        }
        sent.clear();

        int roundTrips = RequestLog.roundTrips(unitOfWork);

        assertThat(sent.summary()).containsExactly(
                "SET LOCAL plan_cache_mode + SELECT wallets + SELECT policies + SELECT spend_entries",
                "UPDATE wallets + COMMIT");
        assertThat(roundTrips).isEqualTo(2);
    }

    /**
     * So are several transactions' outcomes applied together: their rows locked and their statuses
     * read in one statement, then the updates, one statement, with the commit.
     */
    @Test
    void outcomesStoredTogetherTakeTwoRoundTripsOnceTheDriverHasPreparedThem() {
        storage.inTransaction(stores -> {
            stores.transactions().insert(payment(EARLIER));
            stores.transactions().insert(payment(THEIRS));
            return null;
        });
        List<Transaction> outcomes = List.of(confirmed(EARLIER), confirmed(THEIRS));
        Function<Stores, List<Boolean>> applying = stores -> {
            stores.transactions().lockAll(org, List.of(EARLIER, THEIRS));
            return outcomes.stream().map(stores.transactions()::updateIfPending).toList();
        };
        Runnable unitOfWork = () -> storage.inTransaction(applying);
        assertThat(storage.inTransaction(applying)).containsExactly(true, true);
        for (int i = 0; i < 10; i++) {
            unitOfWork.run();
        }
        sent.clear();

        int roundTrips = RequestLog.roundTrips(unitOfWork);

        assertThat(sent.summary()).containsExactly("SET LOCAL plan_cache_mode + SELECT transactions", RequestLog.COMMIT);
        assertThat(roundTrips).as("the updates found nothing pending, so nothing was written").isEqualTo(2);
        assertThat(core.payments.get(org, THEIRS).value().status()).isEqualTo(TransactionStatus.CONFIRMED);
    }

    @Test
    void writesHeldAtTheEndOfTheUnitOfWorkTravelWithItsCommit() {
        storage.inTransaction(stores -> {
            Wallet locked = stores.wallets().lock(org, wallet.id()).orElseThrow();
            stores.wallets().update(locked.withBalance(Usdc.parse("6"), locked.updatedAt()));
            return null;
        });

        assertThat(sent.summary()).containsExactly("SET LOCAL plan_cache_mode + SELECT wallets + SELECT policies + SELECT spend_entries", "UPDATE wallets + COMMIT");
        assertThat(PgBooks.walletBalance(jdbi, wallet.id())).isEqualTo(6_000_000L);
    }

    /**
     * Wallets locked together are read in one statement each of wallets, policies and spends; writes
     * of one kind held back together go as one statement, and of a wallet updated twice the last
     * update counts; those of kinds on different tables go on together as one statement.
     */
    @Test
    void walletsLockedTogetherAndTheirWritesTravelAsOneStatement() {
        Wallet other = PgBooks.wallet(core, org, PgBooks.policy(core, org, rules().maxPerDay("50").build()), "agent-2",
                "10").wallet();
        sent.clear();

        storage.inTransaction(stores -> {
            stores.wallets().lockAll(org, List.of(other.id(), wallet.id()));
            Wallet first = stores.wallets().lock(org, wallet.id()).orElseThrow();
            Wallet second = stores.wallets().lock(org, other.id()).orElseThrow();
            assertThat(stores.policies().find(org, second.policyId())).isPresent();
            stores.wallets().update(first.withBalance(Usdc.parse("9"), first.updatedAt()));
            stores.transactions().insert(payment(PIPELINED));
            stores.wallets().update(second.withBalance(Usdc.parse("8"), second.updatedAt()));
            stores.transactions().insert(payment(TWICE));
            stores.wallets().update(first.withBalance(Usdc.parse("7"), first.updatedAt()));
            return null;
        });

        assertThat(sent.summary()).containsExactly("SET LOCAL plan_cache_mode + SELECT wallets + SELECT policies + SELECT spend_entries",
                "UPDATE wallets + INSERT transactions + COMMIT");
        assertThat(PgBooks.walletBalance(jdbi, wallet.id())).isEqualTo(7_000_000L);
        assertThat(PgBooks.walletBalance(jdbi, other.id())).isEqualTo(8_000_000L);
        assertThat(List.of(PIPELINED, TWICE)).allSatisfy(id -> assertThat(core.payments.get(org, id).value().amount())
                .isEqualTo(Usdc.parse("1")));
    }

    /** A statement of no kind between writes that could go together ends them: the order made is kept. */
    @Test
    void aStatementOfNoKindEndsTheWritesThatGoTogether() {
        storage.inTransaction(stores -> {
            stores.wallets().lock(org, wallet.id()).orElseThrow();
            stores.transactions().insert(payment(PIPELINED));
            stores.idempotency().delete(org, "no-such-key");
            stores.transactions().insert(payment(TWICE));
            return null;
        });

        assertThat(sent.summary()).containsExactly("SET LOCAL plan_cache_mode + SELECT wallets + SELECT policies + SELECT spend_entries",
                "INSERT transactions + DELETE idempotency_keys + INSERT transactions + COMMIT");
        assertThat(List.of(PIPELINED, TWICE)).allSatisfy(id -> assertThat(core.payments.get(org, id).isOk()).isTrue());
    }

    /**
     * Credits held back together go as one statement; a wallet's whole update ends the credits before
     * it, since they write the same table, so a credit after it is not moved ahead of it.
     */
    @Test
    void creditsGoTogetherButNotPastAWholeUpdateOfTheirTable() {
        Wallet other = PgBooks.wallet(core, org, PgBooks.policy(core, org, rules().build()), "agent-2", "10").wallet();
        sent.clear();

        storage.inTransaction(stores -> {
            Wallet locked = stores.wallets().lock(org, wallet.id()).orElseThrow();
            stores.wallets().creditByAddress(other.address().base58(), Usdc.parse("1"), now());
            stores.wallets().creditByAddress(PAYEE, Usdc.parse("1"), now());
            stores.wallets().update(locked.withBalance(Usdc.parse("50"), locked.updatedAt()));
            stores.wallets().creditByAddress(wallet.address().base58(), Usdc.parse("5"), now());
            stores.wallets().creditByAddress(other.address().base58(), Usdc.parse("2"), now());
            return null;
        });

        assertThat(sent.summary()).containsExactly("SET LOCAL plan_cache_mode + SELECT wallets + SELECT policies + SELECT spend_entries",
                "UPDATE wallets + UPDATE wallets + UPDATE wallets + COMMIT");
        assertThat(PgBooks.walletBalance(jdbi, wallet.id())).isEqualTo(55_000_000L);
        assertThat(PgBooks.walletBalance(jdbi, other.id())).isEqualTo(13_000_000L);
    }

    @Test
    void aUnitOfWorkWithNothingHeldBackCommitsAsUsual() {
        storage.inTransaction(stores -> stores.wallets().lock(org, wallet.id()));

        assertThat(sent.summary()).containsExactly("SET LOCAL plan_cache_mode + SELECT wallets + SELECT policies + SELECT spend_entries", RequestLog.COMMIT);
    }

    @Test
    void aUnitOfWorkThatFailsAfterHoldingWritesBackSendsNoneOfThem() {
        IllegalStateException fault = new IllegalStateException("a fault of the work");
        assertThatThrownBy(() -> storage.inTransaction(stores -> {
            Wallet locked = stores.wallets().lock(org, wallet.id()).orElseThrow();
            stores.wallets().update(locked.withBalance(Usdc.parse("2"), locked.updatedAt()));
            throw fault;
        })).isSameAs(fault);

        assertThat(sent.statements()).noneMatch(sql -> sql.startsWith("UPDATE"));
        assertThat(PgBooks.walletBalance(jdbi, wallet.id())).isEqualTo(10_000_000L);
    }

    @Test
    void aLockedWalletsPolicyIsReadWithTheLock() {
        Policy seen = storage.inTransaction(stores -> {
            Wallet locked = stores.wallets().lock(org, wallet.id()).orElseThrow();
            return stores.policies().find(org, locked.policyId()).orElseThrow();
        });

        assertThat(seen.id()).isEqualTo(wallet.policyId());
        assertThat(sent.summary()).containsExactly("SET LOCAL plan_cache_mode + SELECT wallets + SELECT policies + SELECT spend_entries", RequestLog.COMMIT);
    }

    /**
     * The policy is read after the wallet's lock is granted: what the holder of the lock changed in
     * it meanwhile is seen.
     */
    @Test
    void theLockedWalletsPolicyIsReadOnceTheLockIsGranted() throws Exception {
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Void> holder = CompletableFuture.runAsync(() -> storage.inTransaction(stores -> {
            Wallet locked = stores.wallets().lock(org, wallet.id()).orElseThrow();
            Policy policy = stores.policies().find(org, locked.policyId()).orElseThrow();
            stores.policies().update(new Policy(policy.id(), org, "renamed", policy.rules(), policy.version() + 1,
                    policy.createdAt(), policy.updatedAt()));
            holding.countDown();
            await(release);
            return null;
        }));
        assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<Optional<Policy>> payer = CompletableFuture.supplyAsync(() -> storage.inTransaction(stores -> {
            Wallet locked = stores.wallets().lock(org, wallet.id()).orElseThrow();
            return stores.policies().find(org, locked.policyId());
        }));
        PgBooks.await("the second request waits for the wallet's lock", Duration.ofSeconds(10), () ->
                PgBooks.number(jdbi, "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'") == 1);

        release.countDown();
        holder.get(10, TimeUnit.SECONDS);

        assertThat(payer.get(10, TimeUnit.SECONDS).map(Policy::name)).contains("renamed");
    }

    /**
     * The spends that may leave the wallet's windows are read after the lock is granted, so they
     * include the one its holder logged meanwhile, and they answer the check with no request of its
     * own; a spend logged or removed after the read is answered as it is then.
     */
    @Test
    void theSpendsThatMayLeaveAreReadOnceTheLockIsGrantedAndAnswerTheCheck() throws Exception {
        Instant now = now();
        SpendEntry old = new SpendEntry(EARLIER, now.minus(Duration.ofMinutes(90)), Usdc.parse("1"));
        SpendEntry logged = new SpendEntry(THEIRS, now.minus(Duration.ofMinutes(80)), Usdc.parse("2"));
        SpendEntry removed = new SpendEntry(TWICE, now.minus(Duration.ofMinutes(70)), Usdc.parse("3"));
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Void> holder = CompletableFuture.runAsync(() -> storage.inTransaction(stores -> {
            stores.wallets().lock(org, wallet.id()).orElseThrow();
            stores.spendLog().append(wallet.id(), old);
            holding.countDown();
            await(release);
            return null;
        }));
        assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<List<List<SpendEntry>>> payer = CompletableFuture.supplyAsync(() -> storage.inTransaction(
                stores -> {
                    Wallet locked = stores.wallets().lock(org, wallet.id()).orElseThrow();
                    List<TimeRange> leaving = List.of(new TimeRange(locked.spend().cutoff(SpendWindow.HOUR),
                            now.minus(SpendWindow.HOUR.length())));
                    List<SpendEntry> first = stores.spendLog().entriesIn(wallet.id(), leaving);
                    stores.spendLog().append(wallet.id(), logged);
                    stores.spendLog().append(wallet.id(), removed);
                    stores.spendLog().remove(wallet.id(), TWICE);
                    return List.of(first, stores.spendLog().entriesIn(wallet.id(), leaving));
                }));
        PgBooks.await("the second request waits for the wallet's lock", Duration.ofSeconds(10), () ->
                PgBooks.number(jdbi, "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'") == 1);

        release.countDown();
        holder.get(10, TimeUnit.SECONDS);

        assertThat(payer.get(10, TimeUnit.SECONDS)).containsExactly(List.of(old), List.of(old, logged));
        assertThat(sent.summary()).noneMatch(request -> request.startsWith("SELECT spend_entries"));
    }

    /** A range past what was read with the lock (asked for two days on) is read by a query of its own. */
    @Test
    void aRangePastTheSpendsReadWithTheLockIsReadByItself() {
        Instant later = clock.instant().plus(Duration.ofDays(2)).truncatedTo(ChronoUnit.MICROS);
        SpendEntry spend = new SpendEntry(EARLIER, later.minus(Duration.ofHours(2)), Usdc.parse("1"));
        storage.inTransaction(stores -> {
            stores.spendLog().append(wallet.id(), spend);
            return null;
        });
        sent.clear();

        List<SpendEntry> leaving = storage.inTransaction(stores -> {
            Wallet locked = stores.wallets().lock(org, wallet.id()).orElseThrow();
            return stores.spendLog().entriesIn(wallet.id(), List.of(new TimeRange(locked.spend().cutoff(SpendWindow.HOUR),
                    later.minus(SpendWindow.HOUR.length()))));
        });

        assertThat(leaving).containsExactly(spend);
        assertThat(sent.summary()).containsExactly("SET LOCAL plan_cache_mode + SELECT wallets + SELECT policies + SELECT spend_entries",
                "SELECT spend_entries", RequestLog.COMMIT);
    }

    @Test
    void aStatementMadeThroughJdbiSeesWhatWasHeldBeforeIt() {
        boolean usedWhileArchived = storage.inTransaction(stores -> {
            Wallet locked = stores.wallets().lock(org, wallet.id()).orElseThrow();
            stores.wallets().update(locked.withStatus(WalletStatus.ARCHIVED, locked.updatedAt()));
            return stores.wallets().anyUsesPolicy(org, locked.policyId());
        });

        assertThat(usedWhileArchived).as("the archived wallet no longer counts").isFalse();
        assertThat(sent.statements()).filteredOn(sql -> sql.startsWith("UPDATE wallets")).hasSize(1);
    }

    @Test
    void aHeldWriteThatFailsFailsTheWholeUnitOfWork() {
        assertThatThrownBy(() -> storage.inTransaction(stores -> {
            Wallet locked = stores.wallets().lock(org, wallet.id()).orElseThrow();
            stores.wallets().update(locked.withBalance(Usdc.parse("1"), locked.updatedAt()));
            stores.transactions().insert(payment(TWICE));
            stores.transactions().insert(payment(TWICE));
            return null;
        }))
                .as("a duplicate key, found when the held writes are sent")
                .isInstanceOf(JdbiException.class)
                .isNotInstanceOf(StorageUnavailableException.class)
                .hasMessageContaining("duplicate key");

        assertThat(PgBooks.walletBalance(jdbi, wallet.id())).as("the update before it is rolled back too")
                .isEqualTo(10_000_000L);
        assertThat(core.payments.get(org, TWICE).isOk()).isFalse();
    }

    @Test
    void keysLockedTogetherAreReadWithTheLockAndAnsweredFromWhatTheTransactionWrote() {
        IdempotencyRecord earlier = IdempotencyRecord.firstUse(org, "key-1", "fp", EARLIER, now());
        storage.inTransaction(stores -> {
            stores.transactions().insert(payment(EARLIER));
            stores.transactions().insert(payment(NEW));
            stores.idempotency().insert(earlier);
            return null;
        });
        sent.clear();

        List<Optional<IdempotencyRecord>> seen = storage.inTransaction(stores -> {
            stores.idempotency().lockAll(org, List.of("key-2", "key-1"));
            stores.wallets().lock(org, wallet.id());
            Optional<IdempotencyRecord> first = stores.idempotency().find(org, "key-1");
            Optional<IdempotencyRecord> second = stores.idempotency().find(org, "key-2");
            stores.idempotency().insert(IdempotencyRecord.firstUse(org, "key-2", "fp2", NEW, now()));
            stores.idempotency().delete(org, "key-1");
            return List.of(first, second, stores.idempotency().find(org, "key-1"),
                    stores.idempotency().find(org, "key-2"));
        });

        assertThat(seen.get(0)).contains(earlier);
        assertThat(seen.get(1)).isEmpty();
        assertThat(seen.get(2)).as("deleted in this transaction").isEmpty();
        assertThat(seen.get(3).map(IdempotencyRecord::txId)).as("written in this transaction")
                .contains(NEW);
        assertThat(sent.summary()).as("the locks and lookups, one statement each, with the wallet; the writes with "
                        + "the commit")
                .containsExactly("SET LOCAL plan_cache_mode + SELECT pg_advisory_xact_lock + SELECT idempotency_keys "
                                + "+ SELECT wallets + SELECT policies + SELECT spend_entries",
                        "INSERT idempotency_keys + DELETE idempotency_keys + COMMIT");
    }

    /**
     * The lookup runs after the lock is granted, with a snapshot of its own: it sees the record a
     * request holding the key committed while this one waited.
     */
    @Test
    void aLockedKeysLookupSeesWhatTheHolderBeforeItCommitted() throws Exception {
        storage.inTransaction(stores -> {
            stores.transactions().insert(payment(THEIRS));
            return null;
        });
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        IdempotencyRecord theirs = IdempotencyRecord.firstUse(org, "key-1", "fp", THEIRS, now());
        CompletableFuture<Void> holder = CompletableFuture.runAsync(() -> storage.inTransaction(stores -> {
            stores.idempotency().lock(org, "key-1");
            stores.idempotency().find(org, "key-1");
            holding.countDown();
            await(release);
            stores.idempotency().insert(theirs);
            return null;
        }));
        assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<Optional<IdempotencyRecord>> waiter = CompletableFuture.supplyAsync(() ->
                storage.inTransaction(stores -> {
                    stores.idempotency().lock(org, "key-1");
                    stores.wallets().lock(org, wallet.id());
                    return stores.idempotency().find(org, "key-1");
                }));
        PgBooks.await("the second request waits for the key's lock", Duration.ofSeconds(10), () ->
                PgBooks.number(jdbi, "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted") == 1);

        release.countDown();
        holder.get(10, TimeUnit.SECONDS);

        assertThat(waiter.get(10, TimeUnit.SECONDS)).contains(theirs);
    }

    /**
     * What one payment with an idempotency key sends PostgreSQL, request by request. Booking it: the
     * key's lock and record with the wallet's lock and its policy; the spend leaving the rolling windows
     * (the clock moved on since the wallet last paid); the writes, with the commit. Applying the
     * ledger's outcome: the transaction's lock and status, the lock of the wallet at the recipient's
     * address (in the global order, with the others a batch credits) and the claim's release; its
     * update, its event, the recipient's credit and the answer kept, with the commit. The idempotency record refers to the transaction,
     * whose insert goes first.
     */
    @Test
    void aPaymentWithAKeyIsFourRequests() {
        core = PgBooks.services(storage, new FakeLedger(), clock, 8);
        org = PgBooks.organisation(core, "100");
        FundedWallet funded = PgBooks.wallet(core, org, PgBooks.policy(core, org, rules().maxPerDay("5").build()),
                "agent-2", "10");
        clock.advance(Duration.ofMinutes(1));
        sent.clear();

        Transaction paid = core.payments.pay(paymentFrom(funded).to(PAYEE).amount("1").idempotencyKey("pay-1").build())
                .value().transaction();

        assertThat(paid.status()).isEqualTo(TransactionStatus.CONFIRMED);
        assertThat(sent.summary()).containsExactly(
                "SET LOCAL plan_cache_mode + SELECT pg_advisory_xact_lock + SELECT idempotency_keys + SELECT wallets "
                        + "+ SELECT policies + SELECT spend_entries",
                "INSERT spend_entries + UPDATE wallets + INSERT transactions + INSERT idempotency_keys "
                        + "+ INSERT outbox_events + INSERT settlement_claims + COMMIT",
                "SET LOCAL plan_cache_mode + SELECT transactions + SELECT wallets + DELETE settlement_claims",
                "UPDATE transactions + INSERT outbox_events + UPDATE wallets + UPDATE idempotency_keys + COMMIT");
    }

    private Transaction payment(TxId id) {
        return Transaction.open(id, org, wallet.id(), TransactionType.PAYMENT, TransactionStatus.PENDING,
                Usdc.parse("1"), PAYEE, now());
    }

    private Transaction confirmed(TxId id) {
        return payment(id).confirmed("signature-of-" + id.value(), 7, now());
    }

    private static Instant now() {
        return MutableClock.atTestEpoch().instant();
    }

    private static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
