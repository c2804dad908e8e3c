package com.agentwallet.adapters.persistence;

import com.agentwallet.core.auth.Requester;
import com.agentwallet.core.auth.Role;
import com.agentwallet.core.common.Page;
import com.agentwallet.core.common.PageRequest;
import com.agentwallet.core.common.Rejection;
import com.agentwallet.core.common.Result;
import com.agentwallet.core.crypto.Hashing;
import com.agentwallet.core.escrow.Escrow;
import com.agentwallet.core.escrow.EscrowStatus;
import com.agentwallet.core.escrow.LockEscrow;
import com.agentwallet.core.event.EventPublisher;
import com.agentwallet.core.export.ExportFormat;
import com.agentwallet.core.export.ExportJob;
import com.agentwallet.core.id.EventId;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.RandomIdGenerator;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.idempotency.RequestKey;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.ledger.LedgerOutcome;
import com.agentwallet.core.ledger.ProgramError;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.org.Organisation;
import com.agentwallet.core.payment.PayCommand;
import com.agentwallet.core.payment.PaymentResult;
import com.agentwallet.core.payment.Settlement;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.payment.TransactionStatus;
import com.agentwallet.core.payment.TransactionType;
import com.agentwallet.core.policy.Policy;
import com.agentwallet.core.policy.PolicyAuditEntry;
import com.agentwallet.core.policy.ViolationRule;
import com.agentwallet.core.port.ForwardingLedger;
import com.agentwallet.core.port.LedgerPort;
import com.agentwallet.core.port.PasswordHasher;
import com.agentwallet.core.port.TransactionStore;
import com.agentwallet.core.testing.Addresses;
import com.agentwallet.core.testing.CoreServices;
import com.agentwallet.core.testing.FakeLedger;
import com.agentwallet.core.testing.MutableClock;
import com.agentwallet.core.testing.Scenario.FundedWallet;
import com.agentwallet.core.testing.TestCoSigner;
import com.agentwallet.core.user.DashboardUser;
import com.agentwallet.core.user.SignedIn;
import com.agentwallet.core.user.UserService;
import com.agentwallet.core.wallet.Funding;
import com.agentwallet.core.wallet.Wallet;
import com.agentwallet.core.webhook.Webhook;
import com.agentwallet.core.webhook.WebhookStatus;
import com.zaxxer.hikari.HikariDataSource;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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

import static com.agentwallet.adapters.persistence.PgBooks.events;
import static com.agentwallet.adapters.persistence.PgBooks.number;
import static com.agentwallet.adapters.persistence.PgBooks.orgBalance;
import static com.agentwallet.adapters.persistence.PgBooks.text;
import static com.agentwallet.adapters.persistence.PgBooks.texts;
import static com.agentwallet.adapters.persistence.PgBooks.walletBalance;
import static com.agentwallet.core.testing.PatchBuilder.patch;
import static com.agentwallet.core.testing.PaymentRequest.paymentFrom;
import static com.agentwallet.core.testing.RulesBuilder.rules;
import static com.agentwallet.core.user.UserService.LOCK_AFTER_FAILURES;
import static org.assertj.core.api.Assertions.assertThat;

/** The core's use cases end to end on PostgreSQL (JdbiStorage) and the fake ledger. */
class PostgresUseCasesTest {
    private static final String PAYEE = Addresses.external("payee");
    private static final String PROOF = Hashing.sha256Hex("the finished work");
    private static final Duration CLAIM_PATIENCE = Duration.ofSeconds(30);

    private static HikariDataSource pool;
    private static Jdbi jdbi;
    private static JdbiStorage storage;

