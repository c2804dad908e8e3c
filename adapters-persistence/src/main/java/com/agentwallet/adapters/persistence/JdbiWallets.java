package com.agentwallet.adapters.persistence;

import com.agentwallet.core.common.Page;
import com.agentwallet.core.common.PageRequest;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.PolicyId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.ledger.LedgerAddress;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.policy.SpendSummary;
import com.agentwallet.core.port.WalletStore;
import com.agentwallet.core.wallet.AutoTopup;
import com.agentwallet.core.wallet.Wallet;
import com.agentwallet.core.wallet.WalletStatus;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.RowMapper;

import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

final class JdbiWallets implements WalletStore {
    static final Pipeline.RowReader<Wallet> READ = rs -> {
        Boolean topupEnabled = (Boolean) rs.getObject("topup_enabled");
        Optional<AutoTopup> topup = topupEnabled == null ? Optional.empty() : Optional.of(new AutoTopup(topupEnabled,
                Rows.usdc(rs, "topup_trigger_micros"), Rows.usdc(rs, "topup_amount_micros")));
        return new Wallet(new WalletId(rs.getString("id")), new OrgId(rs.getString("org_id")), rs.getString("agent_id"),
                rs.getString("label"), new PolicyId(rs.getString("policy_id")), Rows.strings(rs, "tags"),
                WalletStatus.fromWire(rs.getString("status"), "status"), new LedgerAddress(rs.getString("address")),
                Rows.usdc(rs, "balance_micros"),
                new SpendSummary(Rows.usdc(rs, "spend_day_micros"), Rows.usdc(rs, "spend_month_micros"),
                        rs.getInt("spend_hour_count"), Rows.instant(rs, "day_cutoff"), Rows.instant(rs, "month_cutoff"),
                        Rows.instant(rs, "hour_cutoff")),
                rs.getLong("session_version"), topup, Rows.instant(rs, "created_at"), Rows.instant(rs, "updated_at"));
    };
    static final RowMapper<Wallet> ROW = (rs, ctx) -> READ.read(rs);

    /** The columns a wallet is created with and keeps. */
    private static final Columns<Wallet> FIXED = Columns.<Wallet>of()
            .and("id", Columns.Type.TEXT, wallet -> wallet.id().value())
            .and("org_id", Columns.Type.TEXT, wallet -> wallet.orgId().value())
            .and("agent_id", Columns.Type.TEXT, Wallet::agentId)
            .and("address", Columns.Type.TEXT, wallet -> wallet.address().base58())
            .and("created_at", Columns.Type.TIMESTAMPTZ, wallet -> Rows.timestamp(wallet.createdAt()));
    /** The columns {@link #update} writes. */
    private static final Columns<Wallet> CHANGING = Columns.<Wallet>of()
            .and("label", Columns.Type.TEXT, Wallet::label)
            .and("policy_id", Columns.Type.TEXT, wallet -> wallet.policyId().value())
            .and("tags", Columns.Type.TEXT_ARRAY, Wallet::tags)
            .and("status", Columns.Type.TEXT, wallet -> wallet.status().wireName())
            .and("balance_micros", Columns.Type.BIGINT, wallet -> wallet.balance().micros())
            .and("spend_day_micros", Columns.Type.BIGINT, wallet -> wallet.spend().day().micros())
            .and("spend_month_micros", Columns.Type.BIGINT, wallet -> wallet.spend().month().micros())
            .and("spend_hour_count", Columns.Type.INTEGER, wallet -> wallet.spend().hourCount())
            .and("day_cutoff", Columns.Type.TIMESTAMPTZ, wallet -> Rows.timestamp(wallet.spend().dayCutoff()))
            .and("month_cutoff", Columns.Type.TIMESTAMPTZ, wallet -> Rows.timestamp(wallet.spend().monthCutoff()))
            .and("hour_cutoff", Columns.Type.TIMESTAMPTZ, wallet -> Rows.timestamp(wallet.spend().hourCutoff()))
            .and("session_version", Columns.Type.BIGINT, Wallet::sessionVersion)
            .and("topup_enabled", Columns.Type.BOOLEAN, wallet -> wallet.autoTopup().map(AutoTopup::enabled).orElse(null))
            .and("topup_trigger_micros", Columns.Type.BIGINT,
                    wallet -> Rows.micros(wallet.autoTopup().map(AutoTopup::triggerBelow)))
            .and("topup_amount_micros", Columns.Type.BIGINT,
                    wallet -> Rows.micros(wallet.autoTopup().map(AutoTopup::topupAmount)))
            .and("updated_at", Columns.Type.TIMESTAMPTZ, wallet -> Rows.timestamp(wallet.updatedAt()));
    /** A whole row's update: of a wallet written twice, the last write counts. */
    private static final Pipeline.Kind<Wallet> UPDATE = CHANGING.update("wallets", Columns.<Wallet>of()
            .and("id", Columns.Type.TEXT, wallet -> wallet.id().value())
            .and("org_id", Columns.Type.TEXT, wallet -> wallet.orgId().value()), "TRUE", true);
    private static final Pipeline.Kind<Wallet> INSERT = FIXED.and(CHANGING)
            .insertInto("wallets", " ON CONFLICT (org_id, agent_id) DO NOTHING");
    /** Money arriving at a wallet's address. */
    private record Credit(String address, long amountMicros, Instant at) {
    }

