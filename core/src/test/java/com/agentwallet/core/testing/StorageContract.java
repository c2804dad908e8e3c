package com.agentwallet.core.testing;

import com.agentwallet.core.alert.AlertingEvent;
import com.agentwallet.core.auth.ApiKey;
import com.agentwallet.core.auth.Requester;
import com.agentwallet.core.auth.Role;
import com.agentwallet.core.common.Actor;
import com.agentwallet.core.common.Page;
import com.agentwallet.core.common.PageRequest;
import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.escrow.Dispute;
import com.agentwallet.core.escrow.Escrow;
import com.agentwallet.core.escrow.EscrowStatus;
import com.agentwallet.core.event.DomainEvent;
import com.agentwallet.core.event.EventType;
import com.agentwallet.core.event.OutboxEvent;
import com.agentwallet.core.export.ExportFormat;
import com.agentwallet.core.export.ExportJob;
import com.agentwallet.core.id.ApiKeyId;
import com.agentwallet.core.id.EscrowId;
import com.agentwallet.core.id.EventId;
import com.agentwallet.core.id.IdGenerator;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.PolicyId;
import com.agentwallet.core.id.RandomIdGenerator;
import com.agentwallet.core.id.TxId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.idempotency.KeyedRequest;
import com.agentwallet.core.ledger.LedgerAddress;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.org.Organisation;
import com.agentwallet.core.payment.CoSign;
import com.agentwallet.core.payment.IdempotencyRecord;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.payment.TransactionStatus;
import com.agentwallet.core.payment.TransactionType;
import com.agentwallet.core.policy.FieldChange;
import com.agentwallet.core.policy.Policy;
import com.agentwallet.core.policy.PolicyAuditEntry;
import com.agentwallet.core.policy.PolicyRules;
import com.agentwallet.core.policy.SpendEntry;
import com.agentwallet.core.policy.SpendSummary;
import com.agentwallet.core.policy.TimeRange;
import com.agentwallet.core.policy.Violation;
import com.agentwallet.core.policy.ViolationRule;
import com.agentwallet.core.port.ExportStore;
import com.agentwallet.core.port.Claim;
import com.agentwallet.core.port.EscrowStore;
import com.agentwallet.core.port.Storage;
import com.agentwallet.core.port.Stores;
import com.agentwallet.core.port.TransactionStore;
import com.agentwallet.core.port.WalletStore;
import com.agentwallet.core.user.DashboardSession;
import com.agentwallet.core.user.DashboardUser;
import com.agentwallet.core.user.UserId;
import com.agentwallet.core.wallet.AutoTopup;
import com.agentwallet.core.wallet.Wallet;
import com.agentwallet.core.wallet.WalletStatus;
import com.agentwallet.core.webhook.DeliveryAttempt;
import com.agentwallet.core.webhook.Subscription;
import com.agentwallet.core.webhook.UnfannedEvent;
import com.agentwallet.core.webhook.Webhook;
import com.agentwallet.core.webhook.WebhookStatus;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The contract of the storage port ({@code com.agentwallet.core.port}): what every adapter of
 * {@link Storage} must do, as the port interfaces' javadoc promises it. An adapter's test extends
 * this class and implements {@link #newStorage()}; the in-memory stores and the PostgreSQL adapter
 * run the same suite.
 *
 * <p>Only promised behaviour is checked. Where a port leaves something open (the order of
 * {@code pendingSince}, {@code entriesIn} and {@code blockingAny}, which
 * rows a {@code limit} keeps when more qualify, the tie order of equal timestamps, what an
 * update of a missing row does), the suite checks only what holds under any choice. Writes and the
 * reads that check them run in separate transactions, so every check also covers the commit.
 * Times are whole milliseconds (a database keeps microseconds), and parent rows are written before
 * the rows that refer to them, in the order the use cases write them.
 */
public abstract class StorageContract {
    protected static final Instant T0 = Instant.parse("2026-04-01T12:00:00Z");
    protected static final String RECIPIENT = "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV";
    private static final String HASH_A = "a".repeat(64);
    private static final String HASH_B = "b".repeat(64);

    /** A storage holding no rows: each test starts from empty books (a fresh schema or truncated tables). */
    protected abstract Storage newStorage();

    private Storage storage;
    private IdGenerator ids;
    private Random addressBytes;

    @BeforeEach
    void openEmptyStorage() {
        storage = newStorage();
        ids = new RandomIdGenerator(new Random(20_260_401L));
        addressBytes = new Random(7L);
    }

    /** The storage under test, for subclasses' own checks. */
    protected final Storage storage() {
        return storage;
    }

    // ---------------------------------------------------------------- transactions of the storage

    @Test
    void aTransactionReturnsWhatItsWorkReturnsAndCommitsIt() {
        Organisation org = new Organisation(ids.org(), "Acme", Usdc.parse("10.00"), T0);

        OrgId returned = storage.inTransaction(s -> {
            s.organisations().insert(org);
            return org.id();
        });

        assertThat(returned).isEqualTo(org.id());
        assertThat(txOptional(s -> s.organisations().find(org.id()))).contains(org);
    }

    @Test
    void aTransactionWhoseWorkThrowsLeavesNothingBehind() {
        Organisation org = givenOrg();
        Policy kept = givenPolicy(org.id(), PolicyRules.NONE, T0);
        Policy toDelete = givenPolicy(org.id(), PolicyRules.NONE, T0.plusSeconds(1));
        Wallet wallet = givenWallet(org.id(), kept.id(), "agent-1", WalletStatus.ACTIVE, List.of(), T0);
        Transaction paid = givenTx(wallet, TransactionType.PAYMENT, TransactionStatus.PENDING, T0);
        SpendEntry paidSpend = paid.spendEntry();
        write(s -> s.spendLog().append(wallet.id(), paidSpend));
        Escrow escrow = givenEscrow(wallet, EscrowStatus.LOCKED, T0.plusSeconds(600), T0);
        IdempotencyRecord usedKey = IdempotencyRecord.firstUse(org.id(), "key-1", "fp-1", paid.id(), T0);
        write(s -> s.idempotency().insert(usedKey));
        write(s -> s.recipientCategories().put(org.id(), RECIPIENT, "food"));
        Webhook webhook = givenWebhook(org.id(), T0);
        Webhook webhookToDelete = givenWebhook(org.id(), T0);
        EventId ping = givenEvent(new DomainEvent.Ping(org.id(), webhook.id(), T0));
        ExportJob export = givenExport(org.id(), T0);

        Organisation otherOrg = new Organisation(ids.org(), "Other", Usdc.parse("5.00"), T0);
        Policy newPolicy = newPolicy(org.id(), PolicyRules.NONE, T0.plusSeconds(2));
        Wallet newWallet = newWallet(org.id(), kept.id(), "agent-2", WalletStatus.ACTIVE, List.of(), T0);
        Transaction newTx = newTx(wallet, TransactionType.PAYMENT, TransactionStatus.PENDING, T0.plusSeconds(5));
        Escrow newEscrow = newEscrow(wallet, ids.escrow(), newTx.id(), EscrowStatus.LOCKED, T0.plusSeconds(900), T0);
        Webhook newWebhook = newWebhook(org.id(), T0);
        ExportJob newExport = newExport(org.id(), T0);
        RuntimeException failure = new IllegalStateException("the ledger did not answer");

        assertThatThrownBy(() -> storage.inTransaction(s -> {
            s.organisations().insert(otherOrg);
            s.organisations().update(org.withBalance(Usdc.parse("1.00")));
            s.policies().insert(newPolicy);
            s.policies().update(withName(kept, "Renamed", T0.plusSeconds(9)));
            s.policies().delete(org.id(), toDelete.id());
            s.policyAudit().append(auditEntry(kept, 2, T0.plusSeconds(9)));
            s.wallets().insertIfAbsent(newWallet);
            s.wallets().update(wallet.withBalance(Usdc.parse("0.01"), T0.plusSeconds(9)));
            s.transactions().insert(newTx);
            s.transactions().update(paid.withStatus(TransactionStatus.CONFIRMED, T0.plusSeconds(9)));
            s.spendLog().append(wallet.id(), newTx.spendEntry());
            s.spendLog().remove(wallet.id(), paid.id());
            s.escrows().insert(newEscrow);
            s.escrows().update(withStatus(escrow, EscrowStatus.RELEASED, T0.plusSeconds(9)));
            s.recipientCategories().put(org.id(), RECIPIENT, "gambling");
            s.recipientCategories().put(org.id(), "other-recipient", "gambling");
            s.idempotency().insert(IdempotencyRecord.firstUse(org.id(), "key-2", "fp-2", newTx.id(), T0));
            s.idempotency().keepAnswer(org.id(), "key-1", IdempotencyRecord.Answer.of(paid));
            s.webhooks().insert(newWebhook);
            s.webhooks().update(webhook.withStatus(WebhookStatus.DEGRADED, T0.plusSeconds(9)));
            s.webhooks().delete(org.id(), webhookToDelete.id(), T0.plusSeconds(9));
            s.webhooks().insertAttempt(new DeliveryAttempt(ping, EventType.PING, webhook.id(), 1, Optional.of(200),
                    Optional.empty(), 3, T0.plusSeconds(9), Optional.empty()));
            s.exports().insert(newExport);
            s.exports().update(export.failed(T0.plusSeconds(9)));
            throw failure;
        })).isSameAs(failure);

        storage.inTransaction(s -> {
            assertThat(s.organisations().find(otherOrg.id())).isEmpty();
            assertThat(s.organisations().find(org.id())).contains(org);
            assertThat(s.policies().find(org.id(), newPolicy.id())).isEmpty();
            assertThat(s.policies().find(org.id(), kept.id())).contains(kept);
            assertThat(s.policies().find(org.id(), toDelete.id())).contains(toDelete);
            assertThat(s.policyAudit().list(org.id(), kept.id(), PageRequest.first(10)).data()).isEmpty();
            assertThat(s.wallets().find(org.id(), newWallet.id())).isEmpty();
            assertThat(s.wallets().find(org.id(), wallet.id())).contains(wallet);
            assertThat(s.transactions().find(org.id(), newTx.id())).isEmpty();
            assertThat(s.transactions().find(org.id(), paid.id())).contains(paid);
            assertThat(s.spendLog().entriesIn(wallet.id(), List.of(new TimeRange(T0.minusSeconds(1), T0.plusSeconds(60)))))
                    .containsExactly(paidSpend);
            assertThat(s.escrows().find(org.id(), newEscrow.id())).isEmpty();
            assertThat(s.escrows().find(org.id(), escrow.id())).contains(escrow);
            assertThat(s.recipientCategories().categoryOf(org.id(), RECIPIENT)).contains("food");
            assertThat(s.recipientCategories().categoryOf(org.id(), "other-recipient")).isEmpty();
            assertThat(s.idempotency().find(org.id(), "key-2")).isEmpty();
            assertThat(s.idempotency().find(org.id(), "key-1")).contains(usedKey);
            assertThat(s.webhooks().find(org.id(), newWebhook.id())).isEmpty();
            assertThat(s.webhooks().find(org.id(), webhook.id())).contains(webhook);
            assertThat(s.webhooks().find(org.id(), webhookToDelete.id())).contains(webhookToDelete);
            assertThat(s.webhooks().attempts(org.id(), webhook.id(), PageRequest.first(10)).data()).isEmpty();
            assertThat(s.exports().find(org.id(), newExport.id())).isEmpty();
            assertThat(s.exports().find(org.id(), export.id())).contains(export);
            return null;
        });
    }

    // ---------------------------------------------------------------- organisations

    @Test
    void theAdminSequenceIncreasesAcrossTransactionsAndNeverGivesANumberTwiceEvenAfterARollback() {
        long first = storage.inTransaction(s -> s.adminSequence().next());
        long second = storage.inTransaction(s -> s.adminSequence().next());
        long[] rolledBack = new long[1];
        assertThatThrownBy(() -> storage.inTransaction(s -> {
            rolledBack[0] = s.adminSequence().next();
            throw new IllegalStateException("the change fails");
        })).isInstanceOf(IllegalStateException.class);
        long after = storage.inTransaction(s -> s.adminSequence().next());

        assertThat(second).isGreaterThan(first);
        assertThat(rolledBack[0]).isGreaterThan(second);
        assertThat(after).isGreaterThan(rolledBack[0]);
    }

    @Test
    void organisationsAreInsertedFoundLockedAndUpdated() {
        Organisation org = givenOrg();
        Organisation other = givenOrg();

        assertThat(txOptional(s -> s.organisations().find(org.id()))).contains(org);
        assertThat(txOptional(s -> s.organisations().lock(org.id()))).contains(org);
        assertThat(txOptional(s -> s.organisations().find(ids.org()))).isEmpty();
        assertThat(txOptional(s -> s.organisations().lock(ids.org()))).isEmpty();

        Organisation credited = org.withBalance(Usdc.parse("1234.567891"));
        write(s -> s.organisations().update(credited));

        assertThat(txOptional(s -> s.organisations().find(org.id()))).contains(credited);
        assertThat(txOptional(s -> s.organisations().find(other.id()))).contains(other);
    }

    // ---------------------------------------------------------------- wallets

    @Test
    void aWalletKeepsEveryField() {
        Organisation org = givenOrg();
        Policy policy = givenPolicy(org.id(), PolicyRules.NONE, T0);
        SpendSummary spend = new SpendSummary(Usdc.parse("12.345678"), Usdc.parse("99.99"), 7,
                T0.minus(Duration.ofHours(24)), T0.minus(Duration.ofDays(30)), T0.minus(Duration.ofHours(1)));
        Wallet wallet = new Wallet(ids.wallet(), org.id(), "agent:7@acme.example", "Research agent", policy.id(),
                List.of("team-a", "prod"), WalletStatus.FROZEN, nextAddress(), Usdc.parse("250.000001"), spend, 3,
                Optional.of(new AutoTopup(true, Usdc.parse("10"), Usdc.parse("50.5"))), T0, T0.plusMillis(1500));

        assertThat(txBoolean(s -> s.wallets().insertIfAbsent(wallet))).isTrue();

        assertThat(txOptional(s -> s.wallets().find(org.id(), wallet.id()))).contains(wallet);
    }

    @Test
    void insertIfAbsentRefusesASecondWalletForTheSameAgentInTheOrganisation() {
        Organisation org = givenOrg();
        Organisation otherOrg = givenOrg();
        Policy policy = givenPolicy(org.id(), PolicyRules.NONE, T0);
        Policy otherPolicy = givenPolicy(otherOrg.id(), PolicyRules.NONE, T0);
        Wallet first = givenWallet(org.id(), policy.id(), "agent-1", WalletStatus.ACTIVE, List.of(), T0);
        Wallet duplicate = newWallet(org.id(), policy.id(), "agent-1", WalletStatus.ACTIVE, List.of("x"), T0.plusSeconds(1));
        Wallet sameAgentElsewhere = newWallet(otherOrg.id(), otherPolicy.id(), "agent-1", WalletStatus.ACTIVE, List.of(),
                T0.plusSeconds(2));

        assertThat(txBoolean(s -> s.wallets().insertIfAbsent(duplicate))).isFalse();
        assertThat(txBoolean(s -> s.wallets().insertIfAbsent(sameAgentElsewhere))).isTrue();

        assertThat(txOptional(s -> s.wallets().find(org.id(), duplicate.id()))).isEmpty();
        assertThat(txOptional(s -> s.wallets().findAnyOrg(duplicate.id()))).isEmpty();
        assertThat(txOptional(s -> s.wallets().find(org.id(), first.id()))).contains(first);
        assertThat(txOptional(s -> s.wallets().find(otherOrg.id(), sameAgentElsewhere.id()))).contains(sameAgentElsewhere);
        assertThat(txList(s -> s.wallets().list(org.id(), WalletStore.Query.ALL, PageRequest.first(10)).data()))
                .containsExactly(first);
    }

    @Test
    void findAndLockOfAWalletAreScopedToItsOrganisation() {
        Organisation org = givenOrg();
        Organisation otherOrg = givenOrg();
        Policy policy = givenPolicy(org.id(), PolicyRules.NONE, T0);
        Wallet wallet = givenWallet(org.id(), policy.id(), "agent-1", WalletStatus.ACTIVE, List.of(), T0);

        assertThat(txOptional(s -> s.wallets().find(org.id(), wallet.id()))).contains(wallet);
        assertThat(txOptional(s -> s.wallets().lock(org.id(), wallet.id()))).contains(wallet);
        assertThat(txOptional(s -> s.wallets().find(otherOrg.id(), wallet.id()))).isEmpty();
        assertThat(txOptional(s -> s.wallets().lock(otherOrg.id(), wallet.id()))).isEmpty();
        assertThat(txOptional(s -> s.wallets().find(org.id(), ids.wallet()))).isEmpty();
    }

    @Test
    void findAnyOrgAndCreditByAddressReachWalletsOfEveryOrganisation() {
        Organisation org = givenOrg();
        Organisation otherOrg = givenOrg();
        Wallet mine = givenWallet(org.id(), givenPolicy(org.id(), PolicyRules.NONE, T0).id(), "agent-1",
                WalletStatus.ACTIVE, List.of(), T0);
        Wallet theirs = givenWallet(otherOrg.id(), givenPolicy(otherOrg.id(), PolicyRules.NONE, T0).id(), "agent-2",
                WalletStatus.FROZEN, List.of(), T0);

        assertThat(txOptional(s -> s.wallets().findAnyOrg(theirs.id()))).contains(theirs);
        assertThat(txOptional(s -> s.wallets().findAnyOrg(mine.id()))).contains(mine);
        assertThat(txOptional(s -> s.wallets().findAnyOrg(ids.wallet()))).isEmpty();

        Instant credited = T0.plusSeconds(60);
        storage.inTransaction(s -> {
            s.wallets().creditByAddress(theirs.address().base58(), Usdc.parse("2.5"), credited);
            s.wallets().creditByAddress(nextAddress().base58(), Usdc.parse("7"), credited);
            return null;
        });
        assertThat(txOptional(s -> s.wallets().findAnyOrg(theirs.id())))
                .contains(theirs.withBalance(theirs.balance().plus(Usdc.parse("2.5")), credited));
        assertThat(txOptional(s -> s.wallets().findAnyOrg(mine.id()))).contains(mine);
    }

    @Test
    void aCreditByAddressIsSeenByTheTransactionThatLockedTheWalletBefore() {
        Organisation org = givenOrg();
        Wallet wallet = givenWalletOfOrg(org);
        Instant credited = T0.plusSeconds(60);

        Wallet relocked = storage.inTransaction(s -> {
            s.wallets().lock(org.id(), wallet.id()).orElseThrow();
            s.wallets().creditByAddress(wallet.address().base58(), Usdc.parse("1"), credited);
            return s.wallets().lock(org.id(), wallet.id()).orElseThrow();
        });

        assertThat(relocked.balance()).isEqualTo(wallet.balance().plus(Usdc.parse("1")));
        assertThat(relocked.updatedAt()).isEqualTo(credited);
    }

    @Test
    void aWalletUpdateIsKept() {
        Organisation org = givenOrg();
        Policy policy = givenPolicy(org.id(), PolicyRules.NONE, T0);
        Policy nextPolicy = givenPolicy(org.id(), PolicyRules.NONE, T0.plusSeconds(1));
        Wallet wallet = givenWallet(org.id(), policy.id(), "agent-1", WalletStatus.ACTIVE, List.of("a"), T0);
        Instant later = T0.plusSeconds(30);
        Wallet changed = wallet.withBalance(Usdc.parse("77.7"), later)
                .withSpend(SpendSummary.EMPTY.advanceTo(later, List.of())
                        .plus(new SpendEntry(ids.tx(), later, Usdc.parse("3"))))
                .withStatus(WalletStatus.FROZEN, later)
                .withDetails("New label", nextPolicy.id(), later)
                .withAutoTopup(Optional.of(new AutoTopup(false, Usdc.parse("1"), Usdc.parse("2"))), later)
                .withNextSessionVersion(later);

        write(s -> s.wallets().update(changed));

        assertThat(txOptional(s -> s.wallets().find(org.id(), wallet.id()))).contains(changed);
    }

    @Test
    void walletListsFilterByStatusAndByAllOfTheTags() {
        Organisation org = givenOrg();
        Organisation otherOrg = givenOrg();
        PolicyId policy = givenPolicy(org.id(), PolicyRules.NONE, T0).id();
        Wallet activeAb = givenWallet(org.id(), policy, "w1", WalletStatus.ACTIVE, List.of("a", "b"), T0.plusSeconds(1));
        Wallet frozenA = givenWallet(org.id(), policy, "w2", WalletStatus.FROZEN, List.of("a"), T0.plusSeconds(2));
        Wallet archivedB = givenWallet(org.id(), policy, "w3", WalletStatus.ARCHIVED, List.of("b"), T0.plusSeconds(3));
        Wallet activeNone = givenWallet(org.id(), policy, "w4", WalletStatus.ACTIVE, List.of(), T0.plusSeconds(4));
        givenWallet(otherOrg.id(), givenPolicy(otherOrg.id(), PolicyRules.NONE, T0).id(), "w5", WalletStatus.ACTIVE,
                List.of("a", "b"), T0.plusSeconds(5));

        assertThat(wallets(org.id(), Optional.empty(), List.of())).containsExactly(activeNone, archivedB, frozenA, activeAb);
        assertThat(wallets(org.id(), Optional.of(WalletStatus.ACTIVE), List.of())).containsExactly(activeNone, activeAb);
        assertThat(wallets(org.id(), Optional.of(WalletStatus.ARCHIVED), List.of())).containsExactly(archivedB);
        assertThat(wallets(org.id(), Optional.empty(), List.of("a"))).containsExactly(frozenA, activeAb);
        assertThat(wallets(org.id(), Optional.empty(), List.of("b", "a"))).containsExactly(activeAb);
        assertThat(wallets(org.id(), Optional.of(WalletStatus.ACTIVE), List.of("b"))).containsExactly(activeAb);
        assertThat(wallets(org.id(), Optional.of(WalletStatus.FROZEN), List.of("b"))).isEmpty();
        assertThat(wallets(org.id(), Optional.empty(), List.of("c"))).isEmpty();
    }

    @Test
    void walletListsPageNewestFirstWithACursor() {
        Organisation org = givenOrg();
        PolicyId policy = givenPolicy(org.id(), PolicyRules.NONE, T0).id();
        List<Wallet> newestFirst = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            newestFirst.add(0, givenWallet(org.id(), policy, "agent-" + i, WalletStatus.ACTIVE, List.of(),
                    T0.plusSeconds(i)));
        }

        Page<Wallet> first = read(s -> s.wallets().list(org.id(), WalletStore.Query.ALL, PageRequest.first(2)));
        assertThat(first.data()).containsExactlyElementsOf(newestFirst.subList(0, 2));
        assertThat(first.hasMore()).isTrue();
        Page<Wallet> second = read(s -> s.wallets().list(org.id(), WalletStore.Query.ALL,
                new PageRequest(2, first.nextCursor())));
        assertThat(second.data()).containsExactlyElementsOf(newestFirst.subList(2, 4));
        assertThat(second.hasMore()).isTrue();
        Page<Wallet> last = read(s -> s.wallets().list(org.id(), WalletStore.Query.ALL,
                new PageRequest(2, second.nextCursor())));
        assertThat(last.data()).containsExactlyElementsOf(newestFirst.subList(4, 5));
        assertThat(last.hasMore()).isFalse();

        Page<Wallet> exact = read(s -> s.wallets().list(org.id(), WalletStore.Query.ALL, PageRequest.first(5)));
        assertThat(exact.data()).containsExactlyElementsOf(newestFirst);
        assertThat(exact.hasMore()).isFalse();
        Page<Wallet> none = read(s -> s.wallets().list(givenOrg().id(), WalletStore.Query.ALL, PageRequest.first(5)));
        assertThat(none.data()).isEmpty();
        assertThat(none.hasMore()).isFalse();
    }

    @Test
    void theNextPageContinuesAfterTheCursorEvenWhenItsItemWasDeleted() {
        Organisation org = givenOrg();
        List<Policy> newestFirst = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            newestFirst.add(0, givenPolicy(org.id(), PolicyRules.NONE, T0.plusSeconds(i)));
        }
        Page<Policy> first = read(s -> s.policies().list(org.id(), PageRequest.first(2)));
        write(s -> s.policies().delete(org.id(), newestFirst.get(1).id()));

        Page<Policy> second = read(s -> s.policies().list(org.id(), new PageRequest(2, first.nextCursor())));

        assertThat(second.data()).containsExactlyElementsOf(newestFirst.subList(2, 4));
    }

    @Test
    void aCursorThatIsNotOneOfOursIsAValidationError() {
        Organisation org = givenOrg();

        assertThatThrownBy(() -> read(s -> s.policies().list(org.id(), new PageRequest(2, Optional.of("not-a-cursor")))))
                .isInstanceOf(ValidationException.class);
    }

    @Test
    void apiKeysAreFoundByTheirHashAndLockedOnlyThroughTheirOrganisation() {
        Organisation org = givenOrg();
        Organisation other = givenOrg();
        ApiKey key = new ApiKey(ids.next(ApiKeyId.PREFIX, ApiKeyId::new), org.id(), Role.ADMIN, "hash-1", T0,
                Optional.empty());
        write(s -> s.apiKeys().insert(key));

        assertThat(txOptional(s -> s.apiKeys().findByHash("hash-1"))).contains(key);
        assertThat(txOptional(s -> s.apiKeys().findByHash("hash-2"))).isEmpty();
        assertThat(txOptional(s -> s.apiKeys().lock(org.id(), key.id()))).contains(key);
        assertThat(txOptional(s -> s.apiKeys().lock(other.id(), key.id()))).isEmpty();
    }

    @Test
    void aRevokedApiKeyIsKeptAsRevokedAndKeysListOldestFirst() {
        Organisation org = givenOrg();
        ApiKey older = new ApiKey(ids.next(ApiKeyId.PREFIX, ApiKeyId::new), org.id(), Role.VIEWER, "hash-a", T0,
                Optional.empty());
        ApiKey newer = new ApiKey(ids.next(ApiKeyId.PREFIX, ApiKeyId::new), org.id(), Role.OWNER, "hash-b",
                T0.plusSeconds(1), Optional.empty());
        write(s -> s.apiKeys().insert(newer));
        write(s -> s.apiKeys().insert(older));
        ApiKey revoked = older.revokedAt(T0.plusSeconds(5));
        write(s -> s.apiKeys().update(revoked));

        assertThat(txList(s -> s.apiKeys().list(org.id()))).containsExactly(revoked, newer);
        assertThat(txList(s -> s.apiKeys().list(givenOrg().id()))).isEmpty();
    }

    @Test
    void anApiKeysLastUseOnlyMovesForwardAndARevocationLeavesIt() {
        Organisation org = givenOrg();
        ApiKey key = new ApiKey(ids.next(ApiKeyId.PREFIX, ApiKeyId::new), org.id(), Role.ADMIN, "hash-u", T0,
                Optional.empty());
        write(s -> s.apiKeys().insert(key));

        write(s -> s.apiKeys().recordUse(Map.of(key.id(), T0.plusSeconds(60),
                new ApiKeyId(ApiKeyId.PREFIX + "0".repeat(24)), T0)));
        write(s -> s.apiKeys().recordUse(Map.of(key.id(), T0.plusSeconds(30))));
        write(s -> s.apiKeys().update(key.revokedAt(T0.plusSeconds(90))));

        assertThat(txOptional(s -> s.apiKeys().findByHash("hash-u")))
                .contains(new ApiKey(key.id(), org.id(), Role.ADMIN, "hash-u", T0, Optional.of(T0.plusSeconds(90)),
                        Optional.of(T0.plusSeconds(60))));
    }

    @Test
    void twoApiKeysCannotShareAHash() {
        Organisation org = givenOrg();
        write(s -> s.apiKeys().insert(new ApiKey(ids.next(ApiKeyId.PREFIX, ApiKeyId::new), org.id(), Role.ADMIN,
                "same", T0, Optional.empty())));

        assertThatThrownBy(() -> write(s -> s.apiKeys().insert(new ApiKey(ids.next(ApiKeyId.PREFIX, ApiKeyId::new),
                org.id(), Role.VIEWER, "same", T0, Optional.empty()))))
                .isInstanceOf(RuntimeException.class);
    }

    @Test
    void organisationsListOldestFirst() {
        Organisation older = new Organisation(ids.org(), "Older", Usdc.ZERO, T0);
        Organisation newer = new Organisation(ids.org(), "Newer", Usdc.ZERO, T0.plusSeconds(1));
        write(s -> s.organisations().insert(newer));
        write(s -> s.organisations().insert(older));

        assertThat(txList(s -> s.organisations().list())).containsExactly(older, newer);
    }

    @Test
    void walletPagesVisitEveryWalletOnceWhenCreationTimesTie() {
        Organisation org = givenOrg();
        PolicyId policy = givenPolicy(org.id(), PolicyRules.NONE, T0).id();
        Set<WalletId> created = new HashSet<>();
        for (int i = 0; i < 5; i++) {
            created.add(givenWallet(org.id(), policy, "agent-" + i, WalletStatus.ACTIVE, List.of(), T0).id());
        }

        List<Wallet> visited = allPages(request -> read(s -> s.wallets().list(org.id(), WalletStore.Query.ALL, request)), 2);

        assertThat(visited).extracting(Wallet::id).containsExactlyInAnyOrderElementsOf(created);
    }

    @Test
    void anyUsesPolicyIgnoresArchivedWallets() {
        Organisation org = givenOrg();
        Policy used = givenPolicy(org.id(), PolicyRules.NONE, T0);
        Policy unused = givenPolicy(org.id(), PolicyRules.NONE, T0);
        Wallet wallet = givenWallet(org.id(), used.id(), "agent-1", WalletStatus.ACTIVE, List.of(), T0);

        assertThat(txBoolean(s -> s.wallets().anyUsesPolicy(org.id(), used.id()))).isTrue();
        assertThat(txBoolean(s -> s.wallets().anyUsesPolicy(org.id(), unused.id()))).isFalse();

        Wallet frozen = wallet.withStatus(WalletStatus.FROZEN, T0.plusSeconds(1));
        write(s -> s.wallets().update(frozen));
        assertThat(txBoolean(s -> s.wallets().anyUsesPolicy(org.id(), used.id()))).isTrue();

        write(s -> s.wallets().update(frozen.withStatus(WalletStatus.ARCHIVED, T0.plusSeconds(2))));
        assertThat(txBoolean(s -> s.wallets().anyUsesPolicy(org.id(), used.id()))).isFalse();
    }

    @Test
    void claimActiveWithPolicyExpiredTakesActiveWalletsOfEveryOrganisationOldestExpiryFirst() {
        Instant now = T0.plus(Duration.ofDays(1));
        Organisation org = givenOrg();
        Organisation otherOrg = givenOrg();
        Policy expiredFirst = givenPolicy(org.id(), expiringAt(now.minus(Duration.ofHours(3))), T0);
        Policy expiredThird = givenPolicy(org.id(), expiringAt(now.minus(Duration.ofHours(1))), T0);
        Policy expiringNow = givenPolicy(org.id(), expiringAt(now), T0);
        Policy expiringLater = givenPolicy(org.id(), expiringAt(now.plusSeconds(1)), T0);
        Policy neverExpiring = givenPolicy(org.id(), PolicyRules.NONE, T0);
        Policy otherExpiredSecond = givenPolicy(otherOrg.id(), expiringAt(now.minus(Duration.ofHours(2))), T0);

        Wallet third = givenWallet(org.id(), expiredThird.id(), "a1", WalletStatus.ACTIVE, List.of(), T0);
        Wallet first = givenWallet(org.id(), expiredFirst.id(), "a2", WalletStatus.ACTIVE, List.of(), T0);
        Wallet fourth = givenWallet(org.id(), expiringNow.id(), "a3", WalletStatus.ACTIVE, List.of(), T0);
        givenWallet(org.id(), expiredFirst.id(), "frozen", WalletStatus.FROZEN, List.of(), T0);
        givenWallet(org.id(), expiredFirst.id(), "archived", WalletStatus.ARCHIVED, List.of(), T0);
        givenWallet(org.id(), expiringLater.id(), "later", WalletStatus.ACTIVE, List.of(), T0);
        givenWallet(org.id(), neverExpiring.id(), "never", WalletStatus.ACTIVE, List.of(), T0);
        Wallet second = givenWallet(otherOrg.id(), otherExpiredSecond.id(), "b1", WalletStatus.ACTIVE, List.of(), T0);

        assertThat(txOptional(s -> s.wallets().claimActiveWithPolicyExpired(now.minus(Duration.ofDays(2))))).isEmpty();
        assertThat(claimAll(s -> s.wallets().claimActiveWithPolicyExpired(now),
                (s, w) -> s.wallets().update(w.withStatus(WalletStatus.FROZEN, now))))
                .containsExactly(first, second, third, fourth);
    }

    // ---------------------------------------------------------------- policies and their audit log

    @Test
    void aPolicyKeepsEveryRule() {
        Organisation org = givenOrg();
        PolicyRules rules = new PolicyRules(Optional.of(Usdc.parse("100")), Optional.of(Usdc.parse("500.25")),
                Optional.of(Usdc.parse("10000.000001")), Optional.of(42), List.of(RECIPIENT, "wal_recipient-b", "c"),
                Set.of("gambling", "adult.content"), Optional.of(T0.plus(Duration.ofDays(90))),
                Optional.of(Usdc.parse("50")), Optional.of(new TestCoSigner(1).publicKey()));
        Policy policy = new Policy(ids.policy(), org.id(), "Everything set", rules, 4, T0, T0.plusMillis(2500));

        write(s -> s.policies().insert(policy));

        assertThat(txOptional(s -> s.policies().find(org.id(), policy.id()))).contains(policy);
    }

    @Test
    void findLockAndUpdateOfAPolicyAreScopedToItsOrganisation() {
        Organisation org = givenOrg();
        Organisation otherOrg = givenOrg();
        Policy policy = givenPolicy(org.id(), PolicyRules.NONE, T0);

        assertThat(txOptional(s -> s.policies().find(org.id(), policy.id()))).contains(policy);
        assertThat(txOptional(s -> s.policies().lock(org.id(), policy.id()))).contains(policy);
        assertThat(txOptional(s -> s.policies().find(otherOrg.id(), policy.id()))).isEmpty();
        assertThat(txOptional(s -> s.policies().lock(otherOrg.id(), policy.id()))).isEmpty();
        assertThat(txOptional(s -> s.policies().find(org.id(), ids.policy()))).isEmpty();

        Policy renamed = new Policy(policy.id(), org.id(), "Renamed", expiringAt(T0.plusSeconds(60)),
                policy.version() + 1, policy.createdAt(), T0.plusSeconds(5));
        write(s -> s.policies().update(renamed));
        assertThat(txOptional(s -> s.policies().find(org.id(), policy.id()))).contains(renamed);
    }

    @Test
    void aPolicyIsDeletedOnlyThroughItsOwnOrganisation() {
        Organisation org = givenOrg();
        Organisation otherOrg = givenOrg();
        Policy doomed = givenPolicy(org.id(), PolicyRules.NONE, T0);
        Policy kept = givenPolicy(org.id(), PolicyRules.NONE, T0.plusSeconds(1));

        write(s -> s.policies().delete(otherOrg.id(), doomed.id()));
        assertThat(txOptional(s -> s.policies().find(org.id(), doomed.id()))).contains(doomed);

        write(s -> s.policies().delete(org.id(), doomed.id()));
        assertThat(txOptional(s -> s.policies().find(org.id(), doomed.id()))).isEmpty();
        assertThat(txOptional(s -> s.policies().find(org.id(), kept.id()))).contains(kept);
        assertThat(txList(s -> s.policies().list(org.id(), PageRequest.first(10)).data())).containsExactly(kept);
    }

    @Test
    void policyListsAreTheOrganisationsPoliciesNewestFirstInPages() {
        Organisation org = givenOrg();
        Organisation otherOrg = givenOrg();
        List<Policy> newestFirst = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            newestFirst.add(0, givenPolicy(org.id(), PolicyRules.NONE, T0.plusSeconds(i)));
            givenPolicy(otherOrg.id(), PolicyRules.NONE, T0.plusSeconds(i));
        }

        Page<Policy> first = read(s -> s.policies().list(org.id(), PageRequest.first(3)));
        assertThat(first.data()).containsExactlyElementsOf(newestFirst.subList(0, 3));
        assertThat(first.hasMore()).isTrue();
        Page<Policy> second = read(s -> s.policies().list(org.id(), new PageRequest(3, first.nextCursor())));
        assertThat(second.data()).containsExactlyElementsOf(newestFirst.subList(3, 5));
        assertThat(second.hasMore()).isFalse();
    }

    @Test
    void blockingAnyFindsTheOrganisationsPoliciesThatBlockAnyOfTheCategories() {
        Organisation org = givenOrg();
        Organisation otherOrg = givenOrg();
        Policy gamblingAndAdult = givenPolicy(org.id(), blocking("gambling", "adult"), T0);
        Policy crypto = givenPolicy(org.id(), blocking("crypto"), T0.plusSeconds(1));
        givenPolicy(org.id(), PolicyRules.NONE, T0.plusSeconds(2));
        givenPolicy(otherOrg.id(), blocking("gambling"), T0);

        assertThat(txList(s -> s.policies().blockingAny(org.id(), Set.of("gambling")))).containsExactly(gamblingAndAdult);
        assertThat(txList(s -> s.policies().blockingAny(org.id(), Set.of("adult", "crypto", "food"))))
                .containsExactlyInAnyOrder(gamblingAndAdult, crypto);
        assertThat(txList(s -> s.policies().blockingAny(org.id(), Set.of("food")))).isEmpty();
        assertThat(txList(s -> s.policies().blockingAny(org.id(), Set.of()))).isEmpty();
    }

    @Test
    void theAuditLogListsAPolicysHistoryNewestFirstInPages() {
        Organisation org = givenOrg();
        Organisation otherOrg = givenOrg();
        Policy policy = givenPolicy(org.id(), PolicyRules.NONE, T0);
        Policy otherPolicy = givenPolicy(org.id(), PolicyRules.NONE, T0);
        PolicyAuditEntry created = new PolicyAuditEntry(policy.id(), org.id(), 1, PolicyAuditEntry.Action.CREATED,
                new Actor("key_admin"), T0, List.of(new FieldChange("name", null, "Policy"),
                new FieldChange("max_per_tx", null, "100.00")));
        PolicyAuditEntry updated = new PolicyAuditEntry(policy.id(), org.id(), 2, PolicyAuditEntry.Action.UPDATED,
                Actor.SYSTEM, T0.plusSeconds(60), List.of(new FieldChange("max_per_tx", "100.00", "50.00")));
        PolicyAuditEntry deleted = new PolicyAuditEntry(policy.id(), org.id(), 3, PolicyAuditEntry.Action.DELETED,
                new Actor("key_admin"), T0.plusSeconds(120), List.of());
        write(s -> s.policyAudit().append(created));
        write(s -> s.policyAudit().append(auditEntry(otherPolicy, 1, T0.plusSeconds(90))));
        write(s -> {
            s.policyAudit().append(updated);
            s.policyAudit().append(deleted);
        });

        Page<PolicyAuditEntry> first = read(s -> s.policyAudit().list(org.id(), policy.id(), PageRequest.first(2)));
        assertThat(first.data()).containsExactly(deleted, updated);
        assertThat(first.hasMore()).isTrue();
        Page<PolicyAuditEntry> second = read(s -> s.policyAudit().list(org.id(), policy.id(),
                new PageRequest(2, first.nextCursor())));
        assertThat(second.data()).containsExactly(created);
        assertThat(second.hasMore()).isFalse();
        assertThat(txList(s -> s.policyAudit().list(otherOrg.id(), policy.id(), PageRequest.first(10)).data())).isEmpty();
    }

    // ---------------------------------------------------------------- transactions

    @Test
    void aTransactionKeepsEveryField() {
        Organisation org = givenOrg();
        Wallet wallet = givenWalletOfOrg(org);
        Transaction full = new Transaction(ids.tx(), org.id(), wallet.id(), TransactionType.PAYMENT,
                TransactionStatus.FAILED, Usdc.parse("12.000001"), RECIPIENT, Optional.of("invoice 42 – ünïcödé"), true,
                Optional.empty(), Optional.of("5" + "x".repeat(86)), Optional.of(123_456_789L),
                Optional.of(new CoSign(new TestCoSigner(2).publicKey(), "cGF5bG9hZA==", T0.plusSeconds(300),
                        Optional.of("sig"), Optional.of(TestCoSigner.APPROVER))),
                Optional.empty(), Optional.of("program error 0x1"), T0, T0.plusMillis(1250));
        Transaction blocked = Transaction.open(ids.tx(), org.id(), wallet.id(), TransactionType.PAYMENT,
                TransactionStatus.PENDING, Usdc.parse("1000"), RECIPIENT, T0.plusSeconds(1))
                .blockedBy(new Violation(ViolationRule.MAX_PER_TX, "100.00", "1000.00"));

        write(s -> {
            s.transactions().insert(full);
            s.transactions().insert(blocked);
        });

        assertThat(txOptional(s -> s.transactions().find(org.id(), full.id()))).contains(full);
        assertThat(txOptional(s -> s.transactions().find(org.id(), blocked.id()))).contains(blocked);
    }

    @Test
    void findLockAndUpdateOfATransactionAreScopedToItsOrganisation() {
        Organisation org = givenOrg();
        Organisation otherOrg = givenOrg();
        Wallet wallet = givenWalletOfOrg(org);
        Transaction tx = givenTx(wallet, TransactionType.PAYMENT, TransactionStatus.PENDING, T0);

        assertThat(txOptional(s -> s.transactions().find(org.id(), tx.id()))).contains(tx);
        assertThat(txOptional(s -> s.transactions().lock(org.id(), tx.id()))).contains(tx);
        assertThat(txOptional(s -> s.transactions().find(otherOrg.id(), tx.id()))).isEmpty();
        assertThat(txOptional(s -> s.transactions().lock(otherOrg.id(), tx.id()))).isEmpty();
        assertThat(txOptional(s -> s.transactions().find(org.id(), ids.tx()))).isEmpty();

        Transaction confirmed = tx.withMemo(Optional.of("memo")).confirmed("sig-1", 77L, T0.plusSeconds(3));
        write(s -> s.transactions().update(confirmed));
        assertThat(txOptional(s -> s.transactions().find(org.id(), tx.id()))).contains(confirmed);
    }

    @Test
    void aSettlementClaimIsOneHoldersUntilItEndsOrLapses() {
        TxId id = ids.tx();
        Instant lapse = T0.plusSeconds(300);

        assertThat(txBoolean(s -> s.transactions().claimSettlement(id, "first", T0, lapse))).isTrue();
        assertThat(txBoolean(s -> s.transactions().claimSettlement(id, "second", T0.plusSeconds(299), lapse)))
                .as("refused while the claim runs").isFalse();
        assertThat(txBoolean(s -> s.transactions().claimSettlement(id, "first", T0.plusSeconds(1), lapse)))
                .as("its holder's again").isTrue();
        assertThat(txBoolean(s -> s.transactions().claimSettlement(id, "second", lapse, lapse.plusSeconds(300))))
                .as("taken over once lapsed").isTrue();
        assertThat(txBoolean(s -> s.transactions().releaseSettlement(id, "first"))).as("no longer first's").isFalse();
        assertThatThrownBy(() -> storage.inTransaction(s -> {
            s.transactions().releaseSettlement(id, "second");
            throw new IllegalStateException("rolled back");
        })).hasMessage("rolled back");
        assertThat(txBoolean(s -> s.transactions().releaseSettlement(id, "second"))).as("kept by the rollback").isTrue();
        assertThat(txBoolean(s -> s.transactions().releaseSettlement(id, "second"))).as("ended").isFalse();
        assertThat(txBoolean(s -> s.transactions().claimSettlement(id, "first", T0, lapse))).as("free again").isTrue();
    }

    @Test
    void aConditionalUpdateStoresAPendingTransactionOnlyOnce() {
        Organisation org = givenOrg();
        Wallet wallet = givenWalletOfOrg(org);
        Transaction tx = givenTx(wallet, TransactionType.PAYMENT, TransactionStatus.PENDING, T0);
        Transaction confirmed = tx.confirmed("sig-1", 77L, T0.plusSeconds(3));
        Transaction failed = tx.withStatus(TransactionStatus.FAILED, T0.plusSeconds(4));
        Transaction neverStored = newTx(wallet, TransactionType.PAYMENT, TransactionStatus.PENDING, T0);

        assertThat(txBoolean(s -> s.transactions().updateIfPending(neverStored))).isFalse();
        assertThat(txBoolean(s -> s.transactions().updateIfPending(confirmed))).isTrue();
        assertThat(txBoolean(s -> s.transactions().updateIfPending(failed))).as("no longer pending").isFalse();
        assertThat(txOptional(s -> s.transactions().find(org.id(), tx.id()))).contains(confirmed);
        assertThat(txOptional(s -> s.transactions().find(org.id(), neverStored.id()))).isEmpty();
    }

    @Test
    void transactionsLockedTogetherAreUpdatedOnlyWhileStillPending() {
        Organisation org = givenOrg();
        Wallet wallet = givenWalletOfOrg(org);
        Transaction first = givenTx(wallet, TransactionType.PAYMENT, TransactionStatus.PENDING, T0);
        Transaction second = givenTx(wallet, TransactionType.PAYMENT, TransactionStatus.PENDING, T0);
        Transaction settled = givenTx(wallet, TransactionType.PAYMENT, TransactionStatus.CONFIRMED, T0);
        Transaction neverStored = newTx(wallet, TransactionType.PAYMENT, TransactionStatus.PENDING, T0);
        Transaction firstConfirmed = first.confirmed("sig-1", 77L, T0.plusSeconds(3));
        Transaction secondFailed = second.withStatus(TransactionStatus.FAILED, T0.plusSeconds(3));
        Transaction settledFailed = settled.withStatus(TransactionStatus.FAILED, T0.plusSeconds(3));

        List<Boolean> stored = storage.inTransaction(s -> {
            s.transactions().lockAll(org.id(), List.of(second.id(), neverStored.id(), settled.id(), first.id()));
            return List.of(s.transactions().updateIfPending(firstConfirmed), s.transactions().updateIfPending(neverStored),
                    s.transactions().updateIfPending(settledFailed), s.transactions().updateIfPending(secondFailed),
                    s.transactions().updateIfPending(firstConfirmed.withStatus(TransactionStatus.FAILED, T0)));
        });

        assertThat(stored).as("the second update of the first finds it confirmed").containsExactly(true, false, false,
                true, false);
        assertThat(txOptional(s -> s.transactions().find(org.id(), first.id()))).contains(firstConfirmed);
        assertThat(txOptional(s -> s.transactions().find(org.id(), second.id()))).contains(secondFailed);
        assertThat(txOptional(s -> s.transactions().find(org.id(), settled.id()))).contains(settled);
        assertThat(txOptional(s -> s.transactions().find(org.id(), neverStored.id()))).isEmpty();
    }

    @Test
    void creditsOfOneAddressInOneTransactionAddUpAndAWholeUpdateBetweenThemKeepsItsPlace() {
        Organisation org = givenOrg();
        Wallet wallet = givenWalletOfOrg(org);
        Wallet other = givenWallet(org.id(), wallet.policyId(), "agent-2", WalletStatus.ACTIVE, List.of(), T0);
        Instant credited = T0.plusSeconds(60);

        storage.inTransaction(s -> {
            s.wallets().creditByAddress(other.address().base58(), Usdc.parse("1"), credited);
            s.wallets().creditByAddress(wallet.address().base58(), Usdc.parse("2"), credited);
            s.wallets().creditByAddress(other.address().base58(), Usdc.parse("3"), credited);
            return null;
        });
        Wallet locked = storage.inTransaction(s -> {
            Wallet held = s.wallets().lock(org.id(), wallet.id()).orElseThrow();
            s.wallets().creditByAddress(other.address().base58(), Usdc.parse("1"), credited);
            s.wallets().update(held.withBalance(Usdc.parse("50"), credited));
            s.wallets().creditByAddress(wallet.address().base58(), Usdc.parse("5"), credited);
            return held;
        });

        assertThat(locked.balance()).isEqualTo(wallet.balance().plus(Usdc.parse("2")));
        assertThat(txOptional(s -> s.wallets().find(org.id(), wallet.id())).orElseThrow().balance())
                .as("the whole update, then the credit after it").isEqualTo(Usdc.parse("55"));
        assertThat(txOptional(s -> s.wallets().find(org.id(), other.id())).orElseThrow().balance())
                .isEqualTo(other.balance().plus(Usdc.parse("5")));
    }

    @Test
    void transactionHistoryAppliesEveryFilterFromInclusiveToExclusive() {
        Organisation org = givenOrg();
        Organisation otherOrg = givenOrg();
        PolicyId policy = givenPolicy(org.id(), PolicyRules.NONE, T0).id();
        Wallet w1 = givenWallet(org.id(), policy, "agent-1", WalletStatus.ACTIVE, List.of(), T0);
        Wallet w2 = givenWallet(org.id(), policy, "agent-2", WalletStatus.ACTIVE, List.of(), T0);
        Wallet foreign = givenWallet(otherOrg.id(), givenPolicy(otherOrg.id(), PolicyRules.NONE, T0).id(), "agent-1",
                WalletStatus.ACTIVE, List.of(), T0);
        Transaction a = givenTx(w1, TransactionType.FUNDING, TransactionStatus.CONFIRMED, T0.plusSeconds(10));
        Transaction b = givenTx(w1, TransactionType.PAYMENT, TransactionStatus.CONFIRMED, T0.plusSeconds(20));
        Transaction c = givenTx(w2, TransactionType.PAYMENT, TransactionStatus.PENDING, T0.plusSeconds(30));
        Transaction d = givenTx(w1, TransactionType.PAYMENT, TransactionStatus.FAILED, T0.plusSeconds(40));
        Transaction e = givenTx(w2, TransactionType.WITHDRAWAL, TransactionStatus.CONFIRMED, T0.plusSeconds(50));
        givenTx(foreign, TransactionType.PAYMENT, TransactionStatus.CONFIRMED, T0.plusSeconds(35));

        assertThat(history(org.id(), TransactionStore.Query.ALL)).containsExactly(e, d, c, b, a);
        assertThat(history(org.id(), TransactionStore.Query.ofWallet(w1.id()))).containsExactly(d, b, a);
        assertThat(history(org.id(), query(Optional.empty(), Optional.of(TransactionStatus.CONFIRMED), Optional.empty(),
                Optional.empty(), Optional.empty()))).containsExactly(e, b, a);
        assertThat(history(org.id(), query(Optional.empty(), Optional.empty(), Optional.of(TransactionType.PAYMENT),
                Optional.empty(), Optional.empty()))).containsExactly(d, c, b);
        assertThat(history(org.id(), query(Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.of(T0.plusSeconds(20)), Optional.of(T0.plusSeconds(40))))).containsExactly(c, b);
        assertThat(history(org.id(), query(Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.of(T0.plusSeconds(41)), Optional.empty()))).containsExactly(e);
        assertThat(history(org.id(), query(Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.of(T0.plusSeconds(10))))).isEmpty();
        assertThat(history(org.id(), query(Optional.of(w1.id()), Optional.of(TransactionStatus.CONFIRMED),
                Optional.of(TransactionType.PAYMENT), Optional.of(T0), Optional.of(T0.plusSeconds(60)))))
                .containsExactly(b);
        assertThat(history(org.id(), TransactionStore.Query.ofWallet(foreign.id()))).isEmpty();
    }

    @Test
    void transactionHistoryPagesNewestFirst() {
        Organisation org = givenOrg();
        Wallet wallet = givenWalletOfOrg(org);
        List<Transaction> newestFirst = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            newestFirst.add(0, givenTx(wallet, TransactionType.PAYMENT, TransactionStatus.CONFIRMED, T0.plusSeconds(i)));
        }

        Page<Transaction> first = read(s -> s.transactions().list(org.id(), TransactionStore.Query.ALL, PageRequest.first(4)));
        assertThat(first.data()).containsExactlyElementsOf(newestFirst.subList(0, 4));
        assertThat(first.hasMore()).isTrue();
        Page<Transaction> second = read(s -> s.transactions().list(org.id(), TransactionStore.Query.ALL,
                new PageRequest(4, first.nextCursor())));
        assertThat(second.data()).containsExactlyElementsOf(newestFirst.subList(4, 7));
        assertThat(second.hasMore()).isFalse();
    }

    @Test
    void pendingSinceFindsPendingTransactionsLastChangedAtOrBeforeTheInstant() {
        Organisation org = givenOrg();
        Wallet wallet = givenWalletOfOrg(org);
        Instant changedBy = T0.plusSeconds(100);
        Transaction old = givenTx(wallet, TransactionType.PAYMENT, TransactionStatus.PENDING, T0);
        Transaction atTheInstant = givenTx(wallet, TransactionType.WITHDRAWAL, TransactionStatus.PENDING, changedBy);
        givenTx(wallet, TransactionType.PAYMENT, TransactionStatus.PENDING, changedBy.plusMillis(1));
        givenTx(wallet, TransactionType.PAYMENT, TransactionStatus.CONFIRMED, T0);
        givenCoSignTx(wallet, TransactionStatus.PENDING_CO_SIGN, T0.plusSeconds(300));
        Transaction changedLater = givenCoSignTx(wallet, TransactionStatus.PENDING_CO_SIGN, T0.plusSeconds(300));
        write(s -> s.transactions().update(changedLater.withStatus(TransactionStatus.PENDING, changedBy.plusSeconds(1))));

        assertThat(txList(s -> s.transactions().pendingSince(changedBy, 10))).containsExactlyInAnyOrder(old, atTheInstant);
        assertThat(txList(s -> s.transactions().pendingSince(changedBy, 1))).hasSize(1).isSubsetOf(old, atTheInstant);
        assertThat(txList(s -> s.transactions().pendingSince(T0.minusMillis(1), 10))).isEmpty();
    }

    @Test
    void claimCoSignExpiredTakesPaymentsWaitingForACoSignatureWhoseWindowClosedEarliestFirst() {
        Organisation org = givenOrg();
        Wallet wallet = givenWalletOfOrg(org);
        Instant now = T0.plusSeconds(600);
        Transaction closedBefore = givenCoSignTx(wallet, TransactionStatus.PENDING_CO_SIGN, now.minusSeconds(60));
        Transaction closedNow = givenCoSignTx(wallet, TransactionStatus.PENDING_CO_SIGN, now);
        givenCoSignTx(wallet, TransactionStatus.PENDING_CO_SIGN, now.plusMillis(1));
        givenCoSignTx(wallet, TransactionStatus.PENDING, now.minusSeconds(60));
        givenCoSignTx(wallet, TransactionStatus.REJECTED, now.minusSeconds(60));

        assertThat(txOptional(s -> s.transactions().claimCoSignExpired(T0))).isEmpty();
        assertThat(claimAll(s -> s.transactions().claimCoSignExpired(now),
                (s, tx) -> s.transactions().update(tx.withStatus(TransactionStatus.EXPIRED, now))))
                .containsExactly(closedBefore, closedNow);
    }

    @Test
    void anyAwaitingCoSignIsTrueWhileTheWalletHasAPaymentInPendingCoSign() {
        Organisation org = givenOrg();
        Organisation otherOrg = givenOrg();
        PolicyId policy = givenPolicy(org.id(), PolicyRules.NONE, T0).id();
        Wallet wallet = givenWallet(org.id(), policy, "agent-1", WalletStatus.ACTIVE, List.of(), T0);
        Wallet sibling = givenWallet(org.id(), policy, "agent-2", WalletStatus.ACTIVE, List.of(), T0);
        givenTx(sibling, TransactionType.PAYMENT, TransactionStatus.PENDING, T0);
        Transaction waiting = givenCoSignTx(wallet, TransactionStatus.PENDING_CO_SIGN, T0.plusSeconds(300));

        assertThat(txBoolean(s -> s.transactions().anyAwaitingCoSign(org.id(), wallet.id()))).isTrue();
        assertThat(txBoolean(s -> s.transactions().anyAwaitingCoSign(org.id(), sibling.id()))).isFalse();
        assertThat(txBoolean(s -> s.transactions().anyAwaitingCoSign(otherOrg.id(), wallet.id()))).isFalse();

        write(s -> s.transactions().update(waiting.withStatus(TransactionStatus.PENDING, T0.plusSeconds(1))));
        assertThat(txBoolean(s -> s.transactions().anyAwaitingCoSign(org.id(), wallet.id()))).isFalse();
    }

    // ---------------------------------------------------------------- spend log

    @Test
    void entriesInTakesEachRangeAsAfterExclusiveUntilInclusive() {
        Wallet wallet = givenWalletOfNewOrg();
        SpendEntry at0 = givenSpend(wallet, T0);
        SpendEntry at10 = givenSpend(wallet, T0.plusSeconds(10));
        SpendEntry at20 = givenSpend(wallet, T0.plusSeconds(20));
        SpendEntry at30 = givenSpend(wallet, T0.plusSeconds(30));

        assertThat(spends(wallet, range(0, 20))).containsExactlyInAnyOrder(at10, at20);
        assertThat(spends(wallet, range(-1, 0))).containsExactly(at0);
        assertThat(spends(wallet, range(20, 30))).containsExactly(at30);
        assertThat(spends(wallet, range(30, 40))).isEmpty();
        assertThat(spends(wallet, range(-100, 100))).containsExactlyInAnyOrder(at0, at10, at20, at30);
        assertThat(spends(wallet, new TimeRange(T0.plusMillis(9_999), T0.plusMillis(10_001)))).containsExactly(at10);
        assertThat(spends(wallet, new TimeRange(T0.plusSeconds(10), T0.plusSeconds(10)))).isEmpty();
    }

    @Test
    void entriesInFindsNothingInARangeThatHoldsNoInstant() {
        Wallet wallet = givenWalletOfNewOrg();
        SpendEntry at10 = givenSpend(wallet, T0.plusSeconds(10));

        assertThat(spends(wallet, range(20, 0))).isEmpty();
        assertThat(spends(wallet, range(20, 0), range(0, 10))).containsExactly(at10);
    }

    @Test
    void entriesInOverSeveralRangesReturnsEachSpendOnce() {
        Wallet wallet = givenWalletOfNewOrg();
        SpendEntry at0 = givenSpend(wallet, T0);
        SpendEntry at10 = givenSpend(wallet, T0.plusSeconds(10));
        SpendEntry at20 = givenSpend(wallet, T0.plusSeconds(20));
        SpendEntry at30 = givenSpend(wallet, T0.plusSeconds(30));
        givenSpend(wallet, T0.plusSeconds(40));

        assertThat(spends(wallet, range(0, 20), range(10, 30))).containsExactlyInAnyOrder(at10, at20, at30);
        assertThat(spends(wallet, range(-1, 0), range(20, 30))).containsExactlyInAnyOrder(at0, at30);
        assertThat(spends(wallet, range(0, 10), range(0, 10), range(5, 10))).containsExactly(at10);
        assertThat(spends(wallet, range(-5, 35), range(-1, 0), range(25, 30), range(60, 90)))
                .containsExactlyInAnyOrder(at0, at10, at20, at30);
        assertThat(spends(wallet)).isEmpty();
    }

    @Test
    void entriesInKeepsWalletsApartAndSpendsAtTheSameInstant() {
        Organisation org = givenOrg();
        PolicyId policy = givenPolicy(org.id(), PolicyRules.NONE, T0).id();
        Wallet wallet = givenWallet(org.id(), policy, "agent-1", WalletStatus.ACTIVE, List.of(), T0);
        Wallet sibling = givenWallet(org.id(), policy, "agent-2", WalletStatus.ACTIVE, List.of(), T0);
        SpendEntry first = givenSpend(wallet, T0.plusSeconds(10));
        SpendEntry sameInstant = givenSpend(wallet, T0.plusSeconds(10));
        SpendEntry siblings = givenSpend(sibling, T0.plusSeconds(10));

        assertThat(spends(wallet, range(0, 20))).containsExactlyInAnyOrder(first, sameInstant);
        assertThat(spends(sibling, range(0, 20))).containsExactly(siblings);
    }

    @Test
    void removeGivesBackTheLoggedSpendOnceAndOnlyForItsWallet() {
        Organisation org = givenOrg();
        PolicyId policy = givenPolicy(org.id(), PolicyRules.NONE, T0).id();
        Wallet wallet = givenWallet(org.id(), policy, "agent-1", WalletStatus.ACTIVE, List.of(), T0);
        Wallet sibling = givenWallet(org.id(), policy, "agent-2", WalletStatus.ACTIVE, List.of(), T0);
        SpendEntry removed = givenSpend(wallet, T0.plusSeconds(10));
        SpendEntry kept = givenSpend(wallet, T0.plusSeconds(10));

        assertThat(txOptional(s -> s.spendLog().remove(sibling.id(), removed.txId()))).isEmpty();
        assertThat(spends(wallet, range(0, 20))).containsExactlyInAnyOrder(removed, kept);

        assertThat(txOptional(s -> s.spendLog().remove(wallet.id(), removed.txId()))).contains(removed);
        assertThat(spends(wallet, range(0, 20))).containsExactly(kept);
        assertThat(txOptional(s -> s.spendLog().remove(wallet.id(), removed.txId()))).isEmpty();
        assertThat(txOptional(s -> s.spendLog().remove(wallet.id(), ids.tx()))).isEmpty();
        assertThat(spends(wallet, range(0, 20))).containsExactly(kept);
    }

    // ---------------------------------------------------------------- escrows

    @Test
    void anEscrowKeepsEveryField() {
        Organisation org = givenOrg();
        Organisation receiverOrg = givenOrg();
        Wallet sender = givenWallet(org.id(), givenPolicy(org.id(), PolicyRules.NONE, T0).id(), "sender",
                WalletStatus.ACTIVE, List.of(), T0);
        Wallet receiver = givenWallet(receiverOrg.id(), givenPolicy(receiverOrg.id(), PolicyRules.NONE, T0).id(),
                "receiver", WalletStatus.ACTIVE, List.of(), T0);
        EscrowId id = ids.escrow();
        Transaction lockTx = newTx(sender, TransactionType.ESCROW_LOCK, TransactionStatus.CONFIRMED, T0).withEscrow(id);
        Escrow escrow = new Escrow(id, org.id(), sender.id(), receiver.id().value(), receiver.address().base58(),
                Optional.of(receiver.id()), Usdc.parse("42.5"), "Summarise 10 papers – ünïcödé", 3600,
                T0.plusSeconds(3600), Optional.of(HASH_A), EscrowStatus.DISPUTED, Optional.of(HASH_B),
                Optional.of(new Dispute("Wrong output", HASH_B, T0.plusSeconds(60))), lockTx.id(), Optional.empty(),
                Optional.empty(), T0, T0.plusMillis(60_500));

        write(s -> {
            s.escrows().insert(escrow);
            s.transactions().insert(lockTx);
        });

        assertThat(txOptional(s -> s.escrows().find(org.id(), id))).contains(escrow);
        assertThat(txOptional(s -> s.transactions().find(org.id(), lockTx.id()))).contains(lockTx);
    }

    @Test
    void findLockAndUpdateOfAnEscrowAreScopedToItsOrganisation() {
        Organisation otherOrg = givenOrg();
        Wallet wallet = givenWalletOfNewOrg();
        Escrow escrow = givenEscrow(wallet, EscrowStatus.LOCKED, T0.plusSeconds(60), T0);

        assertThat(txOptional(s -> s.escrows().find(wallet.orgId(), escrow.id()))).contains(escrow);
        assertThat(txOptional(s -> s.escrows().lock(wallet.orgId(), escrow.id()))).contains(escrow);
        assertThat(txOptional(s -> s.escrows().find(otherOrg.id(), escrow.id()))).isEmpty();
        assertThat(txOptional(s -> s.escrows().lock(otherOrg.id(), escrow.id()))).isEmpty();
        assertThat(txOptional(s -> s.escrows().find(wallet.orgId(), ids.escrow()))).isEmpty();

        Transaction settleTx = givenTx(wallet, TransactionType.ESCROW_RELEASE, TransactionStatus.PENDING, T0.plusSeconds(5));
        Escrow released = new Escrow(escrow.id(), escrow.orgId(), escrow.fromWallet(), escrow.toWallet(),
                escrow.receiver(), escrow.receiverWallet(), escrow.amount(), escrow.taskDescription(),
                escrow.timeoutSeconds(), escrow.timeoutAt(), escrow.expectedProof(), EscrowStatus.RELEASED,
                Optional.of(HASH_A), escrow.dispute(), escrow.lockTx(), Optional.of(settleTx.id()),
                Optional.of("proof_accepted"), escrow.createdAt(), T0.plusSeconds(5));
        write(s -> s.escrows().update(released));
        assertThat(txOptional(s -> s.escrows().find(wallet.orgId(), escrow.id()))).contains(released);
    }

    @Test
    void escrowListsFilterBySenderWalletAndStatusNewestFirstInPages() {
        Organisation org = givenOrg();
        PolicyId policy = givenPolicy(org.id(), PolicyRules.NONE, T0).id();
        Wallet w1 = givenWallet(org.id(), policy, "agent-1", WalletStatus.ACTIVE, List.of(), T0);
        Wallet w2 = givenWallet(org.id(), policy, "agent-2", WalletStatus.ACTIVE, List.of(), T0);
        Wallet foreign = givenWalletOfNewOrg();
        Escrow a = givenEscrow(w1, EscrowStatus.LOCKED, T0.plusSeconds(600), T0.plusSeconds(1));
        Escrow b = givenEscrow(w2, EscrowStatus.LOCKED, T0.plusSeconds(600), T0.plusSeconds(2));
        Escrow c = givenEscrow(w1, EscrowStatus.RELEASED, T0.plusSeconds(600), T0.plusSeconds(3));
        Escrow d = givenEscrow(w1, EscrowStatus.LOCKED, T0.plusSeconds(600), T0.plusSeconds(4));
        givenEscrow(foreign, EscrowStatus.LOCKED, T0.plusSeconds(600), T0.plusSeconds(5));

        assertThat(escrows(org.id(), EscrowStore.Query.ALL)).containsExactly(d, c, b, a);
        assertThat(escrows(org.id(), new EscrowStore.Query(Optional.of(w1.id()), Optional.empty()))).containsExactly(d, c, a);
        assertThat(escrows(org.id(), new EscrowStore.Query(Optional.empty(), Optional.of(EscrowStatus.LOCKED))))
                .containsExactly(d, b, a);
        assertThat(escrows(org.id(), new EscrowStore.Query(Optional.of(w2.id()), Optional.of(EscrowStatus.RELEASED))))
                .isEmpty();

        Page<Escrow> first = read(s -> s.escrows().list(Requester.of(org.id()), EscrowStore.Query.ALL, PageRequest.first(3)));
        assertThat(first.data()).containsExactly(d, c, b);
        assertThat(first.hasMore()).isTrue();
        Page<Escrow> second = read(s -> s.escrows().list(Requester.of(org.id()), EscrowStore.Query.ALL,
                new PageRequest(3, first.nextCursor())));
        assertThat(second.data()).containsExactly(a);
        assertThat(second.hasMore()).isFalse();
    }

    @Test
    void eachPartyListsTheEscrowsItSendsOrReceivesAcrossOrganisations() {
        Organisation org = givenOrg();
        PolicyId policy = givenPolicy(org.id(), PolicyRules.NONE, T0).id();
        Wallet sender = givenWallet(org.id(), policy, "sender", WalletStatus.ACTIVE, List.of(), T0);
        Wallet sibling = givenWallet(org.id(), policy, "sibling", WalletStatus.ACTIVE, List.of(), T0);
        Wallet foreign = givenWalletOfNewOrg();
        Escrow toForeign = givenEscrowTo(sender, foreign, EscrowStatus.LOCKED, T0.plusSeconds(1));
        Escrow toSibling = givenEscrowTo(sender, sibling, EscrowStatus.RELEASED, T0.plusSeconds(2));
        Escrow fromForeign = givenEscrowTo(foreign, sibling, EscrowStatus.LOCKED, T0.plusSeconds(3));
        Escrow toAddress = givenEscrow(sender, EscrowStatus.LOCKED, T0.plusSeconds(600), T0.plusSeconds(4));

        assertThat(escrows(Requester.of(org.id()), EscrowStore.Query.ALL))
                .containsExactly(toAddress, fromForeign, toSibling, toForeign);
        assertThat(escrows(Requester.of(foreign.orgId()), EscrowStore.Query.ALL))
                .containsExactly(fromForeign, toForeign);
        assertThat(escrows(new Requester.Agent(org.id(), sender.id()), EscrowStore.Query.ALL))
                .containsExactly(toAddress, toSibling, toForeign);
        assertThat(escrows(new Requester.Agent(org.id(), sibling.id()), EscrowStore.Query.ALL))
                .containsExactly(fromForeign, toSibling);
        assertThat(escrows(new Requester.Agent(foreign.orgId(), foreign.id()), EscrowStore.Query.ALL))
                .containsExactly(fromForeign, toForeign);
        assertThat(escrows(Requester.of(org.id()), new EscrowStore.Query(Optional.of(sibling.id()),
                Optional.of(EscrowStatus.LOCKED)))).containsExactly(fromForeign);
        // an agent of another organisation cannot pass itself off as the sender
        assertThat(escrows(new Requester.Agent(foreign.orgId(), sender.id()), EscrowStore.Query.ALL)).isEmpty();
        Page<Escrow> first = read(s -> s.escrows().list(Requester.of(org.id()), EscrowStore.Query.ALL,
                PageRequest.first(2)));
        assertThat(first.data()).containsExactly(toAddress, fromForeign);
        Page<Escrow> second = read(s -> s.escrows().list(Requester.of(org.id()), EscrowStore.Query.ALL,
                new PageRequest(2, first.nextCursor())));
        assertThat(second.data()).containsExactly(toSibling, toForeign);
        assertThat(second.hasMore()).isFalse();

        assertThat(txOptional(s -> s.escrows().findAnyOrg(fromForeign.id()))).contains(fromForeign);
        assertThat(txOptional(s -> s.escrows().lockAnyOrg(toForeign.id()))).contains(toForeign);
        assertThat(txOptional(s -> s.escrows().findAnyOrg(ids.escrow()))).isEmpty();
    }

    @Test
    void claimTimedOutTakesConfirmedLockedEscrowsOfEveryOrganisationEarliestTimeoutFirst() {
        Instant now = T0.plusSeconds(3600);
        Wallet wallet = givenWalletOfNewOrg();
        Wallet foreign = givenWalletOfNewOrg();
        Escrow third = givenEscrow(wallet, EscrowStatus.LOCKED, now.minusSeconds(60), T0);
        Escrow first = givenEscrow(wallet, EscrowStatus.LOCKED, now.minusSeconds(180), T0);
        Escrow fourth = givenEscrow(wallet, EscrowStatus.LOCKED, now, T0);
        Escrow second = givenEscrow(foreign, EscrowStatus.LOCKED, now.minusSeconds(120), T0);
        givenEscrow(wallet, EscrowStatus.LOCKED, now.plusMillis(1), T0);
        givenEscrow(wallet, EscrowStatus.DISPUTED, now.minusSeconds(600), T0);
        givenEscrow(wallet, EscrowStatus.RELEASED, now.minusSeconds(600), T0);
        givenEscrow(wallet, EscrowStatus.REFUNDED, now.minusSeconds(600), T0);

        Escrow lockUnconfirmed = givenEscrow(wallet, EscrowStatus.LOCKED, now.minusSeconds(600), T0);
        write(s -> s.transactions().update(s.transactions().find(wallet.orgId(), lockUnconfirmed.lockTx()).orElseThrow()
                .withStatus(TransactionStatus.PENDING, T0)));

        assertThat(txOptional(s -> s.escrows().claimTimedOut(T0))).isEmpty();
        assertThat(claimAll(s -> s.escrows().claimTimedOut(now),
                (s, escrow) -> s.escrows().update(withStatus(escrow, EscrowStatus.REFUNDED, now))))
                .containsExactly(first, second, third, fourth);
    }

    @Test
    void anyOpenFromIsTrueWhileTheWalletHasALockedOrDisputedEscrow() {
        Organisation org = givenOrg();
        Organisation otherOrg = givenOrg();
        PolicyId policy = givenPolicy(org.id(), PolicyRules.NONE, T0).id();
        Wallet locked = givenWallet(org.id(), policy, "locked", WalletStatus.ACTIVE, List.of(), T0);
        Wallet disputed = givenWallet(org.id(), policy, "disputed", WalletStatus.ACTIVE, List.of(), T0);
        Wallet settled = givenWallet(org.id(), policy, "settled", WalletStatus.ACTIVE, List.of(), T0);
        Wallet receiverOnly = givenWallet(org.id(), policy, "receiver", WalletStatus.ACTIVE, List.of(), T0);
        Wallet payer = givenWallet(org.id(), policy, "payer", WalletStatus.ACTIVE, List.of(), T0);
        Escrow lockedEscrow = givenEscrow(locked, EscrowStatus.LOCKED, T0.plusSeconds(60), T0);
        givenEscrow(disputed, EscrowStatus.DISPUTED, T0.plusSeconds(60), T0);
        givenEscrow(settled, EscrowStatus.RELEASED, T0.plusSeconds(60), T0);
        givenEscrow(settled, EscrowStatus.REFUNDED, T0.plusSeconds(60), T0);
        givenEscrowTo(payer, receiverOnly, EscrowStatus.LOCKED, T0);

        assertThat(txBoolean(s -> s.escrows().anyOpenFrom(org.id(), locked.id()))).isTrue();
        assertThat(txBoolean(s -> s.escrows().anyOpenFrom(org.id(), disputed.id()))).isTrue();
        assertThat(txBoolean(s -> s.escrows().anyOpenFrom(org.id(), settled.id()))).isFalse();
        assertThat(txBoolean(s -> s.escrows().anyOpenFrom(org.id(), payer.id()))).isTrue();
        assertThat(txBoolean(s -> s.escrows().anyOpenFrom(org.id(), receiverOnly.id()))).isFalse();
        assertThat(txBoolean(s -> s.escrows().anyOpenFrom(otherOrg.id(), locked.id()))).isFalse();

        write(s -> s.escrows().update(withStatus(lockedEscrow, EscrowStatus.REFUNDED, T0.plusSeconds(61))));
        assertThat(txBoolean(s -> s.escrows().anyOpenFrom(org.id(), locked.id()))).isFalse();
    }

    // ---------------------------------------------------------------- recipient categories

    @Test
    void recipientCategoriesAreAMapPerOrganisation() {
        Organisation org = givenOrg();
        Organisation otherOrg = givenOrg();
        write(s -> {
            s.recipientCategories().put(org.id(), RECIPIENT, "gambling");
            s.recipientCategories().put(org.id(), "recipient-b", "food");
            s.recipientCategories().put(org.id(), "recipient-c", "crypto");
            s.recipientCategories().put(otherOrg.id(), "recipient-d", "gambling");
        });

        assertThat(txOptional(s -> s.recipientCategories().categoryOf(org.id(), RECIPIENT))).contains("gambling");
        assertThat(txOptional(s -> s.recipientCategories().categoryOf(otherOrg.id(), RECIPIENT))).isEmpty();
        assertThat(txOptional(s -> s.recipientCategories().categoryOf(org.id(), "unknown"))).isEmpty();
        assertThat(txSet(s -> s.recipientCategories().recipientsIn(org.id(), Set.of("gambling", "crypto"))))
                .containsExactlyInAnyOrder(RECIPIENT, "recipient-c");
        assertThat(txSet(s -> s.recipientCategories().recipientsIn(org.id(), Set.of("travel")))).isEmpty();

        write(s -> s.recipientCategories().put(org.id(), RECIPIENT, "food"));

        assertThat(txOptional(s -> s.recipientCategories().categoryOf(org.id(), RECIPIENT))).contains("food");
        assertThat(txSet(s -> s.recipientCategories().recipientsIn(org.id(), Set.of("food"))))
                .containsExactlyInAnyOrder(RECIPIENT, "recipient-b");
        assertThat(txSet(s -> s.recipientCategories().recipientsIn(org.id(), Set.of("gambling")))).isEmpty();
        assertThat(txSet(s -> s.recipientCategories().recipientsIn(otherOrg.id(), Set.of("gambling"))))
                .containsExactly("recipient-d");
    }

    // ---------------------------------------------------------------- idempotency keys

    @Test
    void idempotencyRecordsAreFoundByOrganisationAndKey() {
        Organisation org = givenOrg();
        Organisation otherOrg = givenOrg();
        Wallet wallet = givenWallet(org.id(), givenPolicy(org.id(), PolicyRules.NONE, T0).id(), "agent-1",
                WalletStatus.ACTIVE, List.of(), T0);
        Wallet foreign = givenWallet(otherOrg.id(), givenPolicy(otherOrg.id(), PolicyRules.NONE, T0).id(), "agent-1",
                WalletStatus.ACTIVE, List.of(), T0);
        Transaction paid = givenTx(wallet, TransactionType.PAYMENT, TransactionStatus.CONFIRMED, T0);
        Transaction foreignPaid = givenTx(foreign, TransactionType.PAYMENT, TransactionStatus.CONFIRMED, T0);
        IdempotencyRecord record = IdempotencyRecord.firstUse(org.id(), "order-42", "sha256:abc", paid.id(), T0);
        IdempotencyRecord sameKeyElsewhere = IdempotencyRecord.firstUse(otherOrg.id(), "order-42", "sha256:def",
                foreignPaid.id(), T0.plusSeconds(1));

        write(s -> s.idempotency().insert(record));
        assertThat(txOptional(s -> s.idempotency().find(otherOrg.id(), "order-42"))).isEmpty();
        write(s -> s.idempotency().insert(sameKeyElsewhere));

        assertThat(txOptional(s -> s.idempotency().find(org.id(), "order-42"))).contains(record);
        assertThat(txOptional(s -> s.idempotency().find(otherOrg.id(), "order-42"))).contains(sameKeyElsewhere);
        assertThat(txOptional(s -> s.idempotency().find(org.id(), "order-43"))).isEmpty();
    }

    @Test
    void deleteCreatedBeforeForgetsKeysOfEveryOrganisationFirstUsedBeforeTheCutoff() {
        Organisation org = givenOrg();
        Organisation otherOrg = givenOrg();
        Wallet wallet = givenWallet(org.id(), givenPolicy(org.id(), PolicyRules.NONE, T0).id(), "agent-1",
                WalletStatus.ACTIVE, List.of(), T0);
        Wallet foreign = givenWallet(otherOrg.id(), givenPolicy(otherOrg.id(), PolicyRules.NONE, T0).id(), "agent-1",
                WalletStatus.ACTIVE, List.of(), T0);
        Instant cutoff = T0.plus(Duration.ofHours(24));
        Transaction paid = givenTx(wallet, TransactionType.PAYMENT, TransactionStatus.CONFIRMED, T0);
        Transaction foreignPaid = givenTx(foreign, TransactionType.PAYMENT, TransactionStatus.CONFIRMED, T0);
        write(s -> {
            s.idempotency().insert(IdempotencyRecord.firstUse(org.id(), "old-1", "fp", paid.id(), T0));
            s.idempotency().insert(IdempotencyRecord.firstUse(org.id(), "old-2", "fp", paid.id(), cutoff.minusMillis(1)));
            s.idempotency().insert(IdempotencyRecord.firstUse(otherOrg.id(), "old-3", "fp", foreignPaid.id(), T0));
            s.idempotency().insert(IdempotencyRecord.firstUse(org.id(), "at-cutoff", "fp", paid.id(), cutoff));
            s.idempotency().insert(IdempotencyRecord.firstUse(otherOrg.id(), "recent", "fp", foreignPaid.id(),
                    cutoff.plusSeconds(60)));
        });

        int firstRound = read(s -> s.idempotency().deleteCreatedBefore(cutoff, 2));
        int secondRound = read(s -> s.idempotency().deleteCreatedBefore(cutoff, 10));
        int thirdRound = read(s -> s.idempotency().deleteCreatedBefore(cutoff, 10));
        assertThat(List.of(firstRound, secondRound, thirdRound)).containsExactly(2, 1, 0);

        storage.inTransaction(s -> {
            assertThat(s.idempotency().find(org.id(), "old-1")).isEmpty();
            assertThat(s.idempotency().find(org.id(), "old-2")).isEmpty();
            assertThat(s.idempotency().find(otherOrg.id(), "old-3")).isEmpty();
            assertThat(s.idempotency().find(org.id(), "at-cutoff")).isPresent();
            assertThat(s.idempotency().find(otherOrg.id(), "recent")).isPresent();
            return null;
        });
    }

    @Test
    void aRequestKeyIsInsertedOncePerOrganisationAndKeepsItsSubject() {
        Organisation org = givenOrg();
        Organisation otherOrg = givenOrg();
        KeyedRequest first = new KeyedRequest(org.id(), "fund-7", "fp-1", Optional.empty(), T0);

        boolean inserted = storage.inTransaction(s -> s.requestKeys().insertIfAbsent(first));
        boolean insertedAgain = storage.inTransaction(s -> s.requestKeys().insertIfAbsent(
                new KeyedRequest(org.id(), "fund-7", "fp-2", Optional.empty(), T0.plusSeconds(1))));
        boolean insertedElsewhere = storage.inTransaction(s -> s.requestKeys().insertIfAbsent(
                new KeyedRequest(otherOrg.id(), "fund-7", "fp-3", Optional.empty(), T0)));

        assertThat(List.of(inserted, insertedAgain, insertedElsewhere)).containsExactly(true, false, true);
        write(s -> s.requestKeys().setSubject(org.id(), "fund-7", "tx_1,tx_2"));

        assertThat(txOptional(s -> s.requestKeys().find(org.id(), "fund-7")))
                .contains(new KeyedRequest(org.id(), "fund-7", "fp-1", Optional.of("tx_1,tx_2"), T0));
        assertThat(txOptional(s -> s.requestKeys().find(otherOrg.id(), "fund-7")).map(KeyedRequest::fingerprint))
                .contains("fp-3");
        write(s -> s.requestKeys().delete(org.id(), "fund-7"));
        assertThat(txOptional(s -> s.requestKeys().find(org.id(), "fund-7"))).isEmpty();
        assertThat(txOptional(s -> s.requestKeys().find(otherOrg.id(), "fund-7"))).isPresent();
    }

    @Test
    void requestKeysFirstUsedBeforeTheCutoffAreForgotten() {
        Organisation org = givenOrg();
        Instant cutoff = T0.plus(Duration.ofHours(24));
        write(s -> {
            s.requestKeys().insertIfAbsent(new KeyedRequest(org.id(), "old-1", "fp", Optional.of("w"), T0));
            s.requestKeys().insertIfAbsent(new KeyedRequest(org.id(), "old-2", "fp", Optional.of("w"),
                    cutoff.minusMillis(1)));
            s.requestKeys().insertIfAbsent(new KeyedRequest(org.id(), "at-cutoff", "fp", Optional.of("w"), cutoff));
        });

        int firstRound = read(s -> s.requestKeys().deleteCreatedBefore(cutoff, 1));
        int secondRound = read(s -> s.requestKeys().deleteCreatedBefore(cutoff, 10));

        assertThat(List.of(firstRound, secondRound)).containsExactly(1, 1);
        assertThat(txOptional(s -> s.requestKeys().find(org.id(), "old-1"))).isEmpty();
        assertThat(txOptional(s -> s.requestKeys().find(org.id(), "old-2"))).isEmpty();
        assertThat(txOptional(s -> s.requestKeys().find(org.id(), "at-cutoff"))).isPresent();
    }

    @Test
    void aSecondInsertOfAKeyInTheSameOrganisationFails() {
        Organisation org = givenOrg();
        Wallet wallet = givenWalletOfOrg(org);
        Transaction paid = givenTx(wallet, TransactionType.PAYMENT, TransactionStatus.CONFIRMED, T0);
        Transaction retried = givenTx(wallet, TransactionType.PAYMENT, TransactionStatus.CONFIRMED, T0.plusSeconds(1));
        IdempotencyRecord record = IdempotencyRecord.firstUse(org.id(), "order-42", "fp-1", paid.id(), T0);
        write(s -> s.idempotency().insert(record));

        assertThatThrownBy(() -> write(s -> s.idempotency().insert(
                IdempotencyRecord.firstUse(org.id(), "order-42", "fp-2", retried.id(), T0.plusSeconds(1)))))
                .isInstanceOf(RuntimeException.class);

        assertThat(txOptional(s -> s.idempotency().find(org.id(), "order-42"))).contains(record);
    }

    @Test
    void anAnswerIsKeptAndTheFirstOneStays() {
        Organisation org = givenOrg();
        Organisation otherOrg = givenOrg();
        Wallet wallet = givenWalletOfOrg(org);
        Wallet foreign = givenWalletOfOrg(otherOrg);
        Transaction paid = givenTx(wallet, TransactionType.PAYMENT, TransactionStatus.PENDING, T0);
        Transaction foreignPaid = givenTx(foreign, TransactionType.PAYMENT, TransactionStatus.CONFIRMED, T0);
        IdempotencyRecord record = IdempotencyRecord.firstUse(org.id(), "order-42", "fp-1", paid.id(), T0);
        IdempotencyRecord sameKeyElsewhere = IdempotencyRecord.firstUse(otherOrg.id(), "order-42", "fp-2", foreignPaid.id(), T0);
        write(s -> {
            s.idempotency().insert(record);
            s.idempotency().insert(sameKeyElsewhere);
        });
        IdempotencyRecord.Answer first = IdempotencyRecord.Answer.of(paid.confirmed("sig-1", 77L, T0.plusSeconds(2)));
        IdempotencyRecord.Answer failed = IdempotencyRecord.Answer.of(paid.endedWithout(TransactionStatus.FAILED, "refused", T0.plusSeconds(3)));

        write(s -> s.idempotency().keepAnswer(org.id(), "order-42", first));
        write(s -> s.idempotency().keepAnswer(org.id(), "order-42", IdempotencyRecord.Answer.of(paid)));
        write(s -> s.idempotency().keepAnswer(org.id(), "order-43", first));

        assertThat(txOptional(s -> s.idempotency().find(org.id(), "order-42"))).contains(record.withAnswer(first));
        assertThat(txOptional(s -> s.idempotency().find(otherOrg.id(), "order-42"))).contains(sameKeyElsewhere);
        assertThat(txOptional(s -> s.idempotency().find(org.id(), "order-43"))).isEmpty();
        write(s -> s.idempotency().keepAnswer(otherOrg.id(), "order-42", failed));
        assertThat(txOptional(s -> s.idempotency().find(otherOrg.id(), "order-42")))
                .as("every part of an answer, absent ones too").contains(sameKeyElsewhere.withAnswer(failed));
    }

    @Test
    void answersKeptTogetherInOneTransactionKeepTheFirstOfEachKey() {
        Wallet wallet = givenWalletOfNewOrg();
        Transaction paid = givenTx(wallet, TransactionType.PAYMENT, TransactionStatus.PENDING, T0);
        Transaction other = givenTx(wallet, TransactionType.PAYMENT, TransactionStatus.PENDING, T0);
        IdempotencyRecord.Answer confirmed = IdempotencyRecord.Answer.of(paid.confirmed("sig-1", 7L, T0.plusSeconds(1)));
        IdempotencyRecord.Answer otherConfirmed = IdempotencyRecord.Answer.of(other.confirmed("sig-2", 8L, T0));
        write(s -> {
            s.idempotency().insert(IdempotencyRecord.firstUse(wallet.orgId(), "k", "fp", paid.id(), T0));
            s.idempotency().insert(IdempotencyRecord.firstUse(wallet.orgId(), "k2", "fp", other.id(), T0));
        });

        write(s -> {
            s.idempotency().keepAnswer(wallet.orgId(), "k", confirmed);
            s.idempotency().keepAnswer(wallet.orgId(), "k2", otherConfirmed);
            s.idempotency().keepAnswer(wallet.orgId(), "k", IdempotencyRecord.Answer.of(paid));
        });

        assertThat(txOptional(s -> s.idempotency().find(wallet.orgId(), "k")).flatMap(IdempotencyRecord::answer))
                .contains(confirmed);
        assertThat(txOptional(s -> s.idempotency().find(wallet.orgId(), "k2")).flatMap(IdempotencyRecord::answer))
                .contains(otherConfirmed);
    }

    @Test
    void aRecordWrittenWithItsAnswerKeepsIt() {
        Wallet wallet = givenWalletOfNewOrg();
        Transaction held = givenTx(wallet, TransactionType.PAYMENT, TransactionStatus.PENDING_CO_SIGN, T0);
        IdempotencyRecord answered = IdempotencyRecord.firstUse(wallet.orgId(), "k", "fp", held.id(), T0)
                .withAnswer(IdempotencyRecord.Answer.of(held));
        write(s -> s.idempotency().insert(answered));

        assertThat(txOptional(s -> s.idempotency().find(wallet.orgId(), "k"))).contains(answered);
    }

    // ---------------------------------------------------------------- claimed units of work

    /**
     * Units of work claiming one wallet, from many threads at once: however the store groups them,
     * each runs under the claimed lock and sees what those before it wrote, and each answers its own.
     */
    @Test
    void claimedUnitsOfWorkFromManyThreadsEachSeeTheWritesBeforeThemAndAnswerTheirOwn() throws Exception {
        Wallet wallet = givenWalletOfNewOrg();
        write(s -> s.wallets().update(wallet.withBalance(Usdc.parse("100"), T0)));
        int units = 24;
        ExecutorService threads = Executors.newFixedThreadPool(8);
        try {
            List<Future<Usdc>> answers = new ArrayList<>();
            for (int i = 0; i < units; i++) {
                answers.add(threads.submit(() -> storage.inBatch(new Claim.Booking(wallet.orgId(), Optional.empty(),
                        wallet.id()), s -> {
                    Wallet locked = s.wallets().lock(wallet.orgId(), wallet.id()).orElseThrow();
                    Usdc after = locked.balance().minus(Usdc.parse("1"));
                    s.wallets().update(locked.withBalance(after, T0));
                    return after;
                })));
            }
            Set<Usdc> answered = new HashSet<>();
            for (Future<Usdc> answer : answers) {
                answered.add(answer.get(30, TimeUnit.SECONDS));
            }

            assertThat(answered).as("each saw the one before it").hasSize(units)
                    .contains(Usdc.parse("99"), Usdc.parse("76"));
            assertThat(txOptional(s -> s.wallets().find(wallet.orgId(), wallet.id())).orElseThrow().balance())
                    .isEqualTo(Usdc.parse("76"));
        } finally {
            threads.shutdownNow();
        }
    }

    /** A unit of work that throws fails alone: those the store ran with it are kept. */
    @Test
    void aClaimedUnitOfWorkThatThrowsFailsAloneAndKeepsNothing() throws Exception {
        Wallet wallet = givenWalletOfNewOrg();
        write(s -> s.wallets().update(wallet.withBalance(Usdc.parse("100"), T0)));
        IllegalStateException failure = new IllegalStateException("this one cannot be done");
        ExecutorService threads = Executors.newFixedThreadPool(8);
        try {
            List<Future<Usdc>> answers = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                boolean fails = i == 5;
                answers.add(threads.submit(() -> storage.inBatch(new Claim.Booking(wallet.orgId(), Optional.of("k"),
                        wallet.id()), s -> {
                    Wallet locked = s.wallets().lock(wallet.orgId(), wallet.id()).orElseThrow();
                    s.wallets().update(locked.withBalance(locked.balance().minus(Usdc.parse("1")), T0));
                    if (fails) {
                        throw failure;
                    }
                    return locked.balance();
                })));
            }
            int failed = 0;
            for (Future<Usdc> answer : answers) {
                try {
                    answer.get(30, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    assertThat(e.getCause()).isSameAs(failure);
                    failed++;
                }
            }

            assertThat(failed).isOne();
            assertThat(txOptional(s -> s.wallets().find(wallet.orgId(), wallet.id())).orElseThrow().balance())
                    .isEqualTo(Usdc.parse("85"));
        } finally {
            threads.shutdownNow();
        }
    }

    /** An outcome's claim locks its transaction, whose conditional update then stores it once. */
    @Test
    void anOutcomesClaimLocksItsTransactionWhichIsStoredOnceWhileStillPending() {
        Wallet wallet = givenWalletOfNewOrg();
        Transaction pending = givenTx(wallet, TransactionType.PAYMENT, TransactionStatus.PENDING, T0);
        Transaction confirmed = pending.confirmed("sig-1", 3L, T0.plusSeconds(1));
        Claim claim = new Claim.Outcome(wallet.orgId(), pending.id(), Optional.empty());

        boolean first = storage.inBatch(claim, s -> s.transactions().updateIfPending(confirmed));
        boolean second = storage.inBatch(claim, s -> s.transactions()
                .updateIfPending(pending.withStatus(TransactionStatus.FAILED, T0.plusSeconds(2))));

        assertThat(first).isTrue();
        assertThat(second).isFalse();
        assertThat(txOptional(s -> s.transactions().find(wallet.orgId(), pending.id()))).contains(confirmed);
    }

    // ---------------------------------------------------------------- webhooks

    @Test
    void aWebhookKeepsEveryField() {
        Organisation org = givenOrg();
        Webhook some = new Webhook(ids.webhook(), org.id(), "https://hooks.example.com:8443/in?source=wallet",
                Subscription.parse(List.of("transaction.completed", "balance.low", "ping")),
                Webhook.SECRET_PREFIX + ids.randomPart(), WebhookStatus.DEGRADED, T0, T0.plusMillis(1500));
        Webhook all = new Webhook(ids.webhook(), org.id(), "https://all.example.com/", Subscription.parse(List.of("*")),
                Webhook.SECRET_PREFIX + ids.randomPart(), WebhookStatus.ACTIVE, T0, T0);

        write(s -> {
            s.webhooks().insert(some);
            s.webhooks().insert(all);
        });

        assertThat(txOptional(s -> s.webhooks().find(org.id(), some.id()))).contains(some);
        assertThat(txOptional(s -> s.webhooks().find(org.id(), all.id()))).contains(all);
    }

    /**
     * Fan-out reads each new event with what choosing its receivers takes, without its body: a ping
     * with the webhook it tests, any other event with none.
     */
    @Test
    void newEventsAreReadForFanOutAPingWithTheWebhookItTests() {
        Organisation org = givenOrg();
        Webhook webhook = givenWebhook(org.id(), T0);
        EventId ping = givenEvent(new DomainEvent.Ping(org.id(), webhook.id(), T0));
        EventId deposit = givenEvent(new DomainEvent.OrgDepositConfirmed(org.id(), Usdc.parse("5"), Usdc.parse("5"), T0));

        List<UnfannedEvent> read = txList(s -> s.deliveries().unfanned(10_000));

        assertThat(read).filteredOn(event -> Set.of(ping, deposit).contains(event.id())).containsExactly(
                new UnfannedEvent(ping, org.id(), EventType.PING, Optional.of(webhook.id()), T0),
                new UnfannedEvent(deposit, org.id(), EventType.ORG_DEPOSIT_CONFIRMED, Optional.empty(), T0));
    }

    /**
     * The alerts feed reads an organisation's newest alerting events since an instant, each with what
     * its alert quotes as the event appended held it; among events of the same instant the later
     * appended comes first.
     */
    @Test
    void recentAlertsAreTheOrganisationsAlertingEventsSinceTheInstantNewestFirst() {
        Organisation org = givenOrg();
        Wallet wallet = givenWalletOfOrg(org);
        Transaction blocked = newTx(wallet, TransactionType.PAYMENT, TransactionStatus.PENDING, T0)
                .blockedBy(new Violation(ViolationRule.MAX_PER_TX, "5.00", "50.00"));
        Escrow disputed = new Escrow(ids.escrow(), org.id(), wallet.id(), "receiver-agent", nextAddress().base58(),
                Optional.empty(), Usdc.parse("42.5"), "Summarise 10 papers – ünïcödé", 3600, T0.plusSeconds(3600),
                Optional.of(HASH_A), EscrowStatus.DISPUTED, Optional.empty(),
                Optional.of(new Dispute("Wrong output – “quoted”", HASH_B, T0)), ids.tx(), Optional.empty(),
                Optional.empty(), T0, T0);
        OutboxEvent before = givenOutboxEvent(new DomainEvent.TransactionBlocked(blocked, T0), T0.minusSeconds(1));
        OutboxEvent low = givenOutboxEvent(new DomainEvent.BalanceLow(wallet.withBalance(Usdc.parse("9.5"), T0),
                Usdc.parse("10"), T0), T0);
        OutboxEvent expired = givenOutboxEvent(new DomainEvent.PolicyExpired(wallet.withStatus(WalletStatus.FROZEN, T0),
                T0, T0), T0);
        OutboxEvent payment = givenOutboxEvent(new DomainEvent.TransactionBlocked(blocked, T0), T0.plusSeconds(5));
        givenEvent(new DomainEvent.WalletStatusChanged(wallet.withStatus(WalletStatus.FROZEN, T0), T0), T0.plusSeconds(6));
        OutboxEvent escrow = givenOutboxEvent(new DomainEvent.EscrowDisputed(disputed, T0), T0.plusSeconds(7));
        Wallet theirs = givenWalletOfOrg(givenOrg());
        givenEvent(new DomainEvent.BalanceLow(theirs, Usdc.parse("1000"), T0), T0.plusSeconds(8));

        List<AlertingEvent> recent = txList(s -> s.outbox().recentAlerts(org.id(), T0, 10));
        List<AlertingEvent> newestTwo = txList(s -> s.outbox().recentAlerts(org.id(), T0, 2));
        List<AlertingEvent> all = txList(s -> s.outbox().recentAlerts(org.id(), T0.minusSeconds(1), 10));

        assertThat(recent).containsExactly(alerting(escrow), alerting(payment), alerting(expired), alerting(low));
        assertThat(newestTwo).containsExactly(alerting(escrow), alerting(payment));
        assertThat(all).last().isEqualTo(alerting(before));
    }

    @Test
    void findLockAndUpdateOfAWebhookAreScopedToItsOrganisation() {
        Organisation org = givenOrg();
        Organisation otherOrg = givenOrg();
        Webhook webhook = givenWebhook(org.id(), T0);

        assertThat(txOptional(s -> s.webhooks().find(otherOrg.id(), webhook.id()))).isEmpty();
        assertThat(txOptional(s -> s.webhooks().lock(otherOrg.id(), webhook.id()))).isEmpty();
        assertThat(txOptional(s -> s.webhooks().lock(org.id(), webhook.id()))).contains(webhook);
        assertThat(txOptional(s -> s.webhooks().find(org.id(), ids.webhook()))).isEmpty();

        Webhook changed = webhook.withTarget("https://new.example.com/hook", Subscription.parse(List.of("*")),
                T0.plusSeconds(5)).withStatus(WebhookStatus.DEGRADED, T0.plusSeconds(6));
        write(s -> s.webhooks().update(changed));

        assertThat(txOptional(s -> s.webhooks().find(org.id(), webhook.id()))).contains(changed);
    }

    @Test
    void aDeletedWebhookIsFoundListedAndLockedByNothing() {
        Organisation org = givenOrg();
        Organisation otherOrg = givenOrg();
        Webhook doomed = givenWebhook(org.id(), T0);
        Webhook kept = givenWebhook(org.id(), T0.plusSeconds(1));

        write(s -> s.webhooks().delete(otherOrg.id(), doomed.id(), T0.plusSeconds(2)));
        assertThat(txOptional(s -> s.webhooks().find(org.id(), doomed.id()))).contains(doomed);
        write(s -> s.webhooks().delete(org.id(), doomed.id(), T0.plusSeconds(3)));

        assertThat(txOptional(s -> s.webhooks().find(org.id(), doomed.id()))).isEmpty();
        assertThat(txOptional(s -> s.webhooks().lock(org.id(), doomed.id()))).isEmpty();
        assertThat(txOptional(s -> s.webhooks().find(org.id(), kept.id()))).contains(kept);
        assertThat(txList(s -> s.webhooks().list(org.id(), PageRequest.first(10)).data())).containsExactly(kept);
    }

    @Test
    void webhookListsAreTheOrganisationsWebhooksNewestFirstInPages() {
        Organisation org = givenOrg();
        Organisation otherOrg = givenOrg();
        List<Webhook> newestFirst = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            newestFirst.add(0, givenWebhook(org.id(), T0.plusSeconds(i)));
            givenWebhook(otherOrg.id(), T0.plusSeconds(i));
        }

        Page<Webhook> first = read(s -> s.webhooks().list(org.id(), PageRequest.first(3)));
        assertThat(first.data()).containsExactlyElementsOf(newestFirst.subList(0, 3));
        assertThat(first.hasMore()).isTrue();
        Page<Webhook> second = read(s -> s.webhooks().list(org.id(), new PageRequest(3, first.nextCursor())));
        assertThat(second.data()).containsExactlyElementsOf(newestFirst.subList(3, 5));
        assertThat(second.hasMore()).isFalse();
    }

    @Test
    void deliveryAttemptsListNewestFirstInPagesWithTheirEventsName() {
        Organisation org = givenOrg();
        Webhook webhook = givenWebhook(org.id(), T0);
        Webhook otherWebhook = givenWebhook(org.id(), T0);
        EventId ping = givenEvent(new DomainEvent.Ping(org.id(), webhook.id(), T0));
        EventId deposit = givenEvent(new DomainEvent.OrgDepositConfirmed(org.id(), Usdc.parse("5"), Usdc.parse("5"), T0));
        DeliveryAttempt timedOut = new DeliveryAttempt(deposit, EventType.ORG_DEPOSIT_CONFIRMED, webhook.id(), 1,
                Optional.empty(), Optional.of("timeout after 5 s"), 5000, T0, Optional.of(T0.plusSeconds(60)));
        DeliveryAttempt pinged = new DeliveryAttempt(ping, EventType.PING, webhook.id(), 1, Optional.of(204),
                Optional.empty(), 35, T0.plusSeconds(10), Optional.empty());
        DeliveryAttempt refused = new DeliveryAttempt(deposit, EventType.ORG_DEPOSIT_CONFIRMED, webhook.id(), 2,
                Optional.of(500), Optional.of("HTTP 500"), 120, T0.plusSeconds(60), Optional.of(T0.plusSeconds(300)));
        DeliveryAttempt elsewhere = new DeliveryAttempt(ping, EventType.PING, otherWebhook.id(), 1, Optional.of(200),
                Optional.empty(), 12, T0.plusSeconds(20), Optional.empty());
        write(s -> List.of(timedOut, pinged, refused, elsewhere).forEach(s.webhooks()::insertAttempt));

        Page<DeliveryAttempt> first = read(s -> s.webhooks().attempts(org.id(), webhook.id(), PageRequest.first(2)));
        assertThat(first.data()).containsExactly(refused, pinged);
        assertThat(first.hasMore()).isTrue();
        Page<DeliveryAttempt> second = read(s -> s.webhooks().attempts(org.id(), webhook.id(),
                new PageRequest(2, first.nextCursor())));
        assertThat(second.data()).containsExactly(timedOut);
        assertThat(second.hasMore()).isFalse();
        assertThat(txList(s -> s.webhooks().attempts(org.id(), otherWebhook.id(), PageRequest.first(10)).data()))
                .containsExactly(elsewhere);
    }

    @Test
    void deliveryAttemptPagesVisitEveryAttemptOnceWhenTimesTie() {
        Organisation org = givenOrg();
        Webhook webhook = givenWebhook(org.id(), T0);
        List<DeliveryAttempt> made = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            EventId event = givenEvent(new DomainEvent.Ping(org.id(), webhook.id(), T0));
            for (int attempt = 1; attempt <= 2; attempt++) {
                made.add(new DeliveryAttempt(event, EventType.PING, webhook.id(), attempt, Optional.of(503),
                        Optional.empty(), 1, T0, Optional.of(T0.plusSeconds(60))));
            }
        }
        write(s -> made.forEach(s.webhooks()::insertAttempt));

        List<DeliveryAttempt> visited = allPages(request -> read(s -> s.webhooks().attempts(org.id(), webhook.id(),
                request)), 4);

        assertThat(visited).containsExactlyInAnyOrderElementsOf(made);
    }

    @Test
    void deliveryAttemptsAreReadOnlyThroughTheWebhooksOrganisation() {
        Organisation org = givenOrg();
        Organisation otherOrg = givenOrg();
        Webhook webhook = givenWebhook(org.id(), T0);
        EventId ping = givenEvent(new DomainEvent.Ping(org.id(), webhook.id(), T0));
        write(s -> s.webhooks().insertAttempt(new DeliveryAttempt(ping, EventType.PING, webhook.id(), 1,
                Optional.of(200), Optional.empty(), 9, T0, Optional.empty())));

        assertThat(txList(s -> s.webhooks().attempts(otherOrg.id(), webhook.id(), PageRequest.first(10)).data()))
                .isEmpty();
        assertThat(txList(s -> s.webhooks().attempts(org.id(), webhook.id(), PageRequest.first(10)).data())).hasSize(1);
    }

    // ---------------------------------------------------------------- export jobs

    @Test
    void anExportJobKeepsEveryFieldAndIsFoundOnlyThroughItsOrganisation() {
        Organisation org = givenOrg();
        Organisation otherOrg = givenOrg();
        Wallet wallet = givenWalletOfOrg(org);
        ExportJob filtered = ExportJob.pending(ids.export(), org.id(), ExportFormat.CSV, Optional.of(wallet.id()),
                Optional.of(T0.minusSeconds(3600)), Optional.of(T0), T0);
        ExportJob everything = ExportJob.pending(ids.export(), org.id(), ExportFormat.JSON, Optional.empty(),
                Optional.empty(), Optional.empty(), T0.plusMillis(1));

        write(s -> {
            s.exports().insert(filtered);
            s.exports().insert(everything);
        });

        assertThat(txOptional(s -> s.exports().find(org.id(), filtered.id()))).contains(filtered);
        assertThat(txOptional(s -> s.exports().find(org.id(), everything.id()))).contains(everything);
        assertThat(txOptional(s -> s.exports().find(otherOrg.id(), filtered.id()))).isEmpty();
        assertThat(txOptional(s -> s.exports().find(org.id(), ids.export()))).isEmpty();
    }

    @Test
    void aFinishedExportJobIsKeptAndIsClaimedNoMore() {
        Organisation org = givenOrg();
        ExportJob toFinish = givenExport(org.id(), T0);
        ExportJob toFail = givenExport(org.id(), T0.plusSeconds(1));
        ExportJob ready = toFinish.ready("exports/" + toFinish.id() + ".csv", 1_234_567_890_123L, T0.plusSeconds(5),
                T0.plusSeconds(3600));
        ExportJob failed = toFail.failed(T0.plusSeconds(6));

        write(s -> {
            s.exports().update(ready);
            s.exports().update(failed);
        });

        assertThat(txOptional(s -> s.exports().find(org.id(), toFinish.id()))).contains(ready);
        assertThat(txOptional(s -> s.exports().find(org.id(), toFail.id()))).contains(failed);
        assertThat(txList(s -> s.exports().claim(T0.plusSeconds(10), T0.plusSeconds(70), 3, 10))).isEmpty();
    }

    @Test
    void claimingLeasesPendingJobsOldestFirstAndPassesOverLeasedAndFinishedOnes() {
        Organisation org = givenOrg();
        ExportJob newer = givenExport(org.id(), T0.plusSeconds(10));
        ExportJob older = givenExport(org.id(), T0);
        ExportJob done = givenExport(org.id(), T0.minusSeconds(10));
        write(s -> s.exports().update(done.failed(T0)));

        List<ExportStore.Claimed> first = txList(s -> s.exports().claim(T0, T0.plusSeconds(60), 3, 1));
        assertThat(first).extracting(ExportStore.Claimed::job).containsExactly(older);
        assertThat(txList(s -> s.exports().claim(T0, T0.plusSeconds(60), 3, 10)))
                .extracting(ExportStore.Claimed::job).containsExactly(newer);
        assertThat(txList(s -> s.exports().claim(T0.plusSeconds(59), T0.plusSeconds(120), 3, 10))).isEmpty();
    }

    @Test
    void anOrganisationHasAtMostItsCapOfJobsClaimedWhileAnotherIsClaimedToo() {
        Organisation busy = givenOrg();
        Organisation quiet = givenOrg();
        List<ExportJob> busyJobs = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            busyJobs.add(givenExport(busy.id(), T0.plusSeconds(i)));
        }
        ExportJob quietJob = givenExport(quiet.id(), T0.plusSeconds(10));

        List<ExportStore.Claimed> claimed = txList(s -> s.exports().claim(T0.plusSeconds(20), T0.plusSeconds(80), 3, 10));

        assertThat(claimed).extracting(ExportStore.Claimed::job)
                .containsExactlyInAnyOrder(busyJobs.get(0), busyJobs.get(1), busyJobs.get(2), quietJob);
        assertThat(txList(s -> s.exports().claim(T0.plusSeconds(21), T0.plusSeconds(81), 3, 10))).isEmpty();

        ExportJob ready = busyJobs.get(0).ready("exports/a.csv", 0, T0.plusSeconds(30), T0.plusSeconds(90));
        assertThat(txBoolean(s -> s.exports().finish(claimed.get(0), ready))).isTrue();
        assertThat(txList(s -> s.exports().claim(T0.plusSeconds(31), T0.plusSeconds(91), 3, 10)))
                .as("a finished job makes room for the organisation's next one, and only one")
                .extracting(ExportStore.Claimed::job).containsExactly(busyJobs.get(3));
    }

    @Test
    void theOrganisationsTakeTurnsWhenFewerJobsAreClaimedThanWait() {
        Organisation early = givenOrg();
        Organisation late = givenOrg();
        ExportJob earlyFirst = givenExport(early.id(), T0);
        givenExport(early.id(), T0.plusSeconds(1));
        ExportJob lateFirst = givenExport(late.id(), T0.plusSeconds(2));

        assertThat(txList(s -> s.exports().claim(T0.plusSeconds(5), T0.plusSeconds(65), 3, 2)))
                .extracting(ExportStore.Claimed::job).containsExactly(earlyFirst, lateFirst);
    }

    @Test
    void aJobWhoseLeaseRanOutIsClaimedAgainAndTheFormerClaimCanNeitherRenewNorFinish() {
        Organisation org = givenOrg();
        ExportJob job = givenExport(org.id(), T0);
        ExportStore.Claimed stale = txList(s -> s.exports().claim(T0, T0.plusSeconds(60), 3, 1)).get(0);
        assertThat(txBoolean(s -> s.exports().renew(stale, T0.plusSeconds(90)))).isTrue();
        assertThat(txList(s -> s.exports().claim(T0.plusSeconds(89), T0.plusSeconds(149), 3, 1))).isEmpty();

        ExportStore.Claimed current = txList(s -> s.exports().claim(T0.plusSeconds(90), T0.plusSeconds(150), 3, 1)).get(0);

        assertThat(current.job()).isEqualTo(job);
        assertThat(current.claim()).isNotEqualTo(stale.claim());
        assertThat(txBoolean(s -> s.exports().renew(stale, T0.plusSeconds(200)))).isFalse();
        assertThat(txBoolean(s -> s.exports().finish(stale, job.failed(T0.plusSeconds(95))))).isFalse();
        assertThat(txOptional(s -> s.exports().find(org.id(), job.id()))).contains(job);
        ExportJob ready = job.ready("exports/x.json", 7, T0.plusSeconds(100), T0.plusSeconds(1000));
        assertThat(txBoolean(s -> s.exports().finish(current, ready))).isTrue();
        assertThat(txOptional(s -> s.exports().find(org.id(), job.id()))).contains(ready);
        assertThat(txBoolean(s -> s.exports().finish(current, ready))).as("finished once").isFalse();
        assertThat(txBoolean(s -> s.exports().renew(current, T0.plusSeconds(300)))).isFalse();
    }

    @Test
    void readyJobsAreDueToExpireAtTheirExpiryAndExpiredOnesKeepTheirRowCount() {
        Organisation org = givenOrg();
        ExportJob early = givenExport(org.id(), T0).ready("exports/e.csv", 4, T0, T0.plusSeconds(100));
        ExportJob late = givenExport(org.id(), T0.plusSeconds(1)).ready("exports/l.csv", 5, T0, T0.plusSeconds(200));
        ExportJob failed = givenExport(org.id(), T0.plusSeconds(2)).failed(T0);
        write(s -> {
            s.exports().update(early);
            s.exports().update(late);
            s.exports().update(failed);
        });

        assertThat(txList(s -> s.exports().claimExpired(T0.plusSeconds(99), 10))).isEmpty();
        assertThat(txList(s -> s.exports().claimExpired(T0.plusSeconds(100), 10))).containsExactly(early);
        assertThat(txList(s -> s.exports().claimExpired(T0.plusSeconds(500), 1))).containsExactly(early);
        write(s -> s.exports().update(early.expired()));

        assertThat(txOptional(s -> s.exports().find(org.id(), early.id()))).contains(early.expired());
        assertThat(txList(s -> s.exports().claimExpired(T0.plusSeconds(500), 10))).containsExactly(late);
    }

    @Test
    void exportListsAreTheOrganisationsJobsInEveryStatusNewestFirstInPages() {
        Organisation org = givenOrg();
        Organisation otherOrg = givenOrg();
        List<ExportJob> newestFirst = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            newestFirst.add(0, givenExport(org.id(), T0.plusSeconds(i)));
            givenExport(otherOrg.id(), T0.plusSeconds(i));
        }
        ExportJob ready = newestFirst.get(1).ready("exports/ready.csv", 3, T0.plusSeconds(9), T0.plusSeconds(99));
        ExportJob failed = newestFirst.get(3).failed(T0.plusSeconds(9));
        write(s -> {
            s.exports().update(ready);
            s.exports().update(failed);
        });
        newestFirst.set(1, ready);
        newestFirst.set(3, failed);

        Page<ExportJob> first = read(s -> s.exports().list(org.id(), PageRequest.first(3)));
        assertThat(first.data()).containsExactlyElementsOf(newestFirst.subList(0, 3));
        assertThat(first.hasMore()).isTrue();
        Page<ExportJob> second = read(s -> s.exports().list(org.id(), new PageRequest(3, first.nextCursor())));
        assertThat(second.data()).containsExactlyElementsOf(newestFirst.subList(3, 5));
        assertThat(second.hasMore()).isFalse();
    }

    // ---------------------------------------------------------------- dashboard users and sessions

    @Test
    void aUserKeepsEveryFieldAndIsFoundThroughItsOrganisationOrByEmail() {
        Organisation org = givenOrg();
        Organisation other = givenOrg();
        DashboardUser user = new DashboardUser(ids.next(UserId.PREFIX, UserId::new), org.id(), "ada@example.com",
                Role.OPERATOR, "$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA", 3,
                Optional.of(T0.plusSeconds(900)), T0.plusSeconds(5), T0);
        write(s -> s.users().insert(user));

        assertThat(txOptional(s -> s.users().find(org.id(), user.id()))).contains(user);
        assertThat(txOptional(s -> s.users().lock(org.id(), user.id()))).contains(user);
        assertThat(txOptional(s -> s.users().findByEmail("ada@example.com"))).contains(user);
        assertThat(txOptional(s -> s.users().find(other.id(), user.id()))).isEmpty();
        assertThat(txOptional(s -> s.users().lock(other.id(), user.id()))).isEmpty();
        assertThat(txOptional(s -> s.users().findByEmail("bob@example.com"))).isEmpty();
    }

    @Test
    void anEmailBelongsToOneUserOfAnyOrganisation() {
        givenUser(givenOrg().id(), "ada@example.com", T0);
        OrgId other = givenOrg().id();

        assertThatThrownBy(() -> givenUser(other, "ada@example.com", T0)).isInstanceOf(RuntimeException.class);
        assertThat(txList(s -> s.users().list(other))).isEmpty();
    }

    @Test
    void usersListOldestFirstAndAreUpdatedAndDeletedThroughTheirOrganisation() {
        Organisation org = givenOrg();
        Organisation other = givenOrg();
        DashboardUser newer = givenUser(org.id(), "newer@example.com", T0.plusSeconds(1));
        DashboardUser older = givenUser(org.id(), "older@example.com", T0);
        DashboardUser changed = older.withRole(Role.OWNER).failedSignIn(Optional.of(T0.plusSeconds(60)));
        write(s -> s.users().update(changed));
        write(s -> s.users().delete(other.id(), newer.id()));

        assertThat(txList(s -> s.users().list(org.id()))).containsExactly(changed, newer);
        assertThat(txList(s -> s.users().list(other.id()))).isEmpty();

        write(s -> s.users().delete(org.id(), newer.id()));
        assertThat(txList(s -> s.users().list(org.id()))).containsExactly(changed);
    }

    @Test
    void aSessionIsFoundByItsTokenHashAndEndedAloneOrWithAllOfItsUsers() {
        OrgId org = givenOrg().id();
        DashboardUser ada = givenUser(org, "ada@example.com", T0);
        DashboardUser bob = givenUser(org, "bob@example.com", T0);
        DashboardSession first = givenSession(ada, HASH_A, T0.plusSeconds(3600));
        DashboardSession second = givenSession(ada, HASH_B, T0.plusSeconds(3600));
        DashboardSession bobs = givenSession(bob, "c".repeat(64), T0.plusSeconds(3600));

        assertThat(txOptional(s -> s.dashboardSessions().findByTokenHash(HASH_A))).contains(first);
        assertThat(txOptional(s -> s.dashboardSessions().findByTokenHash("d".repeat(64)))).isEmpty();

        write(s -> s.dashboardSessions().delete(HASH_A));
        assertThat(txOptional(s -> s.dashboardSessions().findByTokenHash(HASH_A))).isEmpty();
        assertThat(txOptional(s -> s.dashboardSessions().findByTokenHash(HASH_B))).contains(second);

        int ended = read(s -> s.dashboardSessions().deleteAllOf(ada.id()));

        assertThat(ended).isEqualTo(1);
        assertThat(txOptional(s -> s.dashboardSessions().findByTokenHash(HASH_B))).isEmpty();
        assertThat(txOptional(s -> s.dashboardSessions().findByTokenHash(bobs.tokenHash()))).contains(bobs);
    }

    @Test
    void deletingAUserEndsItsSessions() {
        OrgId org = givenOrg().id();
        DashboardUser ada = givenUser(org, "ada@example.com", T0);
        givenSession(ada, HASH_A, T0.plusSeconds(3600));

        write(s -> s.users().delete(org, ada.id()));

        assertThat(txOptional(s -> s.dashboardSessions().findByTokenHash(HASH_A))).isEmpty();
    }

    @Test
    void deleteExpiredForgetsSessionsOfEveryUserExpiredAtOrBeforeTheInstantUpToTheLimit() {
        DashboardUser ada = givenUser(givenOrg().id(), "ada@example.com", T0);
        DashboardUser bob = givenUser(givenOrg().id(), "bob@example.com", T0);
        Instant now = T0.plusSeconds(3600);
        givenSession(ada, "1".repeat(64), now.minusSeconds(60));
        givenSession(bob, "2".repeat(64), now.minusMillis(1));
        givenSession(ada, "3".repeat(64), now);
        DashboardSession live = givenSession(bob, "4".repeat(64), now.plusMillis(1));

        int firstRound = read(s -> s.dashboardSessions().deleteExpired(now, 2));
        int secondRound = read(s -> s.dashboardSessions().deleteExpired(now, 10));

        assertThat(List.of(firstRound, secondRound)).containsExactly(2, 1);
        for (String gone : List.of("1", "2", "3")) {
            assertThat(txOptional(s -> s.dashboardSessions().findByTokenHash(gone.repeat(64)))).isEmpty();
        }
        assertThat(txOptional(s -> s.dashboardSessions().findByTokenHash(live.tokenHash()))).contains(live);
    }

    // ---------------------------------------------------------------- helpers: transactions

    /**
     * Claims until nothing qualifies, each claim in a transaction of its own that also takes the
     * claimed row out of the running (as the clockwork's change does); answers the rows in claim order.
     */
    protected final <T> List<T> claimAll(Function<Stores, Optional<T>> claim, BiConsumer<Stores, T> settle) {
        List<T> claimed = new ArrayList<>();
        Optional<T> next;
        do {
            next = storage.inTransaction(s -> {
                Optional<T> row = claim.apply(s);
                row.ifPresent(r -> settle.accept(s, r));
                return row;
            });
            next.ifPresent(claimed::add);
            assertThat(claimed).as("a claim must not return a row it already settled").doesNotHaveDuplicates();
        } while (next.isPresent());
        return claimed;
    }

    /** A read in a transaction of its own (after the writes it checks have committed). */
    protected final <T> T read(Function<Stores, T> work) {
        return storage.inTransaction(work);
    }

    // Typed forms of a one-call transaction, so that AssertJ picks the matching assertThat overload.

    protected final <T> Optional<T> txOptional(Function<Stores, Optional<T>> work) {
        return storage.inTransaction(work);
    }

    protected final boolean txBoolean(Predicate<Stores> work) {
        return storage.inTransaction(work::test);
    }

    protected final <T> List<T> txList(Function<Stores, List<T>> work) {
        return storage.inTransaction(work);
    }

    protected final <T> Set<T> txSet(Function<Stores, Set<T>> work) {
        return storage.inTransaction(work);
    }

    protected final void write(Consumer<Stores> work) {
        storage.inTransaction(s -> {
            work.accept(s);
            return null;
        });
    }

    // ---------------------------------------------------------------- helpers: rows

    private DashboardUser givenUser(OrgId orgId, String email, Instant createdAt) {
        DashboardUser user = new DashboardUser(ids.next(UserId.PREFIX, UserId::new), orgId, email, Role.VIEWER,
                "hash-of-" + email, 0, Optional.empty(), createdAt, createdAt);
        write(s -> s.users().insert(user));
        return user;
    }

    private DashboardSession givenSession(DashboardUser user, String tokenHash, Instant expiresAt) {
        DashboardSession session = new DashboardSession(tokenHash, user.id(), user.orgId(), "csrf-" + tokenHash, T0,
                expiresAt);
        write(s -> s.dashboardSessions().insert(session));
        return session;
    }

    protected final Organisation givenOrg() {
        Organisation org = new Organisation(ids.org(), "Org", Usdc.parse("1000.00"), T0);
        write(s -> s.organisations().insert(org));
        return org;
    }

    private Policy newPolicy(OrgId orgId, PolicyRules rules, Instant createdAt) {
        return new Policy(ids.policy(), orgId, "Policy", rules, 1, createdAt, createdAt);
    }

    protected final Policy givenPolicy(OrgId orgId, PolicyRules rules, Instant createdAt) {
        Policy policy = newPolicy(orgId, rules, createdAt);
        write(s -> s.policies().insert(policy));
        return policy;
    }

    private LedgerAddress nextAddress() {
        byte[] bytes = new byte[LedgerAddress.LENGTH];
        addressBytes.nextBytes(bytes);
        return LedgerAddress.of(bytes);
    }

    private Wallet newWallet(OrgId orgId, PolicyId policyId, String agentId, WalletStatus status, List<String> tags,
                             Instant createdAt) {
        return new Wallet(ids.wallet(), orgId, agentId, "label", policyId, tags, status, nextAddress(),
                Usdc.parse("100.00"), SpendSummary.EMPTY, 1, Optional.empty(), createdAt, createdAt);
    }

    protected final Wallet givenWallet(OrgId orgId, PolicyId policyId, String agentId, WalletStatus status,
                                       List<String> tags, Instant createdAt) {
        Wallet wallet = newWallet(orgId, policyId, agentId, status, tags, createdAt);
        assertThat(txBoolean(s -> s.wallets().insertIfAbsent(wallet))).isTrue();
        return wallet;
    }

    private Wallet givenWalletOfOrg(Organisation org) {
        return givenWallet(org.id(), givenPolicy(org.id(), PolicyRules.NONE, T0).id(), "agent", WalletStatus.ACTIVE,
                List.of(), T0);
    }

    private Webhook newWebhook(OrgId orgId, Instant createdAt) {
        return new Webhook(ids.webhook(), orgId, "https://hooks.example.com/" + ids.randomPart(),
                Subscription.parse(List.of("transaction.completed", "wallet.created")),
                Webhook.SECRET_PREFIX + ids.randomPart(), WebhookStatus.ACTIVE, createdAt, createdAt);
    }

    protected final Webhook givenWebhook(OrgId orgId, Instant createdAt) {
        Webhook webhook = newWebhook(orgId, createdAt);
        write(s -> s.webhooks().insert(webhook));
        return webhook;
    }

    /** An event in the outbox, as the use case that caused it writes it. */
    private EventId givenEvent(DomainEvent event) {
        return givenEvent(event, T0);
    }

    private EventId givenEvent(DomainEvent event, Instant createdAt) {
        return givenOutboxEvent(event, createdAt).id();
    }

    private OutboxEvent givenOutboxEvent(DomainEvent event, Instant createdAt) {
        OutboxEvent stored = new OutboxEvent(ids.event(), event, createdAt);
        write(s -> s.outbox().append(stored));
        return stored;
    }

    private static AlertingEvent alerting(OutboxEvent stored) {
        return AlertingEvent.of(stored).orElseThrow();
    }

    private ExportJob newExport(OrgId orgId, Instant createdAt) {
        return ExportJob.pending(ids.export(), orgId, ExportFormat.CSV, Optional.empty(), Optional.empty(),
                Optional.empty(), createdAt);
    }

    private ExportJob givenExport(OrgId orgId, Instant createdAt) {
        ExportJob job = newExport(orgId, createdAt);
        write(s -> s.exports().insert(job));
        return job;
    }

    private Wallet givenWalletOfNewOrg() {
        return givenWalletOfOrg(givenOrg());
    }

    private Transaction newTx(Wallet wallet, TransactionType type, TransactionStatus status, Instant at) {
        return Transaction.open(ids.tx(), wallet.orgId(), wallet.id(), type, status, Usdc.parse("1.50"), RECIPIENT, at);
    }

    protected final Transaction givenTx(Wallet wallet, TransactionType type, TransactionStatus status, Instant at) {
        Transaction tx = newTx(wallet, type, status, at);
        write(s -> s.transactions().insert(tx));
        return tx;
    }

    /** A payment that went to co-signing, whose approval window closes at {@code expiresAt}. */
    private Transaction givenCoSignTx(Wallet wallet, TransactionStatus status, Instant expiresAt) {
        Transaction tx = newTx(wallet, TransactionType.PAYMENT, status, T0)
                .withCoSign(new CoSign(new TestCoSigner(3).publicKey(), "cGF5bG9hZA==", expiresAt, Optional.empty(), Optional.empty()));
        write(s -> s.transactions().insert(tx));
        return tx;
    }

    /** A spend of a new payment of the wallet, logged. */
    private SpendEntry givenSpend(Wallet wallet, Instant at) {
        Transaction payment = givenTx(wallet, TransactionType.PAYMENT, TransactionStatus.CONFIRMED, at);
        SpendEntry entry = payment.spendEntry();
        write(s -> s.spendLog().append(wallet.id(), entry));
        return entry;
    }

    private List<SpendEntry> spends(Wallet wallet, TimeRange... ranges) {
        return read(s -> s.spendLog().entriesIn(wallet.id(), List.of(ranges)));
    }

    /** The instants {@code T0 + afterSeconds < t <= T0 + untilSeconds}. */
    private static TimeRange range(long afterSeconds, long untilSeconds) {
        return new TimeRange(T0.plusSeconds(afterSeconds), T0.plusSeconds(untilSeconds));
    }

    private Escrow newEscrow(Wallet from, EscrowId id, TxId lockTx, EscrowStatus status, Instant timeoutAt,
                             Instant createdAt) {
        return new Escrow(id, from.orgId(), from.id(), RECIPIENT, RECIPIENT, Optional.empty(), Usdc.parse("5.00"),
                "task", 600, timeoutAt, Optional.empty(), status, Optional.empty(),
                status == EscrowStatus.DISPUTED ? Optional.of(new Dispute("late", HASH_A, createdAt)) : Optional.empty(),
                lockTx, Optional.empty(), Optional.empty(), createdAt, createdAt);
    }

    /** An escrow from {@code from} with its lock transaction, written in the order the lock use case writes them. */
    private Escrow givenEscrow(Wallet from, EscrowStatus status, Instant timeoutAt, Instant createdAt) {
        return givenEscrow(from, Optional.empty(), status, timeoutAt, createdAt);
    }

    /** An escrow from {@code from} to the wallet {@code to}, of any organisation. */
    private Escrow givenEscrowTo(Wallet from, Wallet to, EscrowStatus status, Instant createdAt) {
        return givenEscrow(from, Optional.of(to), status, T0.plusSeconds(600), createdAt);
    }

    private Escrow givenEscrow(Wallet from, Optional<Wallet> to, EscrowStatus status, Instant timeoutAt,
                               Instant createdAt) {
        EscrowId id = ids.escrow();
        Transaction lockTx = newTx(from, TransactionType.ESCROW_LOCK, TransactionStatus.CONFIRMED, createdAt)
                .withEscrow(id);
        Escrow base = newEscrow(from, id, lockTx.id(), status, timeoutAt, createdAt);
        Escrow escrow = to.map(receiver -> new Escrow(base.id(), base.orgId(), base.fromWallet(),
                receiver.id().value(), receiver.address().base58(), Optional.of(receiver.id()), base.amount(),
                base.taskDescription(), base.timeoutSeconds(), base.timeoutAt(), base.expectedProof(), base.status(),
                base.proof(), base.dispute(), base.lockTx(), base.settleTx(), base.settleReason(), base.createdAt(),
                base.updatedAt())).orElse(base);
        write(s -> {
            s.escrows().insert(escrow);
            s.transactions().insert(lockTx);
        });
        return escrow;
    }

    private static Escrow withStatus(Escrow e, EscrowStatus status, Instant now) {
        return new Escrow(e.id(), e.orgId(), e.fromWallet(), e.toWallet(), e.receiver(), e.receiverWallet(), e.amount(),
                e.taskDescription(), e.timeoutSeconds(), e.timeoutAt(), e.expectedProof(), status, e.proof(),
                e.dispute(), e.lockTx(), e.settleTx(), Optional.of("changed"), e.createdAt(), now);
    }

    private static Policy withName(Policy p, String name, Instant now) {
        return new Policy(p.id(), p.orgId(), name, p.rules(), p.version() + 1, p.createdAt(), now);
    }

    private static PolicyAuditEntry auditEntry(Policy policy, long version, Instant at) {
        return new PolicyAuditEntry(policy.id(), policy.orgId(), version, PolicyAuditEntry.Action.UPDATED, Actor.SYSTEM,
                at, List.of(new FieldChange("name", "Policy", "Renamed")));
    }

    private static PolicyRules expiringAt(Instant expiry) {
        return new PolicyRules(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), List.of(),
                Set.of(), Optional.of(expiry), Optional.empty(), Optional.empty());
    }

    private static PolicyRules blocking(String... categories) {
        return new PolicyRules(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), List.of(),
                Set.of(categories), Optional.empty(), Optional.empty(), Optional.empty());
    }

    // ---------------------------------------------------------------- helpers: lists

    private List<Wallet> wallets(OrgId orgId, Optional<WalletStatus> status, List<String> tags) {
        return allPages(request -> read(s -> s.wallets().list(orgId, new WalletStore.Query(status, tags), request)), 100);
    }

    private List<Transaction> history(OrgId orgId, TransactionStore.Query query) {
        return allPages(request -> read(s -> s.transactions().list(orgId, query, request)), 100);
    }

    private static TransactionStore.Query query(Optional<WalletId> walletId, Optional<TransactionStatus> status,
                                                Optional<TransactionType> type, Optional<Instant> from,
                                                Optional<Instant> to) {
        return new TransactionStore.Query(walletId, status, type, from, to);
    }

    private List<Escrow> escrows(OrgId orgId, EscrowStore.Query query) {
        return escrows(Requester.of(orgId), query);
    }

    private List<Escrow> escrows(Requester party, EscrowStore.Query query) {
        return allPages(request -> read(s -> s.escrows().list(party, query, request)), 100);
    }

    /** Every item of a list, page by page, checking that no page is empty while more are announced. */
    private static <T> List<T> allPages(Function<PageRequest, Page<T>> list, int limit) {
        List<T> all = new ArrayList<>();
        PageRequest request = PageRequest.first(limit);
        for (int pages = 0; pages < 1000; pages++) {
            Page<T> page = list.apply(request);
            assertThat(page.data()).hasSizeLessThanOrEqualTo(limit);
            all.addAll(page.data());
            if (!page.hasMore()) {
                return all;
            }
            assertThat(page.data()).isNotEmpty();
            request = new PageRequest(limit, page.nextCursor());
        }
        throw new AssertionError("the pages never end");
    }
}
