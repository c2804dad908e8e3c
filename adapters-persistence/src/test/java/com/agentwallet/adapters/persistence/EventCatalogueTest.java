package com.agentwallet.adapters.persistence;

import com.agentwallet.core.auth.Requester;
import com.agentwallet.core.common.FieldUpdate;
import com.agentwallet.core.common.Rejection;
import com.agentwallet.core.crypto.Hashing;
import com.agentwallet.core.escrow.Escrow;
import com.agentwallet.core.escrow.LockEscrow;
import com.agentwallet.core.event.EventType;
import com.agentwallet.core.event.OutboxEvent;
import com.agentwallet.core.export.ExportFormat;
import com.agentwallet.core.export.ExportJob;
import com.agentwallet.core.id.EventId;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.TxId;
import com.agentwallet.core.idempotency.RequestKey;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.payment.TransactionStatus;
import com.agentwallet.core.payment.TransactionType;
import com.agentwallet.core.policy.Policy;
import com.agentwallet.core.testing.Addresses;
import com.agentwallet.core.testing.CoreFixture;
import com.agentwallet.core.testing.Outbox;
import com.agentwallet.core.testing.Scenario.FundedWallet;
import com.agentwallet.core.testing.Scenario;
import com.agentwallet.core.testing.TestCoSigner;
import com.agentwallet.core.wallet.AutoTopup;
import com.agentwallet.core.wallet.CreateWallet;
import com.agentwallet.core.wallet.Wallet;
import com.agentwallet.core.wallet.WalletStatus;
import com.agentwallet.core.wallet.WalletUpdate;
import com.agentwallet.core.webhook.Webhook;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static com.agentwallet.core.testing.PatchBuilder.patch;
import static com.agentwallet.core.testing.RulesBuilder.rules;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every event of the catalogue, caused by the real use case that causes it, with the exact body
 * {@link EventJson} renders for it: the envelope, then the fields in order and each value (ids,
 * decimal-string amounts, statuses, reasons), as docs/API.md's "Event payloads" table lists them.
 * The switch over {@link EventType} makes a new event fail to compile here until it has its case.
 */
class EventCatalogueTest {
    private static final String PAYEE = Addresses.external("payee");
    private static final String NOW = "2026-04-01T12:00:00.000Z";
    private static final String PROOF = Hashing.sha256Hex("the finished work");
    private static final String EVIDENCE = Hashing.sha256Hex("the evidence");

    private final CoreFixture core = new CoreFixture();
    private final Scenario given = new Scenario(core);
    private final Outbox outbox = new Outbox(core);
    private final TestCoSigner operator = new TestCoSigner(7);
    private OrgId org;
    private Policy open;