    private static final Columns<Credit> CREDITED = Columns.<Credit>of()
            .and("amount_micros", Columns.Type.BIGINT, Credit::amountMicros)
            .and("at", Columns.Type.TIMESTAMPTZ, credit -> Rows.timestamp(credit.at()))
            .and("address", Columns.Type.TEXT, Credit::address);
    private static final Pipeline.Kind<Credit> CREDIT = new Pipeline.Kind<>("wallets", JdbiWallets::creditAll);
    private static final String BY_ID = "SELECT * FROM wallets WHERE id = ? AND org_id = ?";
    static final String LOCK_ALL = "SELECT * FROM wallets WHERE id = ANY(?) AND org_id = ? "
            + "ORDER BY id COLLATE \"C\" FOR NO KEY UPDATE";

    private static final String LOCK_AT = "SELECT * FROM wallets WHERE address = ANY(?) "
            + "ORDER BY id COLLATE \"C\" FOR NO KEY UPDATE";

    private final Handle handle;
    private final Pipeline pipeline;
    private final JdbiPolicies policies;
    private final JdbiSpendLog spendLog;
    private final Clock clock;
    /**
     * The rows this transaction holds locked, as it last read or wrote them: nobody else can change
     * them before it ends, and it writes them only through {@link #update}, so locking one again reads
     * nothing (the payments of a batch lock their wallet once); a credit by address drops the copy it
     * changes. Empty outside a transaction.
     */
    private final Map<WalletId, Wallet> locked = new HashMap<>();

    JdbiWallets(Handle handle, Pipeline pipeline, JdbiPolicies policies, JdbiSpendLog spendLog, Clock clock) {
        this.handle = handle;
        this.pipeline = pipeline;
        this.policies = policies;
        this.spendLog = spendLog;
        this.clock = clock;
    }

    @Override
    public boolean insertIfAbsent(Wallet wallet) {
        Pipeline.Sql insert = INSERT.statementOf().apply(List.of(wallet));
        return pipeline.update(insert.sql(), insert.values()) == 1;
    }

    @Override
    public Optional<Wallet> find(OrgId orgId, WalletId id) {
        return pipeline.one(BY_ID, READ, id.value(), orgId.value());
    }

    /** {@link #lockAll} of the one wallet. */
    @Override
    public Optional<Wallet> lock(OrgId orgId, WalletId id) {
        lockAll(orgId, List.of(id));
        return Optional.ofNullable(locked.get(id)).filter(wallet -> wallet.orgId().equals(orgId));
    }

    /**
     * One statement locks those not yet held, ordered as Java orders their ids (collation "C", not
     * the database's); their policies and the spends that may leave their windows are read right
     * after, in the same round trip: who locks a wallet checks a payment. The rest of the transaction
     * is planned once per connection ({@link Pipeline#planOnce}).
     */
    @Override
    public void lockAll(OrgId orgId, Collection<WalletId> ids) {
        List<String> wanted = ids.stream().filter(id -> !locked.containsKey(id)).map(WalletId::value).distinct().toList();
        if (wanted.isEmpty()) {
            return;
        }
        Map<WalletId, Wallet> found = new HashMap<>();
        pipeline.planOnce();
        pipeline.prefetch(LOCK_ALL, READ, rows -> rows.forEach(wallet -> found.put(wallet.id(), wallet)),
                wanted, orgId.value());
        policies.prefetchOfWallets(orgId, wanted);
        spendLog.readAheadOfLocks(orgId, wanted, id -> Optional.ofNullable(found.get(id)).map(Wallet::spend),
                clock.instant());
        pipeline.flush();
        locked.putAll(found);
    }

