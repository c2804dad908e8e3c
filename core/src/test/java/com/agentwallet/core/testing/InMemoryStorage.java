package com.agentwallet.core.testing;
import com.agentwallet.core.id.EventId;
import com.agentwallet.core.port.AdminSequence;
import com.agentwallet.core.port.DashboardSessionStore;
import com.agentwallet.core.port.DeliveryStore;
import com.agentwallet.core.webhook.Delivery;
import com.agentwallet.core.webhook.DeliveryStatus;
import com.agentwallet.core.webhook.DueDelivery;
import com.agentwallet.core.webhook.StoredEvent;
import com.agentwallet.core.webhook.UnfannedEvent;
import com.agentwallet.core.webhook.WebhookStatus;
import java.util.Collection;

import com.agentwallet.core.alert.AlertingEvent;
import com.agentwallet.core.auth.ApiKey;
import com.agentwallet.core.auth.Requester;
import com.agentwallet.core.common.Cursor;
import com.agentwallet.core.common.Page;
import com.agentwallet.core.common.PageRequest;
import com.agentwallet.core.escrow.Escrow;
import com.agentwallet.core.escrow.EscrowStatus;
import com.agentwallet.core.event.DomainEvent;
import com.agentwallet.core.event.OutboxEvent;
import com.agentwallet.core.export.ExportJob;
import com.agentwallet.core.export.ExportStatus;
import com.agentwallet.core.id.ApiKeyId;
import com.agentwallet.core.id.EscrowId;
import com.agentwallet.core.id.ExportId;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.PolicyId;
import com.agentwallet.core.id.TxId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.id.WebhookId;
import com.agentwallet.core.idempotency.KeyedRequest;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.org.Organisation;
import com.agentwallet.core.payment.IdempotencyRecord;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.payment.TransactionStatus;
import com.agentwallet.core.policy.Policy;
import com.agentwallet.core.policy.PolicyAuditEntry;
import com.agentwallet.core.policy.SpendEntry;
import com.agentwallet.core.policy.TimeRange;
import com.agentwallet.core.port.ApiKeyStore;
import com.agentwallet.core.port.EscrowStore;
import com.agentwallet.core.port.EventOutbox;
import com.agentwallet.core.port.ExportStore;
import com.agentwallet.core.port.IdempotencyStore;
import com.agentwallet.core.port.OrganisationStore;
import com.agentwallet.core.port.PolicyAuditLog;
import com.agentwallet.core.port.PolicyStore;
import com.agentwallet.core.port.RecipientCategoryStore;
import com.agentwallet.core.port.RequestKeyStore;
import com.agentwallet.core.port.SpendLog;
import com.agentwallet.core.port.Storage;
import com.agentwallet.core.port.Stores;
import com.agentwallet.core.port.TransactionStore;
import com.agentwallet.core.port.UserStore;
import com.agentwallet.core.port.WalletStore;
import com.agentwallet.core.port.WebhookStore;
import com.agentwallet.core.user.DashboardSession;
import com.agentwallet.core.user.DashboardUser;
import com.agentwallet.core.user.UserId;
import com.agentwallet.core.wallet.Wallet;
import com.agentwallet.core.wallet.WalletStatus;
import com.agentwallet.core.webhook.DeliveryAttempt;
import com.agentwallet.core.webhook.Webhook;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The stores in memory, for the core's tests and benchmarks. Transactions run one at a time under
 * one lock (so row locks are implied), and a transaction that throws is undone from an undo log,
 * which gives the same all-or-nothing behaviour the database adapter has.
 */
public final class InMemoryStorage implements Storage {
    private final ReentrantLock lock = new ReentrantLock();
    private final Deque<Runnable> undo = new ArrayDeque<>();

    private final Map<OrgId, Organisation> organisations = new HashMap<>();
    private final Map<ApiKeyId, ApiKey> apiKeys = new LinkedHashMap<>();
    private final Map<WalletId, Wallet> wallets = new LinkedHashMap<>();
    private final Map<PolicyId, Policy> policies = new LinkedHashMap<>();
    private final List<PolicyAuditEntry> audit = new ArrayList<>();
    private final Map<TxId, Transaction> transactions = new LinkedHashMap<>();
    /** Who settles a transaction, until when ({@link TransactionStore#claimSettlement}). */
    private final Map<TxId, SettlementClaim> settlementClaims = new HashMap<>();
    private final Map<WalletId, List<SpendEntry>> spends = new HashMap<>();
    private final Map<EscrowId, Escrow> escrows = new LinkedHashMap<>();
    private final Map<OrgId, Map<String, String>> categories = new HashMap<>();
    private final Map<String, IdempotencyRecord> idempotency = new HashMap<>();
    private final Map<String, KeyedRequest> requestKeys = new HashMap<>();
    private final List<OutboxEvent> outbox = new ArrayList<>();
    private final Map<WebhookId, Webhook> webhooks = new LinkedHashMap<>();
    /** Deleted webhooks stay in {@link #webhooks}, as their rows stay in the database. */
    private final Map<WebhookId, Instant> webhooksDeleted = new HashMap<>();
    private final List<DeliveryAttempt> attempts = new ArrayList<>();
    private final Map<ExportId, ExportJob> exports = new LinkedHashMap<>();
    /** The claims of pending jobs: how many times each was claimed, and until when the last claim holds. */
    private final Map<ExportId, ExportLease> exportLeases = new HashMap<>();
    private final Map<EventId, Boolean> fannedOut = new HashMap<>();
    /** Keyed by event and webhook, in the order they were scheduled. */
    private final Map<List<Object>, Delivery> deliveries = new LinkedHashMap<>();
    /** Deliveries under a lease, by (event, webhook): the claim's name and when its lease runs out. */
    private final Map<List<Object>, Map.Entry<String, Instant>> leases = new LinkedHashMap<>();

