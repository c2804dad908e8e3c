package com.agentwallet.adapters.persistence;

import com.agentwallet.core.common.Page;
import com.agentwallet.core.common.PageRequest;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.PolicyId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.ledger.LedgerAddress;
import com.agentwallet.core.policy.SpendSummary;
import com.agentwallet.core.port.WalletStore;
import com.agentwallet.core.wallet.AutoTopup;
import com.agentwallet.core.wallet.Wallet;
import com.agentwallet.core.wallet.WalletStatus;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.SqlStatement;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

final class JdbiWallets implements WalletStore {
    static final RowMapper<Wallet> ROW = (rs, ctx) -> {
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

    private static final String COLUMNS = "id, org_id, agent_id, label, policy_id, tags, status, address, balance_micros, "
            + "spend_day_micros, spend_month_micros, spend_hour_count, day_cutoff, month_cutoff, hour_cutoff, "
            + "session_version, topup_enabled, topup_trigger_micros, topup_amount_micros, created_at, updated_at";
    private static final String VALUES = ":id, :org, :agent, :label, :policy, :tags, :status, :address, :balance, "
            + ":day, :month, :hours, :dayCutoff, :monthCutoff, :hourCutoff, :session, :topupEnabled, :topupTrigger, "
            + ":topupAmount, :createdAt, :updatedAt";

    private final Handle handle;
    /**
     * The rows this transaction holds locked, as it last read or wrote them: nobody else can change
     * them before it ends, and it writes them only through {@link #update}, so locking one again reads
     * nothing (the payments of a batch lock their wallet once). Empty outside a transaction.
     */
    private final Map<WalletId, Wallet> locked = new HashMap<>();

    JdbiWallets(Handle handle) {
        this.handle = handle;
    }

    @Override
    public boolean insertIfAbsent(Wallet wallet) {
        return bindAll(handle.createUpdate("INSERT INTO wallets (" + COLUMNS + ") VALUES (" + VALUES + ") "
                + "ON CONFLICT (org_id, agent_id) DO NOTHING"), wallet).execute() == 1;
    }

    @Override
    public Optional<Wallet> find(OrgId orgId, WalletId id) {
        return one("WHERE id = :id AND org_id = :org", id, Optional.of(orgId), "");
    }

    @Override
    public Optional<Wallet> lock(OrgId orgId, WalletId id) {
        Wallet held = locked.get(id);
        if (held != null && held.orgId().equals(orgId)) {
            return Optional.of(held);
        }
        return held(one("WHERE id = :id AND org_id = :org", id, Optional.of(orgId), " FOR NO KEY UPDATE"));
    }

    @Override
    public Optional<Wallet> findAnyOrg(WalletId id) {
        return one("WHERE id = :id", id, Optional.empty(), "");
    }

    @Override
    public Optional<Wallet> lockByAddress(String address) {
        return held(handle.createQuery("SELECT * FROM wallets WHERE address = :address FOR NO KEY UPDATE")
                .bind("address", address).map(ROW).findOne());
    }

    @Override
    public void update(Wallet wallet) {
        bindAll(handle.createUpdate("UPDATE wallets SET label = :label, policy_id = :policy, tags = :tags, "
                + "status = :status, balance_micros = :balance, spend_day_micros = :day, spend_month_micros = :month, "
                + "spend_hour_count = :hours, day_cutoff = :dayCutoff, month_cutoff = :monthCutoff, "
                + "hour_cutoff = :hourCutoff, session_version = :session, topup_enabled = :topupEnabled, "
                + "topup_trigger_micros = :topupTrigger, topup_amount_micros = :topupAmount, updated_at = :updatedAt "
                + "WHERE id = :id AND org_id = :org"), wallet).execute();
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

    private Optional<Wallet> one(String where, WalletId id, Optional<OrgId> orgId, String suffix) {
        var query = handle.createQuery("SELECT * FROM wallets " + where + suffix)
                .bind("id", id.value());
        orgId.ifPresent(org -> query.bind("org", org.value()));
        return query.map(ROW).findOne();
    }

    private static <S extends SqlStatement<S>> S bindAll(S statement, Wallet wallet) {
        SpendSummary spend = wallet.spend();
        return statement
                .bind("id", wallet.id().value())
                .bind("org", wallet.orgId().value())
                .bind("agent", wallet.agentId())
                .bind("label", wallet.label())
                .bind("policy", wallet.policyId().value())
                .bindArray("tags", String.class, wallet.tags())
                .bind("status", wallet.status().wireName())
                .bind("address", wallet.address().base58())
                .bind("balance", wallet.balance().micros())
                .bind("day", spend.day().micros())
                .bind("month", spend.month().micros())
                .bind("hours", spend.hourCount())
                .bind("dayCutoff", Rows.timestamp(spend.dayCutoff()))
                .bind("monthCutoff", Rows.timestamp(spend.monthCutoff()))
                .bind("hourCutoff", Rows.timestamp(spend.hourCutoff()))
                .bind("session", wallet.sessionVersion())
                .bind("topupEnabled", wallet.autoTopup().map(AutoTopup::enabled).orElse(null))
                .bind("topupTrigger", Rows.micros(wallet.autoTopup().map(AutoTopup::triggerBelow)))
                .bind("topupAmount", Rows.micros(wallet.autoTopup().map(AutoTopup::topupAmount)))
                .bind("createdAt", Rows.timestamp(wallet.createdAt()))
                .bind("updatedAt", Rows.timestamp(wallet.updatedAt()));
    }
}
