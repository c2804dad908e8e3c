package com.agentwallet.bench;

import com.agentwallet.core.common.Page;
import com.agentwallet.core.common.PageRequest;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.PolicyId;
import com.agentwallet.core.id.TxId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.policy.Policy;
import com.agentwallet.core.policy.SpendEntry;
import com.agentwallet.core.policy.TimeRange;
import com.agentwallet.core.port.AdminSequence;
import com.agentwallet.core.port.ApiKeyStore;
import com.agentwallet.core.port.DashboardSessionStore;
import com.agentwallet.core.port.DeliveryStore;
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

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The books of one wallet in memory, as far as its policy check reads them: its policy, its spends
 * sorted by time (a range is found by one binary search, as PostgreSQL finds it by a probe of the
 * {@code (wallet_id, at)} index), and no recipient categories. The check writes nothing; every
 * other store, and every write, is refused.
 */
final class PolicyCheckBooks implements Storage, Stores, PolicyStore, SpendLog, RecipientCategoryStore {
    private final Policy policy;
    private final WalletId walletId;
    private final List<SpendEntry> spends;

    PolicyCheckBooks(Policy policy, WalletId walletId, List<SpendEntry> spends) {
        this.policy = policy;
        this.walletId = walletId;
        this.spends = spends.stream().sorted(Comparator.comparing(SpendEntry::at)).toList();
    }

    @Override
    public <T> T inTransaction(Function<Stores, T> work) {
        return work.apply(this);
    }

    @Override
    public Optional<Policy> find(OrgId orgId, PolicyId id) {
        return policy.orgId().equals(orgId) && policy.id().equals(id) ? Optional.of(policy) : Optional.empty();
    }

    @Override
    public List<SpendEntry> entriesIn(WalletId wallet, List<TimeRange> ranges) {
        if (!wallet.equals(walletId)) {
            return List.of();
        }
        Set<SpendEntry> found = new LinkedHashSet<>();
        for (TimeRange range : ranges) {
            for (int i = firstAfter(range.after()); i < spends.size() && range.contains(spends.get(i).at()); i++) {
                found.add(spends.get(i));
            }
        }
        return new ArrayList<>(found);
    }

    private int firstAfter(Instant at) {
        int low = 0;
        int high = spends.size();
        while (low < high) {
            int middle = (low + high) >>> 1;
            if (spends.get(middle).at().isAfter(at)) {
                high = middle;
            } else {
                low = middle + 1;
            }
        }
        return low;
    }

    @Override
    public Optional<String> categoryOf(OrgId orgId, String recipient) {
        return Optional.empty();
    }

    @Override
    public PolicyStore policies() {
        return this;
    }

    @Override
    public SpendLog spendLog() {
        return this;
    }

    @Override
    public RecipientCategoryStore recipientCategories() {
        return this;
    }

    private static UnsupportedOperationException notRead() {
        return new UnsupportedOperationException("the policy check does not use this");
    }

    @Override
    public OrganisationStore organisations() {
        throw notRead();
    }

    @Override
    public ApiKeyStore apiKeys() {
        throw notRead();
    }

    @Override
    public WalletStore wallets() {
        throw notRead();
    }

    @Override
    public PolicyAuditLog policyAudit() {
        throw notRead();
    }

    @Override
    public TransactionStore transactions() {
        throw notRead();
    }

    @Override
    public EscrowStore escrows() {
        throw notRead();
    }

    @Override
    public IdempotencyStore idempotency() {
        throw notRead();
    }

    @Override
    public RequestKeyStore requestKeys() {
        throw notRead();
    }

    @Override
    public UserStore users() {
        throw notRead();
    }

    @Override
    public DashboardSessionStore dashboardSessions() {
        throw notRead();
    }

    @Override
    public WebhookStore webhooks() {
        throw notRead();
    }

    @Override
    public ExportStore exports() {
        throw notRead();
    }

    @Override
    public EventOutbox outbox() {
        throw notRead();
    }

    @Override
    public DeliveryStore deliveries() {
        throw notRead();
    }

    @Override
    public AdminSequence adminSequence() {
        throw notRead();
    }

    @Override
    public void insert(Policy inserted) {
        throw notRead();
    }

    @Override
    public Optional<Policy> lock(OrgId orgId, PolicyId id) {
        throw notRead();
    }

    @Override
    public void update(Policy updated) {
        throw notRead();
    }

    @Override
    public void delete(OrgId orgId, PolicyId id) {
        throw notRead();
    }

    @Override
    public Page<Policy> list(OrgId orgId, PageRequest page) {
        throw notRead();
    }

    @Override
    public List<Policy> blockingAny(OrgId orgId, Set<String> categories) {
        throw notRead();
    }

    @Override
    public void append(WalletId wallet, SpendEntry entry) {
        throw notRead();
    }

    @Override
    public Optional<SpendEntry> remove(WalletId wallet, TxId txId) {
        throw notRead();
    }

    @Override
    public void put(OrgId orgId, String recipient, String category) {
        throw notRead();
    }

    @Override
    public Set<String> recipientsIn(OrgId orgId, Set<String> categories) {
        throw notRead();
    }
}