    private final Map<UserId, DashboardUser> users = new LinkedHashMap<>();
    private final Map<String, DashboardSession> sessions = new LinkedHashMap<>();

    private final Stores stores = new BoundStores();

    @Override
    public <T> T inTransaction(Function<Stores, T> work) {
        lock.lock();
        try {
            boolean outermost = undo.isEmpty();
            int mark = undo.size();
            try {
                T result = work.apply(stores);
                if (outermost) {
                    undo.clear();
                }
                return result;
            } catch (RuntimeException | Error failure) {
                while (undo.size() > mark) {
                    undo.pop().run();
                }
                throw failure;
            }
        } finally {
            lock.unlock();
        }
    }

    /** Every event written so far, in order: what a test inspects instead of a webhook receiver. */
    public List<OutboxEvent> outbox() {
        return inTransaction(s -> List.copyOf(outbox));
    }

    /** All rows of a kind, for invariant checks. */
    public List<Organisation> allOrganisations() {
        return inTransaction(s -> List.copyOf(organisations.values()));
    }

    public List<Wallet> allWallets() {
        return inTransaction(s -> List.copyOf(wallets.values()));
    }

    public List<Transaction> allTransactions() {
        return inTransaction(s -> List.copyOf(transactions.values()));
    }

    public List<Escrow> allEscrows() {
        return inTransaction(s -> List.copyOf(escrows.values()));
    }

    public List<SpendEntry> spendsOf(WalletId walletId) {
        return inTransaction(s -> List.copyOf(spends.getOrDefault(walletId, List.of())));
    }

    private record SettlementClaim(String holder, Instant until) {
    }

    private <K, V> void put(Map<K, V> map, K key, V value) {
        V previous = map.put(key, value);
        undo.push(previous == null ? () -> map.remove(key) : () -> map.put(key, previous));
    }

    private <K, V> void remove(Map<K, V> map, K key) {
        V previous = map.remove(key);
        if (previous != null) {
            undo.push(() -> map.put(key, previous));
        }
    }

    private <V> void append(List<V> list, V value) {
        list.add(value);
        undo.push(() -> list.remove(list.size() - 1));
    }

    private final class BoundStores implements Stores {
        private final OrganisationStore organisationStore = new Organisations();
        private final ApiKeyStore apiKeyStore = new ApiKeys();
        private final WalletStore walletStore = new Wallets();
        private final PolicyStore policyStore = new Policies();
        private final PolicyAuditLog auditLog = new AuditLog();
        private final TransactionStore transactionStore = new Transactions();
        private final SpendLog spendLog = new Spends();
        private final EscrowStore escrowStore = new Escrows();
        private final RecipientCategoryStore categoryStore = new Categories();
        private final IdempotencyStore idempotencyStore = new Idempotency();
        private final RequestKeyStore requestKeyStore = new RequestKeys();
        private final WebhookStore webhookStore = new Webhooks();
        private final ExportStore exportStore = new Exports();
        private final EventOutbox eventOutbox = new Outbox();
        private final DeliveryStore deliveryStore = new Deliveries();
        private final UserStore userStore = new Users();
        private final DashboardSessionStore sessionStore = new Sessions();

        public OrganisationStore organisations() {
            return organisationStore;
        }

        public ApiKeyStore apiKeys() {
            return apiKeyStore;
        }

        public WalletStore wallets() {
            return walletStore;
        }

        public PolicyStore policies() {
            return policyStore;
        }

        public PolicyAuditLog policyAudit() {
            return auditLog;
        }

        public TransactionStore transactions() {
            return transactionStore;
        }

        public SpendLog spendLog() {
            return spendLog;
        }

        public EscrowStore escrows() {
            return escrowStore;
        }

        public RecipientCategoryStore recipientCategories() {
            return categoryStore;
        }

        public IdempotencyStore idempotency() {
            return idempotencyStore;
        }

        public RequestKeyStore requestKeys() {
            return requestKeyStore;
        }

        public WebhookStore webhooks() {
            return webhookStore;
        }

        public ExportStore exports() {
            return exportStore;
        }

        public EventOutbox outbox() {
            return eventOutbox;
        }

        public DeliveryStore deliveries() {
            return deliveryStore;
        }

        public AdminSequence adminSequence() {
            return Sequences::next;
        }

        public UserStore users() {
            return userStore;
        }

        public DashboardSessionStore dashboardSessions() {
            return sessionStore;
        }
    }

    private final class Users implements UserStore {
        public void insert(DashboardUser user) {
            if (users.containsKey(user.id()) || findByEmail(user.email()).isPresent()) {
                throw new IllegalStateException("duplicate user " + user.id() + " or email " + user.email());
            }
            put(users, user.id(), user);
        }

        public Optional<DashboardUser> find(OrgId orgId, UserId id) {
            return Optional.ofNullable(users.get(id)).filter(u -> u.orgId().equals(orgId));
        }

        public Optional<DashboardUser> lock(OrgId orgId, UserId id) {
            return find(orgId, id);
        }

