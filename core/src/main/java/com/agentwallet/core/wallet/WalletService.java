package com.agentwallet.core.wallet;

import com.agentwallet.core.CoreSettings;
import com.agentwallet.core.common.Page;
import com.agentwallet.core.common.PageRequest;
import com.agentwallet.core.common.Rejection;
import com.agentwallet.core.common.Repeat;
import com.agentwallet.core.common.Result;
import com.agentwallet.core.common.Transition;
import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.event.DomainEvent;
import com.agentwallet.core.event.EventPublisher;
import com.agentwallet.core.id.IdGenerator;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.PolicyId;
import com.agentwallet.core.id.TxId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.idempotency.RequestKey;
import com.agentwallet.core.ledger.LedgerAddress;
import com.agentwallet.core.ledger.LedgerAdmin;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.payment.Settlement;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.payment.TransactionStatus;
import com.agentwallet.core.payment.TransactionType;
import com.agentwallet.core.policy.SessionGrant;
import com.agentwallet.core.policy.SpendSummary;
import com.agentwallet.core.port.LedgerPort;
import com.agentwallet.core.port.Storage;
import com.agentwallet.core.port.Stores;
import com.agentwallet.core.port.WalletStore;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/** Use cases of wallets: provisioning, changes of details and status, funding, withdrawal, archiving, tokens. */
public final class WalletService {
    private final Storage storage;
    private final LedgerPort ledger;
    private final Settlement settlement;
    private final Allocation allocation;
    private final EventPublisher events;
    private final IdGenerator ids;
    private final Clock clock;
    private final CoreSettings settings;