    /**
     * One statement, ordered as {@link #lockAll} orders, held back to ride with the next round trip:
     * the database runs it before any statement sent after it, so the credits that follow find their
     * rows locked. The rows are kept as locked copies once read.
     */
    @Override
    public void lockAllAt(Collection<String> addresses) {
        List<String> wanted = addresses.stream().distinct().toList();
        if (wanted.isEmpty()) {
            return;
        }
        pipeline.prefetch(LOCK_AT, READ, rows -> rows.forEach(wallet -> locked.put(wallet.id(), wallet)), wanted);
    }

    @Override
    public Optional<Wallet> findAnyOrg(WalletId id) {
        return pipeline.one("SELECT * FROM wallets WHERE id = ?", READ, id.value());
    }

    /**
     * Held back until the next statement waited for (see {@link Pipeline}). The increment takes the
     * row's lock and adds to the balance as the last writer left it; a copy this transaction holds
     * of that wallet is dropped, so that locking it again reads the new balance.
     */
    @Override
    public void creditByAddress(String address, Usdc amount, Instant now) {
        pipeline.send(CREDIT, new Credit(address, amount.micros(), now));
        locked.values().removeIf(wallet -> wallet.address().base58().equals(address));
    }

    /** Held back until the next statement waited for (see {@link Pipeline}). */
    @Override
    public void update(Wallet wallet) {
        pipeline.send(UPDATE, wallet);
        locked.computeIfPresent(wallet.id(), (id, before) -> wallet);
    }

    @Override
    public Page<Wallet> list(OrgId orgId, WalletStore.Query query, PageRequest page) {
        String filter = "(CAST(:status AS text) IS NULL OR status = :status) AND tags @> :tags";
        return Listing.page(handle, "wallets", orgId.value(), filter, q -> q
                        .bind("status", query.status().map(WalletStatus::wireName).orElse(null))
                        .bindArray("tags", String.class, query.tags()),
                page, ROW, Wallet::createdAt, w -> w.id().value());
    }

    @Override
    public boolean anyUsesPolicy(OrgId orgId, PolicyId policyId) {
        return handle.createQuery("SELECT EXISTS (SELECT 1 FROM wallets WHERE org_id = :org AND policy_id = :policy "
                        + "AND status <> 'archived')")
                .bind("org", orgId.value()).bind("policy", policyId.value()).mapTo(Boolean.class).one();
    }

    @Override
    public Optional<Wallet> claimActiveWithPolicyExpired(Instant now) {
        return held(handle.createQuery("SELECT w.* FROM wallets w JOIN policies p ON p.id = w.policy_id "
                        + "WHERE w.status = 'active' AND p.expiry <= :now ORDER BY p.expiry, w.id "
                        + "LIMIT 1 FOR UPDATE OF w SKIP LOCKED")
                .bind("now", Rows.timestamp(now)).map(ROW).findOne());
    }

    private Optional<Wallet> held(Optional<Wallet> lockedNow) {
        lockedNow.ifPresent(wallet -> locked.put(wallet.id(), wallet));
        return lockedNow;
    }

    /**
     * Credits held back together: summed by address, in one statement that adds to each wallet found
     * among the rows its subquery locks in the order of their ids (the global lock order; the rows
     * of the join alone would be locked in the join's order). A row is updated only once the locking
     * subquery has given it, so every lock is taken in that order.
     */
    private static Pipeline.Sql creditAll(List<Credit> credits) {
        Map<String, Credit> byAddress = new LinkedHashMap<>();
        credits.forEach(credit -> byAddress.merge(credit.address(), credit, (before, next) ->
                new Credit(next.address(), Math.addExact(before.amountMicros(), next.amountMicros()), next.at())));
        if (byAddress.size() == 1) {
            Credit one = byAddress.values().iterator().next();
            return new Pipeline.Sql("UPDATE wallets SET balance_micros = balance_micros + ?, updated_at = ? "
                    + "WHERE address = ?", one.amountMicros(), Rows.timestamp(one.at()), one.address());
        }
        return new Pipeline.Sql("UPDATE wallets AS t SET balance_micros = t.balance_micros + v.amount_micros, "
                + "updated_at = v.at FROM " + CREDITED.unnest() + " WHERE t.address = v.address AND t.id IN "
                + "(SELECT id FROM wallets WHERE address = ANY(?) ORDER BY id COLLATE \"C\" FOR NO KEY UPDATE)",
                Rows.concat(CREDITED.arrays(byAddress.values()), new Object[] {List.copyOf(byAddress.keySet())}));
    }
}