        public Optional<DashboardUser> findByEmail(String email) {
            return users.values().stream().filter(u -> u.email().equals(email)).findFirst();
        }

        public List<DashboardUser> list(OrgId orgId) {
            return users.values().stream().filter(u -> u.orgId().equals(orgId))
                    .sorted(Comparator.comparing(DashboardUser::createdAt).thenComparing(u -> u.id().value())).toList();
        }

        public void update(DashboardUser user) {
            requirePresent(users, user.id());
            put(users, user.id(), user);
        }

        /** Its sessions go with it, as the database's foreign key cascades. */
        public void delete(OrgId orgId, UserId id) {
            if (find(orgId, id).isPresent()) {
                stores.dashboardSessions().deleteAllOf(id);
                remove(users, id);
            }
        }
    }

    private final class Sessions implements DashboardSessionStore {
        public void insert(DashboardSession session) {
            if (sessions.containsKey(session.tokenHash()) || !users.containsKey(session.userId())) {
                throw new IllegalStateException("duplicate session or unknown user " + session.userId());
            }
            put(sessions, session.tokenHash(), session);
        }

        public Optional<DashboardSession> findByTokenHash(String tokenHash) {
            return Optional.ofNullable(sessions.get(tokenHash));
        }

        public void delete(String tokenHash) {
            remove(sessions, tokenHash);
        }

        public int deleteAllOf(UserId userId) {
            return removeAll(session -> session.userId().equals(userId), Integer.MAX_VALUE);
        }

        public int deleteExpired(Instant now, int limit) {
            return removeAll(session -> !session.expiresAt().isAfter(now), limit);
        }

        private int removeAll(Predicate<DashboardSession> doomed, int limit) {
            List<String> hashes = sessions.values().stream().filter(doomed).limit(limit)
                    .map(DashboardSession::tokenHash).toList();
            hashes.forEach(hash -> remove(sessions, hash));
            return hashes.size();
        }
    }

    private final class Deliveries implements DeliveryStore {
        public boolean lockFanOut() {
            return true;
        }

        public List<UnfannedEvent> unfanned(int limit) {
            return outbox.stream().filter(event -> !fannedOut.containsKey(event.id())).limit(limit)
                    .map(event -> new UnfannedEvent(event.id(), event.event().orgId(), event.event().type(),
                            event.event() instanceof DomainEvent.Ping ping
                                    ? Optional.of(ping.webhookId()) : Optional.empty(), event.createdAt()))
                    .toList();
        }

        public void markFannedOut(Collection<EventId> events) {
            events.forEach(id -> put(fannedOut, id, true));
        }

        public List<Webhook> liveWebhooks(OrgId orgId) {
            return webhooks.values().stream()
                    .filter(webhook -> webhook.orgId().equals(orgId) && !webhooksDeleted.containsKey(webhook.id()))
                    .toList();
        }

        public void schedule(Delivery delivery) {
            List<Object> key = List.of(delivery.eventId(), delivery.webhookId());
            if (!deliveries.containsKey(key)) {
                put(deliveries, key, delivery);
            }
        }

        public Optional<DueDelivery> claim(Instant now, Duration lease, int inFlightPerOrganisation) {
            Optional<Delivery> next = deliveries.values().stream()
                    .filter(delivery -> delivery.status() == DeliveryStatus.SCHEDULED
                            && !delivery.nextAttemptAt().orElseThrow().isAfter(now))
                    .filter(delivery -> webhooks.get(delivery.webhookId()).status() == WebhookStatus.ACTIVE
                            && !webhooksDeleted.containsKey(delivery.webhookId()))
                    .filter(delivery -> !waitsForAnEarlierEvent(delivery))
                    .filter(delivery -> inFlight(key -> key.get(1).equals(delivery.webhookId()), now) == 0)
                    .filter(delivery -> inFlight(key -> webhooks.get((WebhookId) key.get(1)).orgId()
                            .equals(webhooks.get(delivery.webhookId()).orgId()), now) < inFlightPerOrganisation)
                    .min(Comparator.comparing((Delivery delivery) -> delivery.nextAttemptAt().orElseThrow())
                            .thenComparing(delivery -> outboxIndex(delivery.eventId())));
            return next.map(delivery -> {
                String name = UUID.randomUUID().toString();
                put(leases, key(delivery), Map.entry(name, now.plus(lease)));
                return new DueDelivery(delivery, webhooks.get(delivery.webhookId()),
                        stored(outbox.get(outboxIndex(delivery.eventId()))), name);
            });
        }

        private long inFlight(Predicate<List<Object>> which, Instant now) {
            return leases.entrySet().stream()
                    .filter(lease -> lease.getValue().getValue().isAfter(now) && which.test(lease.getKey())).count();
        }

        public boolean settle(Delivery delivery, String lease) {
            Map.Entry<String, Instant> held = leases.get(key(delivery));
            if (held == null || !held.getKey().equals(lease)) {
                return false;
            }
            remove(leases, key(delivery));
            put(deliveries, key(delivery), delivery);
            return true;
        }

        private static List<Object> key(Delivery delivery) {
            return List.of(delivery.eventId(), delivery.webhookId());
        }

        public void update(Delivery delivery) {
            put(deliveries, List.of(delivery.eventId(), delivery.webhookId()), delivery);
        }