    private FakeLedger ledger;
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
        ledger = new FakeLedger();
        clock = MutableClock.atTestEpoch();
        storage = new JdbiStorage(jdbi, clock);
        core = PgBooks.services(storage, ledger, clock, 17);
    }

    private OrgId organisation(String deposit) {
        return PgBooks.organisation(core, deposit);
    }

    private FundedWallet wallet(OrgId org, Policy policy, String agentId, String funding) {
        return PgBooks.wallet(core, org, policy, agentId, funding);
    }

    private FundedWallet walletUnderNoRules(OrgId org, String agentId, String funding) {
        return wallet(org, PgBooks.policy(core, org, rules().build()), agentId, funding);
    }

    private static long micros(String usdc) {
        return Usdc.parse(usdc).micros();
    }

    private static String status(Transaction tx) {
        return text(jdbi, "SELECT status FROM transactions WHERE id = ?", tx.id().value());
    }

    @Test
    void concurrentWrongSignInsAllCountAndASessionEndsWithAPasswordChange() throws Exception {
        UserService users = new UserService(storage, new PlainHasher(), new RandomIdGenerator(new Random(5)), clock,
                UserService.DEFAULT_SESSION_LIFETIME);
        OrgId org = core.organisations.create("Acme").id();
        DashboardUser ada = users.create(org, "ada@example.com", Role.OWNER, "correct horse battery").value();
        SignedIn session = users.signIn("ada@example.com", "correct horse battery").value();
        ExecutorService threads = Executors.newFixedThreadPool(LOCK_AFTER_FAILURES);
        try {
            List<Future<Result<SignedIn>>> attempts = new ArrayList<>();
            for (int i = 0; i < LOCK_AFTER_FAILURES; i++) {
                attempts.add(threads.submit(() -> users.signIn("ada@example.com", "a wrong guess here")));
            }
            for (Future<Result<SignedIn>> attempt : attempts) {
                assertThat(attempt.get().rejection()).isInstanceOf(Rejection.SignInRefused.class);
            }
        } finally {
            threads.shutdown();
        }

        assertThat(number(jdbi, "SELECT failed_sign_ins FROM dashboard_users WHERE id = ?", ada.id().value()))
                .isEqualTo(LOCK_AFTER_FAILURES);
        assertThat(users.signIn("ada@example.com", "correct horse battery").rejection())
                .isInstanceOf(Rejection.AccountLocked.class);
        assertThat(users.authenticate(session.sessionToken())).isPresent();

        users.resetPassword("ada@example.com", "a brand new passphrase").value();

        assertThat(users.authenticate(session.sessionToken())).isEmpty();
        assertThat(number(jdbi, "SELECT count(*) FROM dashboard_sessions")).isZero();
        assertThat(users.signIn("ada@example.com", "a brand new passphrase").isOk()).isTrue();
    }

    /** A fast stand-in for the slow hash: these tests are about the books. */
    private static final class PlainHasher implements PasswordHasher {
        @Override
        public String hash(String password) {
            return Hashing.sha256Hex(password);
        }

        @Override
        public boolean matches(String password, String hash) {
            return hash(password).equals(hash);
        }
    }

    @Test
    void anOrganisationIsCreatedAndItsDepositCredited() {
        Organisation created = core.organisations.create("Acme");
        Organisation credited = core.organisations.deposit(created.id(), Usdc.parse("1000")).value();

        assertThat(credited.balance()).isEqualTo(Usdc.parse("1000"));
        assertThat(orgBalance(jdbi, created.id())).isEqualTo(micros("1000"));
        assertThat(text(jdbi, "SELECT name FROM organisations WHERE id = ?", created.id().value())).isEqualTo("Acme");
        assertThat(core.organisations.get(created.id()).value()).isEqualTo(credited);
        assertThat(events(jdbi, created.id(), "org.deposit_confirmed")).isOne();
        assertThat(ledger.balanceOf(FakeLedger.treasury(created.id()))).isEqualTo(micros("1000"));
    }

    @Test
    void aPolicyAndAWalletAreStoredAndFundingMovesMoneyFromTheOrganisation() {
        OrgId org = organisation("1000");
        Policy policy = PgBooks.policy(core, org, rules().maxPerTx("100").maxPerDay("500").build());

        FundedWallet wallet = wallet(org, policy, "agent-1", "250");

        assertThat(core.policies.get(org, policy.id()).value()).isEqualTo(policy);
        assertThat(texts(jdbi, "SELECT action FROM policy_audit WHERE policy_id = ?", policy.id().value()))
                .containsExactly("created");
        Wallet stored = core.wallets.get(org, wallet.wallet().id()).value();
        assertThat(stored.balance()).isEqualTo(Usdc.parse("250"));
        assertThat(stored.policyId()).isEqualTo(policy.id());
        assertThat(walletBalance(jdbi, stored.id())).isEqualTo(micros("250"));
        assertThat(orgBalance(jdbi, org)).isEqualTo(micros("750"));
        assertThat(number(jdbi, "SELECT count(*) FROM transactions WHERE wallet_id = ? AND type = 'funding' "
                + "AND status = 'confirmed' AND amount_micros = ?", stored.id().value(), micros("250"))).isOne();
        assertThat(events(jdbi, org, "wallet.created")).isOne();
        assertThat(events(jdbi, org, "wallet.funded")).isOne();
        assertThat(ledger.balanceOf(stored.address().base58())).isEqualTo(micros("250"));
    }

    @Test
    void aPaymentIsConfirmedAndEachPhaseWritesItsEventsInItsOwnDatabaseTransaction() {
        OrgId org = organisation("1000");
        FundedWallet wallet = walletUnderNoRules(org, "agent-1", "250");

        PaymentResult paid = core.payments.pay(paymentFrom(wallet).to(PAYEE).amount("40").memo("lunch").build()).value();

        Transaction tx = paid.transaction();
        assertThat(paid.replayed()).isFalse();
        assertThat(tx.status()).isEqualTo(TransactionStatus.CONFIRMED);
        assertThat(tx.signature()).isPresent();
        assertThat(core.payments.get(org, tx.id()).value()).isEqualTo(tx);
        assertThat(status(tx)).isEqualTo("confirmed");
        assertThat(walletBalance(jdbi, wallet.wallet().id())).isEqualTo(micros("210"));
        assertThat(ledger.balanceOf(PAYEE)).isEqualTo(micros("40"));
        assertThat(events(jdbi, "transaction.pending", "tx_id", tx.id().value())).isOne();
        assertThat(events(jdbi, "transaction.completed", "tx_id", tx.id().value())).isOne();
        // Phase one (the debit, recorded by the spend entry) and its event committed in one database
        // transaction; phase two (the confirmation) and its event in another.
        String debitTx = text(jdbi, "SELECT xmin::text FROM spend_entries WHERE tx_id = ?", tx.id().value());
        String pendingEventTx = text(jdbi, "SELECT xmin::text FROM outbox_events WHERE type = 'transaction.pending' "
                + "AND body ->> 'tx_id' = ?", tx.id().value());
        String confirmTx = text(jdbi, "SELECT xmin::text FROM transactions WHERE id = ?", tx.id().value());
        String completedEventTx = text(jdbi, "SELECT xmin::text FROM outbox_events WHERE type = 'transaction.completed' "
                + "AND body ->> 'tx_id' = ?", tx.id().value());
        assertThat(pendingEventTx).isEqualTo(debitTx);
        assertThat(completedEventTx).isEqualTo(confirmTx).isNotEqualTo(debitTx);
        assertThat(ledger.executed()).filteredOn(i -> i instanceof LedgerInstruction.Pay).hasSize(1);
    }

    @Test
    void aBlockedPaymentIsRecordedWithItsViolationAndMovesNoMoney() {
        OrgId org = organisation("1000");
        FundedWallet wallet = wallet(org, PgBooks.policy(core, org, rules().maxPerTx("100").build()), "agent-1", "250");

        Result<PaymentResult> result = core.payments.pay(paymentFrom(wallet).to(PAYEE).amount("100.01").build());

        assertThat(result.rejection()).isInstanceOfSatisfying(Rejection.PolicyViolated.class, violated -> {
            assertThat(violated.violation().rule()).isEqualTo(ViolationRule.MAX_PER_TX);
            assertThat(violated).isInstanceOf(Rejection.PolicyViolated.class);
        });
        List<Transaction> payments = core.payments.list(org, new TransactionStore.Query(Optional.of(wallet.wallet().id()),
                Optional.empty(), Optional.of(TransactionType.PAYMENT), Optional.empty(), Optional.empty()),
                PageRequest.firstDefault()).data();
        assertThat(payments).singleElement().satisfies(tx -> {
            assertThat(tx.status()).isEqualTo(TransactionStatus.BLOCKED);
            assertThat(tx.policyTriggered()).isTrue();
            assertThat(tx.violation()).hasValueSatisfying(v -> {
                assertThat(v.rule()).isEqualTo(ViolationRule.MAX_PER_TX);
                assertThat(v.limit()).isEqualTo("100.00");
                assertThat(v.attempted()).isEqualTo("100.01");
            });
            assertThat(text(jdbi, "SELECT violation_rule || '|' || violation_limit || '|' || violation_attempted "
                    + "FROM transactions WHERE id = ?", tx.id().value())).isEqualTo("max_per_tx|100.00|100.01");
            assertThat(events(jdbi, "transaction.blocked", "tx_id", tx.id().value())).isOne();
        });
        assertThat(walletBalance(jdbi, wallet.wallet().id())).isEqualTo(micros("250"));
        assertThat(number(jdbi, "SELECT count(*) FROM spend_entries")).isZero();
        assertThat(ledger.executed()).noneMatch(i -> i instanceof LedgerInstruction.Pay);
    }

    @Test
    void aPaymentAtTheThresholdWaitsForItsCoSignatureThenIsConfirmed() {
        TestCoSigner operator = new TestCoSigner(11);
        OrgId org = organisation("1000");
        FundedWallet wallet = wallet(org, PgBooks.policy(core, org, rules().coSignAtOrAbove("300", operator).build()),
                "agent-1", "500");

        Transaction held = core.payments.pay(paymentFrom(wallet).to(PAYEE).amount("300").build()).value().transaction();

        assertThat(held.status()).isEqualTo(TransactionStatus.PENDING_CO_SIGN);
        assertThat(status(held)).isEqualTo("pending_co_sign");
        assertThat(text(jdbi, "SELECT co_signer FROM transactions WHERE id = ?", held.id().value()))
                .isEqualTo(operator.publicKey());
        assertThat(walletBalance(jdbi, wallet.wallet().id())).isEqualTo(micros("200"));
        assertThat(events(jdbi, "transaction.co_sign_required", "tx_id", held.id().value())).isOne();
        assertThat(ledger.executed()).noneMatch(i -> i instanceof LedgerInstruction.Pay);

        String payload = core.payments.get(org, held.id()).value().coSign().orElseThrow().payload();
        Transaction confirmed = core.payments.coSign(org, held.id(), operator.sign(payload), TestCoSigner.APPROVER).value();

        assertThat(confirmed.status()).isEqualTo(TransactionStatus.CONFIRMED);
        assertThat(status(held)).isEqualTo("confirmed");
        assertThat(text(jdbi, "SELECT co_signature FROM transactions WHERE id = ?", held.id().value())).isNotBlank();
        assertThat(walletBalance(jdbi, wallet.wallet().id())).isEqualTo(micros("200"));
        assertThat(ledger.executed()).filteredOn(i -> i instanceof LedgerInstruction.Pay).singleElement()
                .satisfies(i -> assertThat(((LedgerInstruction.Pay) i).coSignature()).isPresent());
        assertThat(events(jdbi, "transaction.completed", "tx_id", held.id().value())).isOne();
    }

    @Test
    void aRejectedPaymentGivesItsHoldBack() {
        TestCoSigner operator = new TestCoSigner(12);
        OrgId org = organisation("1000");
        FundedWallet wallet = wallet(org, PgBooks.policy(core, org, rules().coSignAtOrAbove("300", operator)
                .maxPerDay("1000").build()), "agent-1", "500");
        Transaction held = core.payments.pay(paymentFrom(wallet).to(PAYEE).amount("350").build()).value().transaction();
        assertThat(number(jdbi, "SELECT spend_day_micros FROM wallets WHERE id = ?", wallet.wallet().id().value()))
                .isEqualTo(micros("350"));

        Transaction rejected = core.payments.reject(org, held.id(), "not approved", TestCoSigner.APPROVER).value();

        assertThat(rejected.status()).isEqualTo(TransactionStatus.REJECTED);
        assertThat(status(held)).isEqualTo("rejected");
        assertThat(walletBalance(jdbi, wallet.wallet().id())).isEqualTo(micros("500"));
        assertThat(number(jdbi, "SELECT spend_day_micros FROM wallets WHERE id = ?", wallet.wallet().id().value()))
                .isZero();
        assertThat(number(jdbi, "SELECT count(*) FROM spend_entries WHERE tx_id = ?", held.id().value())).isZero();
        assertThat(events(jdbi, "transaction.rejected", "tx_id", held.id().value())).isOne();
        assertThat(ledger.executed()).noneMatch(i -> i instanceof LedgerInstruction.Pay);
    }

    @Test
    void anEscrowLocksThenReleasesToTheReceiverOnItsProof() {
        OrgId org = organisation("1000");
        FundedWallet sender = walletUnderNoRules(org, "sender", "300");
        FundedWallet receiver = walletUnderNoRules(org, "receiver", "0");

        Escrow locked = core.escrows.lock(new LockEscrow(org, sender.wallet().id(), receiver.wallet().id().value(),
                Usdc.parse("100"), "write the report", 3600, Optional.of(PROOF), Optional.of(sender.session())), RequestKey.none()).value();

        assertThat(locked.status()).isEqualTo(EscrowStatus.LOCKED);
        assertThat(text(jdbi, "SELECT status FROM escrows WHERE id = ?", locked.id().value())).isEqualTo("locked");
        assertThat(text(jdbi, "SELECT status FROM transactions WHERE id = ?", locked.lockTx().value())).isEqualTo("confirmed");
        assertThat(walletBalance(jdbi, sender.wallet().id())).isEqualTo(micros("200"));
        assertThat(ledger.balanceOf("vault:" + locked.id().value())).isEqualTo(micros("100"));

        Escrow released = core.escrows.complete(Requester.of(org), locked.id(), "output_hash", PROOF).value();

        assertThat(released.status()).isEqualTo(EscrowStatus.RELEASED);
        assertThat(text(jdbi, "SELECT status FROM escrows WHERE id = ?", locked.id().value())).isEqualTo("released");
        assertThat(text(jdbi, "SELECT status FROM transactions WHERE id = ?", released.settleTx().orElseThrow().value()))
                .isEqualTo("confirmed");
        assertThat(walletBalance(jdbi, receiver.wallet().id())).isEqualTo(micros("100"));
        assertThat(walletBalance(jdbi, sender.wallet().id())).isEqualTo(micros("200"));
        assertThat(events(jdbi, "escrow.created", "escrow_id", locked.id().value())).isOne();
        assertThat(events(jdbi, "escrow.released", "escrow_id", locked.id().value())).isOne();
    }

    @Test
    void anEscrowIsRefundedWhenItsTimeoutPasses() {
        OrgId org = organisation("1000");
        FundedWallet sender = wallet(org, PgBooks.policy(core, org, rules().maxPerDay("500").build()), "sender", "300");
        Escrow locked = core.escrows.lock(new LockEscrow(org, sender.wallet().id(), Addresses.external("agent"),
                Usdc.parse("50"), "task", 60, Optional.empty(), Optional.of(sender.session())), RequestKey.none()).value();
        assertThat(walletBalance(jdbi, sender.wallet().id())).isEqualTo(micros("250"));

        clock.advance(Duration.ofSeconds(59));
        assertThat(core.escrows.refundTimedOut(10)).isZero();
        clock.advance(Duration.ofSeconds(1));
        int refunded = core.escrows.refundTimedOut(10);

        assertThat(refunded).isOne();
        Escrow after = core.escrows.get(Requester.of(org), locked.id()).value();
        assertThat(after.status()).isEqualTo(EscrowStatus.REFUNDED);
        assertThat(text(jdbi, "SELECT status FROM transactions WHERE id = ?", after.settleTx().orElseThrow().value()))
                .isEqualTo("confirmed");
        assertThat(walletBalance(jdbi, sender.wallet().id())).isEqualTo(micros("300"));
        assertThat(number(jdbi, "SELECT spend_day_micros FROM wallets WHERE id = ?", sender.wallet().id().value())).isZero();
        assertThat(ledger.balanceOf("vault:" + locked.id().value())).isZero();
        assertThat(events(jdbi, "escrow.refunded", "escrow_id", locked.id().value())).isOne();
    }

    @Test
    void aFundBatchIsAllOrNothing() {
        OrgId org = organisation("100");
        FundedWallet a = walletUnderNoRules(org, "agent-a", "0");
        FundedWallet b = walletUnderNoRules(org, "agent-b", "0");
        FundedWallet c = walletUnderNoRules(org, "agent-c", "0");

        Result<List<Wallet>> tooMuch = core.wallets.fundBatch(org, List.of(new Funding(a.wallet().id(), Usdc.parse("40")),
                new Funding(b.wallet().id(), Usdc.parse("40")), new Funding(c.wallet().id(), Usdc.parse("20.000001"))), RequestKey.none());
        Result<List<Wallet>> missingWallet = core.wallets.fundBatch(org, List.of(
                new Funding(a.wallet().id(), Usdc.parse("10")), new Funding(new WalletId("wal_" + "q".repeat(24)),
                        Usdc.parse("10"))), RequestKey.none());

        assertThat(tooMuch.rejection()).isInstanceOf(Rejection.InsufficientFunds.class);
        assertThat(missingWallet.rejection()).isInstanceOf(Rejection.NotFound.class);
        assertThat(orgBalance(jdbi, org)).isEqualTo(micros("100"));
        assertThat(number(jdbi, "SELECT count(*) FROM transactions WHERE type = 'funding'")).isZero();
        assertThat(number(jdbi, "SELECT coalesce(sum(balance_micros), 0) FROM wallets")).isZero();

        List<Wallet> funded = core.wallets.fundBatch(org, List.of(new Funding(a.wallet().id(), Usdc.parse("40")),
                new Funding(b.wallet().id(), Usdc.parse("40")), new Funding(c.wallet().id(), Usdc.parse("20"))), RequestKey.none()).value();

        assertThat(funded).extracting(Wallet::balance)
                .containsExactly(Usdc.parse("40"), Usdc.parse("40"), Usdc.parse("20"));
        assertThat(orgBalance(jdbi, org)).isZero();
        assertThat(number(jdbi, "SELECT count(*) FROM transactions WHERE type = 'funding' AND status = 'confirmed'"))
                .isEqualTo(3);
        assertThat(events(jdbi, org, "wallet.funded")).isEqualTo(3);
    }

    @Test
    void aPolicyUpdateWritesItsAuditEntryAndFiresPolicyUpdated() {
        OrgId org = organisation("10");
        Policy policy = PgBooks.policy(core, org, rules().maxPerTx("100").build());
        clock.advance(Duration.ofMillis(5));

        Policy updated = core.policies.update(org, policy.id(), patch().maxPerTx("150").build(), PgBooks.ADMIN).value();
        Policy unchanged = core.policies.update(org, policy.id(), patch().maxPerTx("150").build(), PgBooks.ADMIN).value();

        assertThat(updated.version()).isEqualTo(2);
        assertThat(unchanged.version()).isEqualTo(2);
        assertThat(number(jdbi, "SELECT max_per_tx FROM policies WHERE id = ?", policy.id().value())).isEqualTo(micros("150"));
        assertThat(texts(jdbi, "SELECT action || ' v' || version || ' by ' || actor FROM policy_audit WHERE policy_id = ? "
                + "ORDER BY version", policy.id().value())).containsExactly("created v1 by key_admin", "updated v2 by key_admin");
        assertThat(texts(jdbi, "SELECT c ->> 'field' || ': ' || (c ->> 'old') || ' -> ' || (c ->> 'new') "
                + "FROM policy_audit, jsonb_array_elements(changes) AS c WHERE policy_id = ? AND version = 2",
                policy.id().value())).containsExactly("max_per_tx: 100.00 -> 150.00");
        List<PolicyAuditEntry> log = core.policies.auditLog(org, policy.id(), PageRequest.firstDefault()).value().data();
        assertThat(log).extracting(PolicyAuditEntry::action)
                .containsExactly(PolicyAuditEntry.Action.UPDATED, PolicyAuditEntry.Action.CREATED);
        assertThat(events(jdbi, org, "policy.updated")).isOne();
        assertThat(text(jdbi, "SELECT xmin::text FROM outbox_events WHERE type = 'policy.updated'"))
                .isEqualTo(text(jdbi, "SELECT xmin::text FROM policy_audit WHERE policy_id = ? AND version = 2",
                        policy.id().value()));
    }

    @Test
    void aReplayWithTheSameIdempotencyKeyAnswersTheSamePaymentAndDebitsOnce() {
        OrgId org = organisation("1000");
        FundedWallet wallet = walletUnderNoRules(org, "agent-1", "100");
        PayCommand command = paymentFrom(wallet).to(PAYEE).amount("30").idempotencyKey("order-17").build();

        PaymentResult first = core.payments.pay(command).value();
        clock.advance(Duration.ofMinutes(5));
        PaymentResult second = core.payments.pay(command).value();
        Result<PaymentResult> otherBody = core.payments.pay(
                paymentFrom(wallet).to(PAYEE).amount("31").idempotencyKey("order-17").build());

        assertThat(first.replayed()).isFalse();
        assertThat(second.replayed()).isTrue();
        assertThat(second.transaction().id()).isEqualTo(first.transaction().id());
        assertThat(second.transaction().status()).isEqualTo(TransactionStatus.CONFIRMED);
        assertThat(otherBody.rejection()).isInstanceOf(Rejection.IdempotencyConflict.class);
        assertThat(walletBalance(jdbi, wallet.wallet().id())).isEqualTo(micros("70"));
        assertThat(number(jdbi, "SELECT count(*) FROM transactions WHERE type = 'payment'")).isOne();
        assertThat(number(jdbi, "SELECT count(*) FROM idempotency_keys WHERE org_id = ?", org.value())).isOne();
        assertThat(ledger.executed()).filteredOn(i -> i instanceof LedgerInstruction.Pay).hasSize(1);
    }

    @Test
    void theHistoryIsListedPageByPageNewestFirstWithoutGapsOrRepeats() {
        OrgId org = organisation("1000");
        FundedWallet wallet = walletUnderNoRules(org, "agent-1", "100");
        FundedWallet other = walletUnderNoRules(org, "agent-2", "100");
        for (int i = 0; i < 11; i++) {
            if (i % 4 != 0) {
                clock.advance(Duration.ofMillis(1)); // some payments share a created_at: the id breaks the tie
            }
            core.payments.pay(paymentFrom(wallet).to(PAYEE).amount("1." + i).build()).value();
        }
        core.payments.pay(paymentFrom(other).to(PAYEE).amount("2").build()).value();
        TransactionStore.Query paymentsOfWallet = new TransactionStore.Query(Optional.of(wallet.wallet().id()),
                Optional.empty(), Optional.of(TransactionType.PAYMENT), Optional.empty(), Optional.empty());

        List<String> listed = new ArrayList<>();
        List<Integer> pageSizes = new ArrayList<>();
        PageRequest request = PageRequest.first(4);
        while (true) {
            Page<Transaction> page = core.payments.list(org, paymentsOfWallet, request);
            page.data().forEach(tx -> listed.add(tx.id().value()));
            pageSizes.add(page.data().size());
            if (!page.hasMore()) {
                break;
            }
            request = new PageRequest(4, page.nextCursor());
        }

        assertThat(pageSizes).containsExactly(4, 4, 3);
        assertThat(new HashSet<>(listed)).hasSize(11);
        assertThat(listed).isEqualTo(texts(jdbi, "SELECT id FROM transactions WHERE wallet_id = ? AND type = 'payment' "
                + "ORDER BY created_at DESC, id DESC", wallet.wallet().id().value()));
        assertThat(core.payments.list(org, TransactionStore.Query.ALL, PageRequest.first(100)).data())
                .hasSize(11 + 1 + 2); // the payments of both wallets and their two fundings
    }
    @Test
    void aReplayAnswersThePaymentAsTheAnswerKeptInTheDatabaseHasIt() {
        OrgId org = organisation("1000");
        FundedWallet wallet = walletUnderNoRules(org, "agent-1", "250");
        PayCommand command = paymentFrom(wallet).to(PAYEE).amount("40").idempotencyKey("order-1").build();
        PaymentResult first = core.payments.pay(command).value();

        PaymentResult replay = core.payments.pay(command).value();

        assertThat(replay.replayed()).isTrue();
        assertThat(replay.transaction()).isEqualTo(first.transaction());
        assertThat(texts(jdbi, "SELECT answer_status FROM idempotency_keys WHERE org_id = ? AND key = 'order-1'",
                org.value())).containsExactly("confirmed");
        assertThat(walletBalance(jdbi, wallet.wallet().id())).isEqualTo(micros("210"));
    }

    @Test
    void aWebhookIsStoredChangedTestedAndSoftDeleted() {
        OrgId org = organisation("1");
        Webhook webhook = core.webhooks.create(org, "https://hooks.example.com/in", List.of("transaction.completed"), RequestKey.none()).value();
        Webhook changed = core.webhooks.update(org, webhook.id(), Optional.empty(), Optional.of(List.of("*")),
                Optional.of(WebhookStatus.ACTIVE)).value();

        EventId ping = core.webhooks.test(org, webhook.id()).value();
        core.webhooks.delete(org, webhook.id()).value();

        assertThat(changed.subscription().all()).isTrue();
        assertThat(text(jdbi, "SELECT type FROM outbox_events WHERE id = ?", ping.value())).isEqualTo("ping");
        assertThat(text(jdbi, "SELECT body ->> 'webhook_id' FROM outbox_events WHERE id = ?", ping.value()))
                .isEqualTo(webhook.id().value());
        assertThat(core.webhooks.get(org, webhook.id()).rejection()).isInstanceOf(Rejection.NotFound.class);
        assertThat(number(jdbi, "SELECT count(*) FROM webhooks WHERE id = ? AND deleted_at = ?", webhook.id().value(),
                Rows.timestamp(clock.instant()))).isOne();
    }

    @Test
    void anExportIsRequestedAndRead() {
        OrgId org = organisation("1");
        FundedWallet wallet = walletUnderNoRules(org, "agent-1", "0");

        ExportJob job = core.exports.request(org, ExportFormat.JSON, Optional.of(wallet.wallet().id()),
                Optional.of(clock.instant().minusSeconds(60)), Optional.empty(), RequestKey.none()).value();

        assertThat(core.exports.get(org, job.id()).value()).isEqualTo(job);
        assertThat(text(jdbi, "SELECT status || ' ' || format FROM export_jobs WHERE id = ?", job.id().value()))
                .isEqualTo("pending json");
    }

    /*
     * Two server processes settling over one database: each its own storage and Settlement over the
     * same database and ledger. Their claims keep them from settling one transaction at once, and a
     * claim left by a process that died lapses for the other to finish.
     */
    @Test
    void twoProcessesRecoveringTheSamePaymentsSubmitEachOnceAndSettleThemAll() throws Exception {
        List<Transaction> pending = pendingPayments(6);
        GatedLedger gated = new GatedLedger(ledger, instruction -> ledger.submit(instruction));
        Settlement first = process(gated, 1);
        Settlement second = process(gated, 2);

        ExecutorService processes = Executors.newFixedThreadPool(2);
        try {
            List<Future<Integer>> recoveries = List.of(
                    processes.submit(() -> first.recover(Duration.ZERO, 100)),
                    processes.submit(() -> second.recover(Duration.ZERO, 100)));
            assertThat(gated.entered.tryAcquire(2, CLAIM_PATIENCE.toSeconds(), TimeUnit.SECONDS))
                    .as("each process is in a submission at once").isTrue();
            assertThat(gated.submissions).as("of two different payments").hasSize(2);
            assertThat(number(jdbi, "SELECT count(*) FROM settlement_claims")).as("each claimed by its process")
                    .isEqualTo(2);
            gated.gate.countDown();
            for (Future<Integer> recovery : recoveries) {
                assertThat(recovery.get(CLAIM_PATIENCE.toSeconds(), TimeUnit.SECONDS)).isEqualTo(pending.size());
            }
        } finally {
            processes.shutdownNow();
        }

        assertThat(gated.submissions.keySet()).as("none lost")
                .containsExactlyInAnyOrderElementsOf(pending.stream().map(tx -> tx.id().value()).toList());
        assertThat(gated.submissions.values()).as("each submitted once").allSatisfy(count ->
                assertThat(count.get()).isEqualTo(1));
        assertThat(texts(jdbi, "SELECT DISTINCT status FROM transactions WHERE type = 'payment'"))
                .containsExactly("confirmed");
        assertThat(ledger.balanceOf(PAYEE)).isEqualTo(Usdc.parse("6").micros());
        assertThat(number(jdbi, "SELECT count(*) FROM settlement_claims")).as("every claim ended").isZero();
    }

    @Test
    void aProcessThatDiesMidSettlementLeavesItToAnotherOnceItsClaimLapsesAndAppliesNothingAfter() throws Exception {
        Transaction payment = pendingPayments(1).get(0);
        // The dying process never reaches the chain; when it wakes, long after, it hears a refusal.
        GatedLedger dying = new GatedLedger(ledger,
                instruction -> ProgramError.INSUFFICIENT_FUNDS.rejected("a stale refusal"));
        GatedLedger living = new GatedLedger(ledger, instruction -> ledger.submit(instruction));
        living.gate.countDown();
        Settlement first = process(dying, 1);
        Settlement second = process(living, 2);

        ExecutorService processes = Executors.newSingleThreadExecutor();
        try {
            Future<Transaction> stalled = processes.submit(() -> first.settle(payment.orgId(), payment.id()));
            assertThat(dying.entered.tryAcquire(CLAIM_PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();

            assertThat(second.recover(Duration.ZERO, 10)).isEqualTo(1);
            assertThat(living.submissions).as("not while the first process's claim runs").isEmpty();

            clock.advance(Settlement.LEASE.plusSeconds(1));
            second.recover(Duration.ZERO, 10);
            assertThat(living.submissions.get(payment.id().value())).hasValue(1);
            assertThat(status(payment)).isEqualTo("confirmed");

            dying.gate.countDown();
            assertThat(stalled.get(CLAIM_PATIENCE.toSeconds(), TimeUnit.SECONDS).status().wireName())
                    .as("the refusal heard too late is not applied").isEqualTo("confirmed");
        } finally {
            processes.shutdownNow();
        }
        assertThat(status(payment)).isEqualTo("confirmed");
        assertThat(ledger.executed().stream().filter(i -> i.operationId().equals(payment.id().value())))
                .as("paid once").hasSize(1);
        assertThat(ledger.balanceOf(PAYEE)).isEqualTo(Usdc.parse("1").micros());
        assertThat(core.wallets.get(payment.orgId(), payment.walletId()).value().balance())
                .isEqualTo(Usdc.parse("99"));
        assertThat(number(jdbi, "SELECT count(*) FROM settlement_claims")).isZero();
    }

    /** Payments of one USDC each, left pending by a ledger that did not answer. */
    private List<Transaction> pendingPayments(int count) {
        OrgId org = organisation("1000");
        FundedWallet wallet = walletUnderNoRules(org, "agent-1", "100");
        ledger.leaveUnansweredWhen(instruction -> instruction instanceof LedgerInstruction.Pay);
        List<Transaction> pending = IntStream.range(0, count).mapToObj(i -> core.payments
                .pay(paymentFrom(wallet).to(PAYEE).amount("1").build()).value().transaction()).toList();
        ledger.behaveNormally();
        assertThat(pending).allSatisfy(tx -> assertThat(status(tx)).isEqualTo("pending"));
        return pending;
    }

    /** A server process of its own: its own storage and settlement, over the same database. */
    private Settlement process(LedgerPort reached, long seed) {
        return new Settlement(new JdbiStorage(jdbi, clock), reached,
                new EventPublisher(new RandomIdGenerator(new Random(seed)), clock), clock, "server-" + seed);
    }

    /**
     * The ledger as a process reaches it: counts each operation's submissions, and holds each at a
     * gate until the test opens it, then answers with {@code answer}.
     */
    private static final class GatedLedger extends ForwardingLedger {
        final Map<String, AtomicInteger> submissions = new ConcurrentHashMap<>();
        final Semaphore entered = new Semaphore(0);
        final CountDownLatch gate = new CountDownLatch(1);
        private final Function<LedgerInstruction, LedgerOutcome> answer;

        GatedLedger(LedgerPort chain, Function<LedgerInstruction, LedgerOutcome> answer) {
            super(chain);
            this.answer = answer;
        }

        @Override
        public LedgerOutcome submit(LedgerInstruction instruction) {
            submissions.computeIfAbsent(instruction.operationId(), id -> new AtomicInteger()).incrementAndGet();
            entered.release();
            try {
                if (!gate.await(CLAIM_PATIENCE.toSeconds(), TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the gate never opened");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            return answer.apply(instruction);
        }
    }
}