    public WalletService(Storage storage, LedgerPort ledger, Settlement settlement, Allocation allocation,
                         EventPublisher events, IdGenerator ids, Clock clock, CoreSettings settings) {
        this.storage = requireNonNull(storage, "storage is null");
        this.ledger = requireNonNull(ledger, "ledger is null");
        this.settlement = requireNonNull(settlement, "settlement is null");
        this.allocation = requireNonNull(allocation, "allocation is null");
        this.events = requireNonNull(events, "events is null");
        this.ids = requireNonNull(ids, "ids is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.settings = requireNonNull(settings, "settings is null");
    }

    /**
     * Opens a wallet with its first session token. A replay of {@code key} answers the wallet as it is
     * now with the token its first request was given (which a rotation since has ended).
     */
    public Result<CreatedWallet> create(CreateWallet command, RequestKey key) {
        Duration ttl = sessionTtl(command.sessionTtl());
        return storage.inTransaction(stores -> key.once(stores, clock.instant(), () -> open(stores, command, ttl),
                created -> created.wallet().id().value(),
                subject -> Result.found(stores.wallets().find(command.orgId(), new WalletId(subject)), "wallet",
                        new WalletId(subject)).map(wallet -> new CreatedWallet(wallet, new SessionGrant(wallet.id(),
                        Wallet.FIRST_SESSION_VERSION, wallet.createdAt().plus(ttl))))));
    }

    private Result<CreatedWallet> open(Stores stores, CreateWallet command, Duration ttl) {
        if (stores.policies().find(command.orgId(), command.policyId()).isEmpty()) {
            return Result.refused(new Rejection.NotFound("policy", command.policyId().value()));
        }
        Instant now = clock.instant();
        LedgerAddress address = ledger.walletAddress(command.orgId(), command.agentId());
        Wallet wallet = new Wallet(ids.wallet(), command.orgId(), command.agentId(), command.label(),
                command.policyId(), command.tags(), WalletStatus.ACTIVE, address, Usdc.ZERO, SpendSummary.EMPTY,
                Wallet.FIRST_SESSION_VERSION, Optional.empty(), now, now);
        if (!stores.wallets().insertIfAbsent(wallet)) {
            return Result.refused(new Rejection.AlreadyExists(
                    "The organisation already has a wallet for agent '" + command.agentId() + "'"));
        }
        LedgerAdmin.require(ledger, new LedgerInstruction.OpenWallet("open:" + address, address,
                command.orgId(), command.agentId(), command.policyId()));
        SessionGrant grant = new SessionGrant(wallet.id(), wallet.sessionVersion(), now.plus(ttl));
        writeSessionKey(stores, wallet, grant);
        events.publish(stores, new DomainEvent.WalletCreated(wallet, now));
        return Result.ok(new CreatedWallet(wallet, grant));
    }

    public Result<Wallet> get(OrgId orgId, WalletId walletId) {
        return storage.readOne(stores -> Result.found(stores.wallets().find(orgId, walletId), "wallet", walletId));
    }

    /** The wallet with what its policy still allows now: its caps' rolling totals moved to this instant. */
    public Result<Allowance> allowance(OrgId orgId, WalletId walletId) {
        Instant now = clock.instant();
        return storage.readOne(stores -> Result.found(stores.wallets().find(orgId, walletId), "wallet", walletId)
                .map(wallet -> new Allowance(wallet, stores.policies().find(orgId, wallet.policyId())
                        .orElseThrow(() -> new IllegalStateException("policy of wallet " + walletId + " is missing"))
                        .rules(), stores.spendLog().advance(walletId, wallet.spend(), now), now)));
    }

    /**
     * Whether a session token's grant, already verified as issued to {@code orgId}, still lets its
     * agent act: its wallet exists, and the token is neither rotated away nor expired.
     */
    public boolean isSessionLive(OrgId orgId, SessionGrant grant) {
        Instant now = clock.instant();
        return storage.readOne(stores -> stores.wallets().find(orgId, grant.walletId()))
                .filter(wallet -> grant.problemFor(wallet.id(), wallet.sessionVersion(), now).isEmpty())
                .isPresent();
    }

    public Page<Wallet> list(OrgId orgId, WalletStore.Query query, PageRequest page) {
        return storage.readOne(stores -> stores.wallets().list(orgId, query, page));
    }

    public Result<Wallet> update(OrgId orgId, WalletId walletId, WalletUpdate update) {
        return storage.inTransaction(stores -> lockOpen(stores, orgId, walletId).flatMap(wallet -> {
            Instant now = clock.instant();
            PolicyId policyId = update.policyId().applyToRequired(wallet.policyId(), "policy_id");
            if (!policyId.equals(wallet.policyId()) && stores.policies().find(orgId, policyId).isEmpty()) {
                return Result.refused(new Rejection.NotFound("policy", policyId.value()));
            }
            String label = Wallet.requireLabel(update.label().applyToRequired(wallet.label(), "label"));
            Wallet changed = wallet.withDetails(label, policyId, now);
            List<DomainEvent> statusEvents = List.of();
            if (update.status().isPresent() && update.status().get() != wallet.status()) {
                WalletCommand command = update.status().get() == WalletStatus.FROZEN
                        ? new WalletCommand.Freeze() : new WalletCommand.Unfreeze();
                Result<Transition<Wallet>> transition = WalletMachine.apply(changed, command, now);
                if (!transition.isOk()) {
                    return Result.refused(transition.rejection());
                }
                changed = transition.value().state();
                statusEvents = transition.value().events();
            }
            if (changed.status() != wallet.status() || !changed.policyId().equals(wallet.policyId())) {
                syncToLedger(stores, changed);
            }
            stores.wallets().update(changed);
            events.publish(stores, statusEvents);
            return Result.ok(changed);
        }));
    }

    /** Allocates organisation funds to the wallet; answers the wallet after the ledger's outcome. */
    public Result<Wallet> fund(OrgId orgId, WalletId walletId, Usdc amount, RequestKey key) {
        return fundBatch(orgId, List.of(new Funding(walletId, amount)), key).map(wallets -> wallets.get(0));
    }

    /**
     * Allocates to several wallets at once: all are accepted, or none (a missing wallet, too little
     * money). A replay of {@code key} allocates nothing and answers the wallets as they are now.
     */
    public Result<List<Wallet>> fundBatch(OrgId orgId, List<Funding> lines, RequestKey key) {
        ValidationException.check(!lines.isEmpty() && lines.size() <= Funding.MAX_BATCH, "data",
                "a batch holds 1 to " + Funding.MAX_BATCH + " fundings");
        Set<WalletId> distinct = new HashSet<>();
        for (Funding line : lines) {
            ValidationException.check(distinct.add(line.walletId()), "wallet_id",
                    "wallet " + line.walletId() + " appears twice in the batch");
        }
        Result<List<Transaction>> accepted = storage.inTransaction(stores -> key.once(stores, clock.instant(), () -> {
            List<Wallet> wallets = new ArrayList<>();
            for (Funding line : lines.stream().sorted(Comparator.comparing(l -> l.walletId().value())).toList()) {
                Result<Wallet> wallet = lockOpen(stores, orgId, line.walletId());
                if (!wallet.isOk()) {
                    return Result.refused(wallet.rejection());
                }
                wallets.add(wallet.value());
            }
            List<Usdc> amounts = wallets.stream().map(w -> amountFor(lines, w.id())).toList();
            return allocation.fund(stores, orgId, wallets, amounts, clock.instant());
        }, fundings -> fundings.stream().map(tx -> tx.id().value()).collect(Collectors.joining(",")),
                subject -> Result.ok(transactions(stores, orgId, subject))));
        return accepted.map(fundings -> {
            settlement.settleAll(orgId, fundings.stream().map(Transaction::id).toList());
            return lines.stream().map(line -> get(orgId, line.walletId()).value()).toList();
        });
    }

    /**
     * Returns wallet funds to the organisation; {@code amount} empty means the whole balance. Works
     * on archived wallets too, for money that reached one after it was archived.
     */
    public Result<Wallet> withdraw(OrgId orgId, WalletId walletId, Optional<Usdc> amount, RequestKey key) {
        Result<Transaction> withdrawal = storage.inTransaction(stores -> key.once(stores, clock.instant(),
                () -> Result.found(stores.wallets().lock(orgId, walletId), "wallet", walletId)
                        .flatMap(wallet -> startWithdrawal(stores, wallet, amount.orElse(wallet.balance()))),
                tx -> tx.id().value(), subject -> Result.ok(transactions(stores, orgId, subject).get(0))));
        return withdrawal.flatMap(tx -> {
            settlement.settle(orgId, tx.id());
            return get(orgId, walletId);
        });
    }

    /**
     * Archives the wallet and returns its balance to the organisation. Refused while it has a locked
     * or disputed escrow or a payment waiting for its co-signature.
     */
    public Result<Wallet> archive(OrgId orgId, WalletId walletId) {
        record Archived(Wallet wallet, Optional<Transaction> withdrawal) {
        }
        Result<Archived> archived = storage.inTransaction(stores -> lockOpen(stores, orgId, walletId).flatMap(wallet -> {
            if (stores.escrows().anyOpenFrom(orgId, walletId)) {
                return Result.refused(new Rejection.InvalidState(
                        "Wallet " + walletId + " has a locked or disputed escrow; settle it before archiving"));
            }
            if (stores.transactions().anyAwaitingCoSign(orgId, walletId)) {
                return Result.refused(new Rejection.InvalidState(
                        "Wallet " + walletId + " has a payment waiting for co-signature; co-sign or reject it first"));
            }
            Instant now = clock.instant();
            Transition<Wallet> transition = WalletMachine.apply(wallet, new WalletCommand.Archive(), now).value();
            Wallet next = transition.state();
            syncToLedger(stores, next);
            stores.wallets().update(next);
            events.publish(stores, transition.events());
            if (next.balance().isZero()) {
                return Result.ok(new Archived(next, Optional.empty()));
            }
            return startWithdrawal(stores, next, next.balance()).map(tx -> new Archived(next, Optional.of(tx)));
        }));
        return archived.flatMap(done -> {
            done.withdrawal().ifPresent(tx -> settlement.settle(orgId, tx.id()));
            return get(orgId, walletId);
        });
    }

    public Result<Wallet> setAutoTopup(OrgId orgId, WalletId walletId, Optional<AutoTopup> rule) {
        return storage.inTransaction(stores -> lockOpen(stores, orgId, walletId).map(wallet -> {
            Wallet next = wallet.withAutoTopup(rule, clock.instant());
            stores.wallets().update(next);
            return next;
        }));
    }

    /** Revokes every session token of the wallet at once and grants a new one. */
    public Result<SessionGrant> rotateSession(OrgId orgId, WalletId walletId, Optional<Duration> ttl) {
        Duration lifetime = sessionTtl(ttl);
        return storage.inTransaction(stores -> lockOpen(stores, orgId, walletId).map(wallet -> {
            Instant now = clock.instant();
            Wallet next = wallet.withNextSessionVersion(now);
            stores.wallets().update(next);
            SessionGrant grant = new SessionGrant(walletId, next.sessionVersion(), now.plus(lifetime));
            writeSessionKey(stores, next, grant);
            return grant;
        }));
    }

    /**
     * Clockwork: freezes up to {@code limit} active wallets whose policy expired, each claimed in a
     * transaction of its own and announced with {@code policy.expired}; answers how many.
     */
    public int freezeExpired(int limit) {
        return Repeat.upTo(limit, () -> storage.inTransaction(stores -> stores.wallets()
                .claimActiveWithPolicyExpired(clock.instant())
                .map(wallet -> {
                    Instant expiry = stores.policies().find(wallet.orgId(), wallet.policyId())
                            .flatMap(policy -> policy.rules().expiry()).orElseThrow();
                    Transition<Wallet> transition = WalletMachine.apply(wallet,
                            new WalletCommand.PolicyExpired(expiry), clock.instant()).value();
                    syncToLedger(stores, transition.state());
                    stores.wallets().update(transition.state());
                    events.publish(stores, transition.events());
                    return wallet;
                })
                .isPresent()));
    }

    /** The transactions a request key's subject names, in its order. */
    private static List<Transaction> transactions(Stores stores, OrgId orgId, String subject) {
        return Arrays.stream(subject.split(",")).map(id -> stores.transactions().find(orgId, new TxId(id))
                .orElseThrow(() -> new IllegalStateException("a request key names the missing transaction " + id)))
                .toList();
    }

    private Result<Transaction> startWithdrawal(Stores stores, Wallet wallet, Usdc amount) {
        if (amount.isZero() || wallet.balance().isLessThan(amount)) {
            return Result.refused(new Rejection.InsufficientFunds(
                    "Wallet " + wallet.id() + " holds " + wallet.balance() + "; cannot withdraw " + amount));
        }
        Instant now = clock.instant();
        stores.wallets().update(wallet.withBalance(wallet.balance().minus(amount), now));
        Transaction withdrawal = Transaction.open(ids.tx(), wallet.orgId(), wallet.id(), TransactionType.WITHDRAWAL,
                TransactionStatus.PENDING, amount, wallet.orgId().value(), now);
        stores.transactions().insert(withdrawal);
        return Result.ok(withdrawal);
    }

    private void syncToLedger(Stores stores, Wallet wallet) {
        LedgerAdmin.requireSequenced(ledger, stores.adminSequence(), sequence -> new LedgerInstruction.UpdateWallet(
                "wallet:" + wallet.id() + ":" + wallet.status().wireName() + ":" + wallet.policyId() + ":s" + sequence,
                wallet.address(), wallet.status(), wallet.policyId(), sequence));
    }

    /**
     * Puts the key of the grant's session version on chain. It stays valid there for the co-sign
     * window past the token's expiry, so that a payment made under a live token can still be
     * co-signed; a newer version replaces it at once.
     */
    private void writeSessionKey(Stores stores, Wallet wallet, SessionGrant grant) {
        LedgerAdmin.requireSequenced(ledger, stores.adminSequence(), sequence -> new LedgerInstruction.SetSessionKey(
                "session:" + wallet.id() + ":" + grant.version() + ":s" + sequence, wallet.address(), grant.version(),
                grant.expiresAt().plus(settings.coSignWindow()), sequence));
    }

    private Duration sessionTtl(Optional<Duration> requested) {
        Duration ttl = requested.orElse(settings.defaultSessionTtl());
        ValidationException.check(ttl.compareTo(settings.minSessionTtl()) >= 0
                        && ttl.compareTo(settings.maxSessionTtl()) <= 0, "ttl_seconds",
                "'ttl_seconds' must be between " + settings.minSessionTtl().toSeconds() + " and "
                        + settings.maxSessionTtl().toSeconds());
        return ttl;
    }

    /** The wallet, locked, unless it is missing (not found) or archived (invalid state). */
    private static Result<Wallet> lockOpen(Stores stores, OrgId orgId, WalletId walletId) {
        return Result.found(stores.wallets().lock(orgId, walletId), "wallet", walletId).flatMap(wallet ->
                wallet.status() == WalletStatus.ARCHIVED
                        ? Result.refused(new Rejection.InvalidState("Wallet " + walletId + " is archived"))
                        : Result.ok(wallet));
    }

    private static Usdc amountFor(List<Funding> lines, WalletId walletId) {
        return lines.stream().filter(l -> l.walletId().equals(walletId)).findFirst().orElseThrow().amount();
    }
}