        public List<Delivery> exhausted(WebhookId webhookId) {
            return deliveries.values().stream().filter(delivery -> delivery.webhookId().equals(webhookId)
                    && delivery.status() == DeliveryStatus.EXHAUSTED).toList();
        }

        private boolean waitsForAnEarlierEvent(Delivery delivery) {
            int index = outboxIndex(delivery.eventId());
            Optional<WalletId> wallet = outbox.get(index).event().walletId();
            return wallet.isPresent() && deliveries.values().stream().anyMatch(other ->
                    other.webhookId().equals(delivery.webhookId()) && other.status() != DeliveryStatus.DELIVERED
                            && outboxIndex(other.eventId()) < index
                            && outbox.get(outboxIndex(other.eventId())).event().walletId().equals(wallet));
        }

        private int outboxIndex(EventId eventId) {
            for (int i = 0; i < outbox.size(); i++) {
                if (outbox.get(i).id().equals(eventId)) {
                    return i;
                }
            }
            throw new IllegalStateException("no event " + eventId + " in the outbox");
        }
    }

    private final class Outbox implements EventOutbox {
        public void append(OutboxEvent event) {
            InMemoryStorage.this.append(outbox, event);
        }

        public List<AlertingEvent> recentAlerts(OrgId orgId, Instant since, int limit) {
            List<AlertingEvent> newestFirst = new ArrayList<>();
            for (int i = outbox.size() - 1; i >= 0; i--) {
                OutboxEvent event = outbox.get(i);
                if (event.event().orgId().equals(orgId) && !event.createdAt().isBefore(since)) {
                    AlertingEvent.of(event).ifPresent(newestFirst::add);
                }
            }
            return newestFirst.stream().sorted(Comparator.comparing(AlertingEvent::createdAt).reversed()).limit(limit)
                    .toList();
        }
    }

    /**
     * The event as a delivery reads it back. Rendering a body is the outbox adapter's (the PostgreSQL
     * adapter's {@code EventJson}); this body stands for it with the two fields receivers key on.
     */
    private static StoredEvent stored(OutboxEvent event) {
        return new StoredEvent(event.id(), event.event().orgId(), event.event().type(),
                Map.of("event", event.event().type().wireName(), "id", event.id().value()), event.createdAt());
    }

    private final class Organisations implements OrganisationStore {
        public void insert(Organisation organisation) {
            if (organisations.containsKey(organisation.id())) {
                throw new IllegalStateException("duplicate organisation " + organisation.id());
            }
            put(organisations, organisation.id(), organisation);
        }

        public Optional<Organisation> find(OrgId id) {
            return Optional.ofNullable(organisations.get(id));
        }

        public Optional<Organisation> lock(OrgId id) {
            return find(id);
        }

        public void update(Organisation organisation) {
            requirePresent(organisations, organisation.id());
            put(organisations, organisation.id(), organisation);
        }

        public List<Organisation> list() {
            return organisations.values().stream()
                    .sorted(Comparator.comparing(Organisation::createdAt).thenComparing(o -> o.id().value()))
                    .toList();
        }
    }

    private final class ApiKeys implements ApiKeyStore {
        public void insert(ApiKey key) {
            if (apiKeys.containsKey(key.id()) || findByHash(key.secretHash()).isPresent()) {
                throw new IllegalStateException("duplicate api key " + key.id());
            }
            put(apiKeys, key.id(), key);
        }

        public Optional<ApiKey> findByHash(String secretHash) {
            return apiKeys.values().stream().filter(k -> k.secretHash().equals(secretHash)).findFirst();
        }

        public Optional<ApiKey> lock(OrgId orgId, ApiKeyId id) {
            return Optional.ofNullable(apiKeys.get(id)).filter(k -> k.orgId().equals(orgId));
        }

        public void update(ApiKey key) {
            requirePresent(apiKeys, key.id());
            put(apiKeys, key.id(), new ApiKey(key.id(), key.orgId(), key.role(), key.secretHash(), key.createdAt(),
                    key.revokedAt(), apiKeys.get(key.id()).lastUsedAt()));
        }

        public void recordUse(Map<ApiKeyId, Instant> lastUsed) {
            lastUsed.forEach((id, at) -> Optional.ofNullable(apiKeys.get(id))
                    .filter(key -> key.lastUsedAt().filter(written -> !written.isBefore(at)).isEmpty())
                    .ifPresent(key -> put(apiKeys, id, new ApiKey(id, key.orgId(), key.role(), key.secretHash(),
                            key.createdAt(), key.revokedAt(), Optional.of(at)))));
        }

        public List<ApiKey> list(OrgId orgId) {
            return apiKeys.values().stream().filter(k -> k.orgId().equals(orgId))
                    .sorted(Comparator.comparing(ApiKey::createdAt).thenComparing(k -> k.id().value())).toList();
        }
    }

    private final class Wallets implements WalletStore {
        public boolean insertIfAbsent(Wallet wallet) {
            boolean taken = wallets.values().stream().anyMatch(w -> w.orgId().equals(wallet.orgId())
                    && w.agentId().equals(wallet.agentId()));
            if (taken) {
                return false;
            }
            put(wallets, wallet.id(), wallet);
            return true;
        }

        public Optional<Wallet> find(OrgId orgId, WalletId id) {
            return Optional.ofNullable(wallets.get(id)).filter(w -> w.orgId().equals(orgId));
        }

        public Optional<Wallet> lock(OrgId orgId, WalletId id) {
            return find(orgId, id);
        }