    @BeforeEach
    void anOrganisationWithAnOpenPolicy() {
        org = given.organisation("10000.00");
        open = given.policy(org, rules().build());
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(EventType.class)
    void eachEventCarriesTheFieldsAReceiverNeeds(EventType type) {
        Caused caused = switch (type) {
            case TRANSACTION_COMPLETED -> transactionCompleted();
            case TRANSACTION_BLOCKED -> transactionBlocked();
            case TRANSACTION_PENDING -> transactionPending();
            case TRANSACTION_CO_SIGN_REQUIRED -> transactionCoSignRequired();
            case TRANSACTION_FAILED -> transactionFailed();
            case TRANSACTION_REJECTED -> transactionRejected();
            case TRANSACTION_EXPIRED -> transactionExpired();
            case WALLET_CREATED -> walletCreated();
            case WALLET_FUNDED -> walletFunded();
            case WALLET_WITHDRAWN -> walletWithdrawn();
            case WALLET_FROZEN -> walletFrozen();
            case WALLET_UNFROZEN -> walletUnfrozen();
            case WALLET_ARCHIVED -> walletArchived();
            case BALANCE_LOW -> balanceLow();
            case POLICY_UPDATED -> policyUpdated();
            case POLICY_EXPIRED -> policyExpired();
            case ESCROW_CREATED -> escrowCreated();
            case ESCROW_RELEASED -> escrowReleased();
            case ESCROW_REFUNDED -> escrowRefunded();
            case ESCROW_DISPUTED -> escrowDisputed();
            case ORG_DEPOSIT_CONFIRMED -> orgDepositConfirmed();
            case EXPORT_READY -> exportReady();
            case PING -> ping();
        };

        OutboxEvent event = caused.event();
        assertThat(event.event().type()).isEqualTo(type);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("event", type.wireName());
        body.put("id", event.id().value());
        body.put("created_at", caused.expected().get("timestamp"));
        body.putAll(caused.expected());
        assertThat(EventJson.body(event)).as("body of %s", type.wireName()).containsExactlyEntriesOf(body);
        assertThat(event.id().value()).matches("evt_[0-9A-Za-z]{24}");
    }

    private Caused transactionCompleted() {
        FundedWallet wallet = given.wallet(org, open, "agent-1", "100");
        int mark = outbox.mark();

        Transaction tx = pay(wallet, "12.5", TransactionStatus.CONFIRMED);

        return new Caused(onlyNew(EventType.TRANSACTION_COMPLETED, mark), paymentFields(wallet, tx, "confirmed", "amount", "12.50",
                "tx_signature", tx.signature().orElseThrow(), "policy_triggered", false,
                "on_chain_slot", tx.slot().orElseThrow(), "timestamp", NOW));
    }

    private Caused transactionBlocked() {
        FundedWallet wallet = given.wallet(org, given.policy(org, rules().maxPerTx("10").build()), "agent-1", "100");
        int mark = outbox.mark();

        assertThat(given.pay(wallet, PAYEE, "25").rejection()).isInstanceOf(Rejection.PolicyViolated.class);

        OutboxEvent event = onlyNew(EventType.TRANSACTION_BLOCKED, mark);
        Transaction blocked = transactionNamedBy(event);
        assertThat(blocked.status()).isEqualTo(TransactionStatus.BLOCKED);
        assertThat(blocked.amount()).isEqualTo(Usdc.parse("25"));
        return new Caused(event, paymentFields(wallet, blocked, "blocked", "attempted_amount", "25.00",
                "violation", Map.of("rule", "max_per_tx", "limit", "10.00", "attempted", "25.00"), "timestamp", NOW));
    }

    private Caused transactionPending() {
        FundedWallet wallet = given.wallet(org, open, "agent-1", "100");
        core.ledger.leaveUnansweredWhen(instruction -> instruction instanceof LedgerInstruction.Pay);
        int mark = outbox.mark();

        Transaction tx = pay(wallet, "7.000001", TransactionStatus.PENDING);

        return new Caused(onlyNew(EventType.TRANSACTION_PENDING, mark),
                paymentFields(wallet, tx, "pending", "amount", "7.000001", "timestamp", NOW));
    }

    private Caused transactionCoSignRequired() {
        FundedWallet wallet = coSignedWallet();
        int mark = outbox.mark();

        Transaction held = pay(wallet, "60", TransactionStatus.PENDING_CO_SIGN);

        return new Caused(onlyNew(EventType.TRANSACTION_CO_SIGN_REQUIRED, mark), paymentFields(wallet, held, "pending_co_sign",
                "amount", "60.00", "co_sign_expires_at", "2026-04-04T12:00:00.000Z", "timestamp", NOW));
    }

    private Caused transactionFailed() {
        FundedWallet wallet = given.wallet(org, open, "agent-1", "100");
        core.ledger.rejectWhen(instruction -> instruction instanceof LedgerInstruction.Pay);
        int mark = outbox.mark();

        Transaction failed = pay(wallet, "5", TransactionStatus.FAILED);

        return ended(EventType.TRANSACTION_FAILED, mark, wallet, failed, "failed", "5.00",
                "fake_rejection: refused on demand", NOW);
    }

    private Caused transactionRejected() {
        FundedWallet wallet = coSignedWallet();
        Transaction held = pay(wallet, "60", TransactionStatus.PENDING_CO_SIGN);
        int mark = outbox.mark();

        Transaction rejected = core.payments.reject(org, held.id(), "not this one", TestCoSigner.APPROVER).value();

        return ended(EventType.TRANSACTION_REJECTED, mark, wallet, rejected, "rejected", "60.00", "not this one", NOW);
    }

    private Caused transactionExpired() {
        FundedWallet wallet = coSignedWallet();
        Transaction held = pay(wallet, "60", TransactionStatus.PENDING_CO_SIGN);
        core.clock.advance(Duration.ofHours(72));
        int mark = outbox.mark();

        assertThat(core.payments.expireCoSigns(10)).isEqualTo(1);

        Transaction expired = core.payments.get(org, held.id()).value();
        return ended(EventType.TRANSACTION_EXPIRED, mark, wallet, expired, "expired", "60.00",
                "no co-signature within the approval window", "2026-04-04T12:00:00.000Z");
    }

    private Caused walletCreated() {
        int mark = outbox.mark();

        Wallet wallet = core.wallets.create(new CreateWallet(org, "agent-7", "label", open.id(), List.of(),
                Optional.empty()), RequestKey.none()).value().wallet();

        return new Caused(onlyNew(EventType.WALLET_CREATED, mark), fields("wallet_id", wallet.id().value(),
                "agent_id", "agent-7", "solana_address", core.ledger.walletAddress(org, "agent-7").base58(),
                "policy_id", open.id().value(), "status", "active", "timestamp", NOW));
    }

    private Caused walletFunded() {
        FundedWallet wallet = given.wallet(org, open, "agent-1", "10");
        int mark = outbox.mark();

        core.wallets.fund(org, wallet.wallet().id(), Usdc.parse("25.5"), RequestKey.none()).value();

        return balanceMoved(EventType.WALLET_FUNDED, mark, wallet, TransactionType.FUNDING, "25.50", "35.50");
    }

    private Caused walletWithdrawn() {
        FundedWallet wallet = given.wallet(org, open, "agent-1", "100");
        int mark = outbox.mark();

        core.wallets.withdraw(org, wallet.wallet().id(), Optional.of(Usdc.parse("30")), RequestKey.none()).value();

        return balanceMoved(EventType.WALLET_WITHDRAWN, mark, wallet, TransactionType.WITHDRAWAL, "30.00", "70.00");
    }

    private Caused walletFrozen() {
        FundedWallet wallet = given.wallet(org, open, "agent-1", "0");
        int mark = outbox.mark();

        setStatus(wallet, WalletStatus.FROZEN);

        return walletStatus(EventType.WALLET_FROZEN, mark, wallet, "frozen");
    }

    private Caused walletUnfrozen() {
        FundedWallet wallet = given.wallet(org, open, "agent-1", "0");
        setStatus(wallet, WalletStatus.FROZEN);
        int mark = outbox.mark();

        setStatus(wallet, WalletStatus.ACTIVE);

        return walletStatus(EventType.WALLET_UNFROZEN, mark, wallet, "active");
    }

    private Caused walletArchived() {
        FundedWallet wallet = given.wallet(org, open, "agent-1", "0");
        int mark = outbox.mark();

        core.wallets.archive(org, wallet.wallet().id()).value();

        return walletStatus(EventType.WALLET_ARCHIVED, mark, wallet, "archived");
    }

    private Caused balanceLow() {
        FundedWallet wallet = given.wallet(org, open, "agent-1", "150");
        core.wallets.setAutoTopup(org, wallet.wallet().id(),
                Optional.of(new AutoTopup(true, Usdc.parse("100"), Usdc.parse("500")))).value();
        int mark = outbox.mark();

        given.pay(wallet, PAYEE, "60.25").value();

        return new Caused(onlyNew(EventType.BALANCE_LOW, mark), fields("wallet_id", wallet.wallet().id().value(),
                "agent_id", "agent-1", "current_balance", "89.75", "threshold", "100.00", "currency", "USDC",
                "timestamp", NOW));
    }

    private Caused policyUpdated() {
        Policy policy = given.policy(org, rules().maxPerTx("100").build());
        int mark = outbox.mark();

        core.policies.update(org, policy.id(), patch().maxPerTx("150").build(), Scenario.ADMIN).value();

        return new Caused(onlyNew(EventType.POLICY_UPDATED, mark), fields("policy_id", policy.id().value(),
                "version", 2L, "changes", Map.of("max_per_tx", Map.of("old", "100.00", "new", "150.00")),
                "timestamp", NOW));
    }

    private Caused policyExpired() {
        Instant expiry = core.clock.instant().plus(Duration.ofDays(1));
        Policy expiring = given.policy(org, rules().expiry(expiry).build());
        FundedWallet wallet = given.wallet(org, expiring, "agent-1", "0");
        core.clock.set(expiry.plusSeconds(5));
        int mark = outbox.mark();

        assertThat(core.wallets.freezeExpired(10)).isEqualTo(1);

        return new Caused(onlyNew(EventType.POLICY_EXPIRED, mark), fields("wallet_id", wallet.wallet().id().value(),
                "agent_id", "agent-1", "policy_id", expiring.id().value(), "expiry", "2026-04-02T12:00:00.000Z",
                "status", "frozen", "timestamp", "2026-04-02T12:00:05.000Z"));
    }

    private Caused escrowCreated() {
        Escrows escrows = new Escrows();
        int mark = outbox.mark();

        Escrow escrow = escrows.lock();

        return new Caused(onlyNew(EventType.ESCROW_CREATED, mark), escrows.fields(escrow, "locked",
                "timeout_at", "2026-04-01T13:00:00.000Z", "lock_tx_id", escrow.lockTx().value(), "timestamp", NOW));
    }

    private Caused escrowReleased() {
        Escrows escrows = new Escrows();
        Escrow escrow = escrows.lock();
        int mark = outbox.mark();

        Escrow released = core.escrows.complete(Requester.of(org), escrow.id(), "output_hash", PROOF).value();

        return new Caused(onlyNew(EventType.ESCROW_RELEASED, mark), escrows.fields(escrow, "released",
                "settle_reason", "proof_verified", "settle_tx_id", released.settleTx().orElseThrow().value(),
                "timestamp", NOW));
    }

    private Caused escrowRefunded() {
        Escrows escrows = new Escrows();
        Escrow escrow = escrows.lock();
        core.clock.set(escrow.timeoutAt());
        int mark = outbox.mark();

        assertThat(core.escrows.refundTimedOut(10)).isEqualTo(1);
        Escrow refunded = core.escrows.get(Requester.of(org), escrow.id()).value();

        return new Caused(onlyNew(EventType.ESCROW_REFUNDED, mark), escrows.fields(escrow, "refunded",
                "settle_reason", "timeout", "settle_tx_id", refunded.settleTx().orElseThrow().value(),
                "timestamp", "2026-04-01T13:00:00.000Z"));
    }

    private Caused escrowDisputed() {
        Escrows escrows = new Escrows();
        Escrow escrow = escrows.lock();
        int mark = outbox.mark();

        core.escrows.dispute(Requester.of(org), escrow.id(), "output was empty", EVIDENCE).value();

        return new Caused(onlyNew(EventType.ESCROW_DISPUTED, mark), escrows.fields(escrow, "disputed",
                "reason", "output was empty", "evidence", EVIDENCE, "timestamp", NOW));
    }

    private Caused orgDepositConfirmed() {
        int mark = outbox.mark();

        core.organisations.deposit(org, Usdc.parse("250.000001")).value();

        return new Caused(onlyNew(EventType.ORG_DEPOSIT_CONFIRMED, mark), fields("org_id", org.value(),
                "amount", "250.000001", "currency", "USDC", "usdc_balance", "10250.000001", "timestamp", NOW));
    }

    private Caused exportReady() {
        FundedWallet wallet = given.wallet(org, open, "agent-1", "100");
        given.pay(wallet, PAYEE, "1").value();
        ExportJob job = core.exports.request(org, ExportFormat.JSON, Optional.of(wallet.wallet().id()),
                Optional.empty(), Optional.empty(), RequestKey.none()).value();
        core.clock.advance(Duration.ofMinutes(1));
        int mark = outbox.mark();

        assertThat(core.exports.generatePending(10)).isEqualTo(1);

        return new Caused(onlyNew(EventType.EXPORT_READY, mark), fields("export_id", job.id().value(),
                "status", "ready", "format", "json", "wallet_id", wallet.wallet().id().value(), "from", null, "to", null,
                "row_count", 2L, "download_path", "/transactions/exports/" + job.id().value() + "/download",
                "timestamp", "2026-04-01T12:01:00.000Z"));
    }

    private Caused ping() {
        Webhook webhook = core.webhooks.create(org, "https://hooks.example.com/agent-wallet", List.of("wallet.created"), RequestKey.none()).value();
        int mark = outbox.mark();

        EventId id = core.webhooks.test(org, webhook.id()).value();

        OutboxEvent event = onlyNew(EventType.PING, mark);
        assertThat(event.id()).isEqualTo(id);
        return new Caused(event, fields("webhook_id", webhook.id().value(), "timestamp", NOW));
    }

    /** A sender with 1000.00 and a receiving wallet; each lock escrows 200.00 for an hour. */
    private final class Escrows {
        final FundedWallet sender = given.wallet(org, open, "sender", "1000");
        final FundedWallet receiver = given.wallet(org, open, "receiver", "0");

        Escrow lock() {
            return core.escrows.lock(new LockEscrow(org, sender.wallet().id(), receiver.wallet().id().value(),
                    Usdc.parse("200"), "summarise the report", 3600, Optional.empty(),
                    Optional.of(sender.session())), RequestKey.none()).value();
        }

        Map<String, Object> fields(Escrow escrow, String status, Object... own) {
            Map<String, Object> fields = EventCatalogueTest.fields("escrow_id", escrow.id().value(),
                    "from_wallet", sender.wallet().id().value(), "to_wallet", receiver.wallet().id().value(),
                    "recipient", receiver.wallet().address().base58(), "amount", "200.00", "currency", "USDC",
                    "status", status);
            fields.putAll(EventCatalogueTest.fields(own));
            return fields;
        }
    }

    private FundedWallet coSignedWallet() {
        return given.wallet(org, given.policy(org, rules().coSignAtOrAbove("50", operator).build()), "agent-1", "100");
    }

    private Transaction pay(FundedWallet wallet, String amount, TransactionStatus expected) {
        Transaction tx = given.pay(wallet, PAYEE, amount).value().transaction();
        assertThat(tx.status()).isEqualTo(expected);
        return tx;
    }

    private Caused ended(EventType type, int mark, FundedWallet wallet, Transaction tx, String status, String amount,
                         String reason, String at) {
        return new Caused(onlyNew(type, mark), paymentFields(wallet, tx, status, "amount", amount,
                "failure_reason", reason, "timestamp", at));
    }

    /**
     * The fields every event of the payment {@code tx} from {@code wallet} to the payee starts with,
     * then {@code own}.
     */
    private static Map<String, Object> paymentFields(FundedWallet wallet, Transaction tx, String status,
                                                     String amountField, String amount, Object... own) {
        Map<String, Object> fields = fields("wallet_id", wallet.wallet().id().value(), "tx_id", tx.id().value(),
                "type", "payment", "status", status, amountField, amount, "currency", "USDC",
                "recipient", PAYEE);
        fields.putAll(fields(own));
        return fields;
    }

    /** A wallet.funded or wallet.withdrawn naming its confirmed transaction of {@code txType} and {@code amount}. */
    private Caused balanceMoved(EventType type, int mark, FundedWallet wallet, TransactionType txType, String amount,
                                String balanceAfter) {
        OutboxEvent event = onlyNew(type, mark);
        Transaction tx = transactionNamedBy(event);
        assertThat(tx.type()).isEqualTo(txType);
        assertThat(tx.status()).isEqualTo(TransactionStatus.CONFIRMED);
        assertThat(tx.amount()).isEqualTo(Usdc.parse(amount));
        return new Caused(event, fields("wallet_id", wallet.wallet().id().value(), "agent_id", "agent-1",
                "tx_id", tx.id().value(), "amount", amount, "currency", "USDC", "usdc_balance", balanceAfter,
                "timestamp", NOW));
    }

    private Caused walletStatus(EventType type, int mark, FundedWallet wallet, String status) {
        return new Caused(onlyNew(type, mark), fields("wallet_id", wallet.wallet().id().value(), "agent_id", "agent-1",
                "status", status, "timestamp", NOW));
    }

    private void setStatus(FundedWallet wallet, WalletStatus status) {
        core.wallets.update(org, wallet.wallet().id(),
                new WalletUpdate(FieldUpdate.keep(), FieldUpdate.keep(), Optional.of(status))).value();
    }

    /** The one event of {@code type} the action after {@code mark} caused. */
    private OutboxEvent onlyNew(EventType type, int mark) {
        List<OutboxEvent> found = outbox.since(mark).stream().filter(e -> e.event().type() == type).toList();
        assertThat(found).as("%s events since the action", type.wireName()).hasSize(1);
        return found.get(0);
    }

    private Transaction transactionNamedBy(OutboxEvent event) {
        return core.payments.get(org, new TxId((String) EventJson.body(event).get("tx_id"))).value();
    }

    /** Names and values in order; a value may be null, as a field that is not set is. */
    private static Map<String, Object> fields(Object... namesAndValues) {
        Map<String, Object> fields = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            fields.put((String) namesAndValues[i], namesAndValues[i + 1]);
        }
        return fields;
    }

    /** The event an action caused, and the payload it must carry. */
    private record Caused(OutboxEvent event, Map<String, Object> expected) {
    }
}