        /** Units of work here run one at a time (see {@link #inTransaction}): no lock to take. */
        public void lockAllAt(Collection<String> addresses) {
        }

        public Optional<Wallet> findAnyOrg(WalletId id) {
            return Optional.ofNullable(wallets.get(id));
        }

        public void creditByAddress(String address, Usdc amount, Instant now) {
            wallets.values().stream().filter(w -> w.address().base58().equals(address)).findFirst()
                    .ifPresent(w -> put(wallets, w.id(), w.withBalance(w.balance().plus(amount), now)));
        }

        public void update(Wallet wallet) {
            requirePresent(wallets, wallet.id());
            put(wallets, wallet.id(), wallet);
        }

        public Page<Wallet> list(OrgId orgId, Query query, PageRequest page) {
            return page(wallets.values(), w -> w.orgId().equals(orgId)
                            && query.status().map(s -> s == w.status()).orElse(true)
                            && w.tags().containsAll(query.tags()),
                    Wallet::createdAt, w -> w.id().value(), page);
        }

        public boolean anyUsesPolicy(OrgId orgId, PolicyId policyId) {
            return wallets.values().stream().anyMatch(w -> w.orgId().equals(orgId) && w.policyId().equals(policyId)
                    && w.status() != WalletStatus.ARCHIVED);
        }

        public Optional<Wallet> claimActiveWithPolicyExpired(Instant now) {
            return wallets.values().stream()
                    .filter(w -> w.status() == WalletStatus.ACTIVE)
                    .filter(w -> Optional.ofNullable(policies.get(w.policyId()))
                            .map(p -> p.rules().isExpiredAt(now)).orElse(false))
                    .min(Comparator.comparing(w -> policies.get(w.policyId()).rules().expiry().orElseThrow()));
        }
    }

    private final class Policies implements PolicyStore {
        public void insert(Policy policy) {
            if (policies.containsKey(policy.id())) {
                throw new IllegalStateException("duplicate policy " + policy.id());
            }
            put(policies, policy.id(), policy);
        }

        public Optional<Policy> find(OrgId orgId, PolicyId id) {
            return Optional.ofNullable(policies.get(id)).filter(p -> p.orgId().equals(orgId));
        }

        public Optional<Policy> lock(OrgId orgId, PolicyId id) {
            return find(orgId, id);
        }

        public void update(Policy policy) {
            requirePresent(policies, policy.id());
            put(policies, policy.id(), policy);
        }

        public void delete(OrgId orgId, PolicyId id) {
            find(orgId, id).ifPresent(p -> remove(policies, id));
        }

        public Page<Policy> list(OrgId orgId, PageRequest page) {
            return page(policies.values(), p -> p.orgId().equals(orgId), Policy::createdAt, p -> p.id().value(), page);
        }

        public List<Policy> blockingAny(OrgId orgId, Set<String> blocked) {
            return policies.values().stream()
                    .filter(p -> p.orgId().equals(orgId))
                    .filter(p -> p.rules().blockedCategories().stream().anyMatch(blocked::contains))
                    .toList();
        }
    }

    private final class AuditLog implements PolicyAuditLog {
        public void append(PolicyAuditEntry entry) {
            InMemoryStorage.this.append(audit, entry);
        }

        public Page<PolicyAuditEntry> list(OrgId orgId, PolicyId policyId, PageRequest page) {
            return page(audit, e -> e.orgId().equals(orgId) && e.policyId().equals(policyId),
                    PolicyAuditEntry::at, e -> String.format("%019d", e.version()), page);
        }
    }

    private final class Transactions implements TransactionStore {
        public void insert(Transaction transaction) {
            if (transactions.containsKey(transaction.id())) {
                throw new IllegalStateException("duplicate transaction " + transaction.id());
            }
            put(transactions, transaction.id(), transaction);
        }

        public Optional<Transaction> find(OrgId orgId, TxId id) {
            return Optional.ofNullable(transactions.get(id)).filter(t -> t.orgId().equals(orgId));
        }

        public Optional<Transaction> lock(OrgId orgId, TxId id) {
            return find(orgId, id);
        }

        public void update(Transaction transaction) {
            requirePresent(transactions, transaction.id());
            put(transactions, transaction.id(), transaction);
        }

        public boolean updateIfPending(Transaction transaction) {
            Transaction stored = transactions.get(transaction.id());
            if (stored == null || !stored.orgId().equals(transaction.orgId())
                    || stored.status() != TransactionStatus.PENDING) {
                return false;
            }
            put(transactions, transaction.id(), transaction);
            return true;
        }

        public boolean claimSettlement(TxId id, String holder, Instant now, Instant until) {
            SettlementClaim claim = settlementClaims.get(id);
            if (claim != null && !claim.holder().equals(holder) && claim.until().isAfter(now)) {
                return false;
            }
            put(settlementClaims, id, new SettlementClaim(holder, until));
            return true;
        }

        public boolean releaseSettlement(TxId id, String holder) {
            SettlementClaim claim = settlementClaims.get(id);
            if (claim == null || !claim.holder().equals(holder)) {
                return false;
            }
            remove(settlementClaims, id);
            return true;
        }

        public Page<Transaction> list(OrgId orgId, Query query, PageRequest page) {
            return page(transactions.values(), t -> t.orgId().equals(orgId)
                            && query.walletId().map(t.walletId()::equals).orElse(true)
                            && query.status().map(s -> s == t.status()).orElse(true)
                            && query.type().map(type -> type == t.type()).orElse(true)
                            && query.from().map(from -> !t.createdAt().isBefore(from)).orElse(true)
                            && query.to().map(to -> t.createdAt().isBefore(to)).orElse(true),
                    Transaction::createdAt, t -> t.id().value(), page);
        }

        public List<Transaction> pendingSince(Instant changedBy, int limit) {
            return transactions.values().stream()
                    .filter(t -> t.status() == TransactionStatus.PENDING && !t.updatedAt().isAfter(changedBy))
                    .sorted(Comparator.comparing(Transaction::updatedAt))
                    .limit(limit)
                    .toList();
        }

        public Optional<Transaction> claimCoSignExpired(Instant now) {
            return transactions.values().stream()
                    .filter(t -> t.status() == TransactionStatus.PENDING_CO_SIGN
                            && !t.coSign().orElseThrow().expiresAt().isAfter(now))
                    .min(Comparator.comparing(t -> t.coSign().orElseThrow().expiresAt()));
        }

        public boolean anyAwaitingCoSign(OrgId orgId, WalletId walletId) {
            return transactions.values().stream().anyMatch(t -> t.orgId().equals(orgId)
                    && t.walletId().equals(walletId) && t.status() == TransactionStatus.PENDING_CO_SIGN);
        }
    }

    /**
     * Each wallet's spends in a list sorted by (time, tx id): appends in time order go to the end,
     * and a range is found with one binary search, so a check costs O(log n) comparisons over a flat
     * array rather than tree descents.
     */
    private final class Spends implements SpendLog {
        public void append(WalletId walletId, SpendEntry entry) {
            List<SpendEntry> log = spends.computeIfAbsent(walletId, id -> new ArrayList<>());
            int at = firstAfter(log, entry.at(), entry.txId().value());
            log.add(at, entry);
            undo.push(() -> log.remove(at));
        }

        public Optional<SpendEntry> remove(WalletId walletId, TxId txId) {
            List<SpendEntry> log = spends.getOrDefault(walletId, List.of());
            for (int i = 0; i < log.size(); i++) {
                SpendEntry entry = log.get(i);
                if (entry.txId().equals(txId)) {
                    int at = i;
                    log.remove(at);
                    undo.push(() -> log.add(at, entry));
                    return Optional.of(entry);
                }
            }
            return Optional.empty();
        }

        public List<SpendEntry> entriesIn(WalletId walletId, List<TimeRange> ranges) {
            List<SpendEntry> log = spends.getOrDefault(walletId, List.of());
            Map<TxId, SpendEntry> found = new LinkedHashMap<>();
            for (TimeRange range : ranges) {
                if (range.isEmpty()) {
                    continue;
                }
                for (int i = firstAfter(log, range.after(), "\uffff"); i < log.size() && range.contains(log.get(i).at()); i++) {
                    found.put(log.get(i).txId(), log.get(i));
                }
            }
            return List.copyOf(found.values());
        }

        /** The index of the first entry ordered after (at, txId). */
        private int firstAfter(List<SpendEntry> log, Instant at, String txId) {
            int low = 0;
            int high = log.size();
            while (low < high) {
                int middle = (low + high) >>> 1;
                SpendEntry entry = log.get(middle);
                int order = entry.at().compareTo(at);
                if (order < 0 || order == 0 && entry.txId().value().compareTo(txId) <= 0) {
                    low = middle + 1;
                } else {
                    high = middle;
                }
            }
            return low;
        }
    }

    private final class Escrows implements EscrowStore {
        public void insert(Escrow escrow) {
            if (escrows.containsKey(escrow.id())) {
                throw new IllegalStateException("duplicate escrow " + escrow.id());
            }
            put(escrows, escrow.id(), escrow);
        }

        public Optional<Escrow> find(OrgId orgId, EscrowId id) {
            return Optional.ofNullable(escrows.get(id)).filter(e -> e.orgId().equals(orgId));
        }

        public Optional<Escrow> lock(OrgId orgId, EscrowId id) {
            return find(orgId, id);
        }

        public void update(Escrow escrow) {
            requirePresent(escrows, escrow.id());
            put(escrows, escrow.id(), escrow);
        }

        public Optional<Escrow> findAnyOrg(EscrowId id) {
            return Optional.ofNullable(escrows.get(id));
        }

        public Optional<Escrow> lockAnyOrg(EscrowId id) {
            return findAnyOrg(id);
        }

        public Page<Escrow> list(Requester party, Query query, PageRequest page) {
            return page(escrows.values(), e -> isParty(party, e)
                            && query.walletId().map(w -> e.fromWallet().equals(w)
                                    || e.receiverWallet().equals(Optional.of(w))).orElse(true)
                            && query.status().map(s -> s == e.status()).orElse(true),
                    Escrow::createdAt, e -> e.id().value(), page);
        }

        private boolean isParty(Requester party, Escrow escrow) {
            if (party instanceof Requester.Agent agent) {
                return escrow.orgId().equals(agent.orgId()) && escrow.fromWallet().equals(agent.walletId())
                        || escrow.receiverWallet().equals(Optional.of(agent.walletId()));
            }
            return escrow.orgId().equals(party.orgId()) || escrow.receiverWallet().map(wallets::get)
                    .filter(receiver -> receiver.orgId().equals(party.orgId())).isPresent();
        }

        public Optional<Escrow> claimTimedOut(Instant now) {
            return escrows.values().stream()
                    .filter(e -> e.status() == EscrowStatus.LOCKED && !e.timeoutAt().isAfter(now))
                    .filter(e -> Optional.ofNullable(transactions.get(e.lockTx()))
                            .map(lock -> lock.status() != TransactionStatus.PENDING).orElse(true))
                    .min(Comparator.comparing(Escrow::timeoutAt));
        }

        public boolean anyOpenFrom(OrgId orgId, WalletId walletId) {
            return escrows.values().stream().anyMatch(e -> e.orgId().equals(orgId) && e.fromWallet().equals(walletId)
                    && !e.status().isTerminal());
        }
    }

    private final class Categories implements RecipientCategoryStore {
        public Optional<String> categoryOf(OrgId orgId, String recipient) {
            return Optional.ofNullable(categories.getOrDefault(orgId, Map.of()).get(recipient));
        }

        public void put(OrgId orgId, String recipient, String category) {
            InMemoryStorage.this.put(categories.computeIfAbsent(orgId, id -> new HashMap<>()), recipient, category);
        }

        public Set<String> recipientsIn(OrgId orgId, Set<String> wanted) {
            return categories.getOrDefault(orgId, Map.of()).entrySet().stream()
                    .filter(e -> wanted.contains(e.getValue()))
                    .map(Map.Entry::getKey)
                    .collect(Collectors.toSet());
        }
    }

    private final class Idempotency implements IdempotencyStore {
        /** Transactions already run one at a time here. */
        public void lock(OrgId orgId, String key) {
        }

        public Optional<IdempotencyRecord> find(OrgId orgId, String key) {
            return Optional.ofNullable(idempotency.get(orgId.value() + "\u0000" + key));
        }

        public void insert(IdempotencyRecord record) {
            String key = record.orgId().value() + "\u0000" + record.key();
            if (idempotency.containsKey(key)) {
                throw new IllegalStateException("duplicate idempotency key " + record.key());
            }
            put(idempotency, key, record);
        }

        public void keepAnswer(OrgId orgId, String key, IdempotencyRecord.Answer answer) {
            find(orgId, key).filter(record -> record.answer().isEmpty()).ifPresent(record -> put(idempotency,
                    orgId.value() + "\u0000" + key, new IdempotencyRecord(record.orgId(), record.key(),
                            record.fingerprint(), record.txId(), record.createdAt(), Optional.of(answer))));
        }

        public void delete(OrgId orgId, String key) {
            remove(idempotency, orgId.value() + "\u0000" + key);
        }

        public int deleteCreatedBefore(Instant cutoff, int limit) {
            List<String> old = idempotency.entrySet().stream()
                    .filter(entry -> entry.getValue().createdAt().isBefore(cutoff))
                    .map(Map.Entry::getKey).limit(limit).toList();
            old.forEach(key -> remove(idempotency, key));
            return old.size();
        }
    }

    /** Transactions run one at a time here, so a key's first use is never uncommitted while another looks. */
    private final class RequestKeys implements RequestKeyStore {
        public boolean insertIfAbsent(KeyedRequest record) {
            String key = record.orgId().value() + "\u0000" + record.key();
            if (requestKeys.containsKey(key)) {
                return false;
            }
            put(requestKeys, key, record);
            return true;
        }

        public Optional<KeyedRequest> find(OrgId orgId, String key) {
            return Optional.ofNullable(requestKeys.get(orgId.value() + "\u0000" + key));
        }

        public void setSubject(OrgId orgId, String key, String subject) {
            find(orgId, key).ifPresent(record -> put(requestKeys, orgId.value() + "\u0000" + key,
                    new KeyedRequest(orgId, key, record.fingerprint(), Optional.of(subject), record.createdAt())));
        }

        public void delete(OrgId orgId, String key) {
            remove(requestKeys, orgId.value() + "\u0000" + key);
        }

        public int deleteCreatedBefore(Instant cutoff, int limit) {
            List<String> old = requestKeys.entrySet().stream()
                    .filter(entry -> entry.getValue().createdAt().isBefore(cutoff))
                    .map(Map.Entry::getKey).limit(limit).toList();
            old.forEach(key -> remove(requestKeys, key));
            return old.size();
        }
    }

    private final class Webhooks implements WebhookStore {
        public void insert(Webhook webhook) {
            if (webhooks.containsKey(webhook.id())) {
                throw new IllegalStateException("duplicate webhook " + webhook.id());
            }
            put(webhooks, webhook.id(), webhook);
        }

        public Optional<Webhook> find(OrgId orgId, WebhookId id) {
            return Optional.ofNullable(webhooks.get(id))
                    .filter(w -> w.orgId().equals(orgId) && !webhooksDeleted.containsKey(id));
        }

        public Optional<Webhook> lock(OrgId orgId, WebhookId id) {
            return find(orgId, id);
        }

        public void update(Webhook webhook) {
            if (find(webhook.orgId(), webhook.id()).isPresent()) {
                put(webhooks, webhook.id(), webhook);
            }
        }

        public void delete(OrgId orgId, WebhookId id, Instant at) {
            find(orgId, id).ifPresent(w -> put(webhooksDeleted, id, at));
        }

        public Page<Webhook> list(OrgId orgId, PageRequest page) {
            return page(webhooks.values(), w -> w.orgId().equals(orgId) && !webhooksDeleted.containsKey(w.id()),
                    Webhook::createdAt, w -> w.id().value(), page);
        }

        public void insertAttempt(DeliveryAttempt attempt) {
            requirePresent(webhooks, attempt.webhookId());
            InMemoryStorage.this.append(attempts, attempt);
        }

        public Page<DeliveryAttempt> attempts(OrgId orgId, WebhookId webhookId, PageRequest page) {
            boolean ours = Optional.ofNullable(webhooks.get(webhookId)).map(w -> w.orgId().equals(orgId)).orElse(false);
            return page(attempts, a -> ours && a.webhookId().equals(webhookId),
                    DeliveryAttempt::attemptedAt, DeliveryAttempt::sortKey, page);
        }
    }

    private final class Exports implements ExportStore {
        public void insert(ExportJob job) {
            if (exports.containsKey(job.id())) {
                throw new IllegalStateException("duplicate export " + job.id());
            }
            put(exports, job.id(), job);
        }

        public Optional<ExportJob> find(OrgId orgId, ExportId id) {
            return Optional.ofNullable(exports.get(id)).filter(j -> j.orgId().equals(orgId));
        }

        public Page<ExportJob> list(OrgId orgId, PageRequest page) {
            return page(exports.values(), j -> j.orgId().equals(orgId), ExportJob::createdAt, j -> j.id().value(),
                    page);
        }


        public List<Claimed> claim(Instant now, Instant leaseUntil, int perOrganisation, int limit) {
            Map<OrgId, Integer> running = new HashMap<>();
            Map<OrgId, Integer> turns = new HashMap<>();
            record Turn(ExportJob job, int turn) {
            }
            List<Turn> waiting = new ArrayList<>();
            List<ExportJob> pending = exports.values().stream().filter(j -> j.status() == ExportStatus.PENDING)
                    .sorted(Comparator.comparing(ExportJob::createdAt)).toList();
            for (ExportJob job : pending) {
                ExportLease lease = exportLeases.get(job.id());
                if (lease != null && lease.until().isAfter(now)) {
                    running.merge(job.orgId(), 1, Integer::sum);
                } else {
                    waiting.add(new Turn(job, turns.merge(job.orgId(), 1, Integer::sum)));
                }
            }
            List<Claimed> claimed = waiting.stream()
                    .filter(t -> t.turn() + running.getOrDefault(t.job().orgId(), 0) <= perOrganisation)
                    .sorted(Comparator.comparingInt(Turn::turn).thenComparing(t -> t.job().createdAt()))
                    .limit(limit)
                    .map(t -> {
                        ExportLease previous = exportLeases.get(t.job().id());
                        ExportLease lease = new ExportLease(previous == null ? 1 : previous.claim() + 1, leaseUntil);
                        put(exportLeases, t.job().id(), lease);
                        return new Claimed(t.job(), lease.claim());
                    })
                    .toList();
            return claimed.stream().sorted(Comparator.comparing((Claimed c) -> c.job().createdAt())).toList();
        }

        public boolean renew(Claimed claimed, Instant leaseUntil) {
            if (!holds(claimed)) {
                return false;
            }
            put(exportLeases, claimed.job().id(), new ExportLease(claimed.claim(), leaseUntil));
            return true;
        }

        public boolean finish(Claimed claimed, ExportJob next) {
            if (!holds(claimed)) {
                return false;
            }
            put(exports, next.id(), next);
            InMemoryStorage.this.remove(exportLeases, next.id());
            return true;
        }

        private boolean holds(Claimed claimed) {
            ExportLease lease = exportLeases.get(claimed.job().id());
            ExportJob job = exports.get(claimed.job().id());
            return lease != null && lease.claim() == claimed.claim() && job.status() == ExportStatus.PENDING;
        }

        public List<ExportJob> claimExpired(Instant now, int limit) {
            return exports.values().stream()
                    .filter(j -> j.status() == ExportStatus.READY && !j.expiresAt().orElseThrow().isAfter(now))
                    .sorted(Comparator.comparing((ExportJob j) -> j.expiresAt().orElseThrow()))
                    .limit(limit)
                    .toList();
        }

        public void update(ExportJob job) {
            requirePresent(exports, job.id());
            put(exports, job.id(), job);
        }
    }

    private record ExportLease(long claim, Instant until) {
    }

    private static <K> void requirePresent(Map<K, ?> map, K key) {
        if (!map.containsKey(key)) {
            throw new IllegalStateException("no row " + key + " to update");
        }
    }

    /** Newest first by (time, id); the cursor is the sort key of the last item of the page. */
    private static <T> Page<T> page(Iterable<T> rows, Predicate<T> filter, Function<T, Instant> time,
                                    Function<T, String> id, PageRequest request) {
        Optional<Cursor> cursor = request.cursor().map(Cursor::decode);
        List<T> matching = new ArrayList<>();
        rows.forEach(row -> {
            if (filter.test(row) && cursor.map(c -> c.precedes(time.apply(row), id.apply(row))).orElse(true)) {
                matching.add(row);
            }
        });
        matching.sort(Comparator.comparing(time).thenComparing(id).reversed());
        int end = Math.min(matching.size(), request.limit());
        List<T> data = matching.subList(0, end);
        boolean more = end < matching.size();
        T last = more ? data.get(data.size() - 1) : null;
        return new Page<>(data, more,
                more ? Optional.of(new Cursor(time.apply(last), id.apply(last)).encode()) : Optional.empty());
    }
}
