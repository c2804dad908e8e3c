package com.agentwallet.adapters.persistence;

import com.agentwallet.core.common.Page;
import com.agentwallet.core.common.PageRequest;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.PolicyId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.policy.Policy;
import com.agentwallet.core.policy.PolicyRules;
import com.agentwallet.core.port.PolicyStore;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.SqlStatement;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

final class JdbiPolicies implements PolicyStore {
    private static final Pipeline.RowReader<Policy> READ = rs -> new Policy(new PolicyId(rs.getString("id")),
            new OrgId(rs.getString("org_id")), rs.getString("name"),
            new PolicyRules(Rows.optionalUsdc(rs, "max_per_tx"), Rows.optionalUsdc(rs, "max_per_day"),
                    Rows.optionalUsdc(rs, "max_per_month"), Rows.optionalInt(rs, "velocity_cap"),
                    Rows.strings(rs, "allowed_recipients"), new HashSet<>(Rows.strings(rs, "blocked_categories")),
                    Rows.optionalInstant(rs, "expiry"), Rows.optionalUsdc(rs, "require_co_sign"),
                    Rows.optionalString(rs, "co_signer")),
            rs.getLong("version"), Rows.instant(rs, "created_at"), Rows.instant(rs, "updated_at"));
    private static final RowMapper<Policy> ROW = (rs, ctx) -> READ.read(rs);

    private final Handle handle;
    private final Pipeline pipeline;
    /**
     * Policies this unit of work read, as it read them: the payments of a batch read their wallet's
     * policy once, as one payment reads it once. Forgotten when this unit of work writes a policy
     * (after the write: a read held back before it goes first).
     */
    private final Map<Map.Entry<OrgId, PolicyId>, Optional<Policy>> read = new HashMap<>();

    JdbiPolicies(Handle handle, Pipeline pipeline) {
        this.handle = handle;
        this.pipeline = pipeline;
    }

    @Override
    public void insert(Policy policy) {
        bind(handle.createUpdate("INSERT INTO policies (id, org_id, name, version, max_per_tx, max_per_day, max_per_month, "
                + "velocity_cap, allowed_recipients, blocked_categories, expiry, require_co_sign, co_signer, created_at, "
                + "updated_at) VALUES (:id, :org, :name, :version, :maxPerTx, :maxPerDay, :maxPerMonth, :velocityCap, "
                + ":allowed, :blocked, :expiry, :coSign, :coSigner, :createdAt, :updatedAt)"), policy).execute();
        read.clear();
    }

    @Override
    public Optional<Policy> find(OrgId orgId, PolicyId id) {
        return read.computeIfAbsent(Map.entry(orgId, id), key -> one(orgId, id, ""));
    }

    @Override
    public Optional<Policy> lock(OrgId orgId, PolicyId id) {
        return one(orgId, id, " FOR NO KEY UPDATE");
    }

    @Override
    public void update(Policy policy) {
        bind(handle.createUpdate("UPDATE policies SET name = :name, version = :version, max_per_tx = :maxPerTx, "
                + "max_per_day = :maxPerDay, max_per_month = :maxPerMonth, velocity_cap = :velocityCap, "
                + "allowed_recipients = :allowed, blocked_categories = :blocked, expiry = :expiry, "
                + "require_co_sign = :coSign, co_signer = :coSigner, updated_at = :updatedAt "
                + "WHERE id = :id AND org_id = :org AND deleted_at IS NULL"), policy).execute();
        read.clear();
    }

    @Override
    public void delete(OrgId orgId, PolicyId id) {
        handle.createUpdate("UPDATE policies SET deleted_at = now() WHERE id = :id AND org_id = :org AND deleted_at IS NULL")
                .bind("id", id.value()).bind("org", orgId.value()).execute();
        read.clear();
    }

    /**
     * Holds back the read of the policies of wallets, to go right after the statement that locks
     * them: with the wallets locked their policy ids cannot change, so these are the reads
     * {@link #find} would make next, without a round trip of their own. Forgotten, like any read,
     * when this unit of work writes a policy afterwards.
     */
    void prefetchOfWallets(OrgId orgId, List<String> walletIds) {
        pipeline.prefetch("SELECT * FROM policies WHERE org_id = ? AND deleted_at IS NULL AND id IN "
                        + "(SELECT policy_id FROM wallets WHERE id = ANY(?) AND org_id = ?)", READ,
                rows -> rows.forEach(policy -> read.put(Map.entry(policy.orgId(), policy.id()), Optional.of(policy))),
                orgId.value(), walletIds, orgId.value());
    }

    @Override
    public Page<Policy> list(OrgId orgId, PageRequest page) {
        return Listing.page(handle, "policies", orgId.value(), "deleted_at IS NULL", q -> {
        }, page, ROW, Policy::createdAt, p -> p.id().value());
    }

    @Override
    public List<Policy> blockingAny(OrgId orgId, Set<String> categories) {
        return handle.createQuery("SELECT * FROM policies WHERE org_id = :org AND deleted_at IS NULL "
                        + "AND blocked_categories && :categories ORDER BY created_at, id")
                .bind("org", orgId.value())
                .bindArray("categories", String.class, List.copyOf(categories))
                .map(ROW).list();
    }

    private Optional<Policy> one(OrgId orgId, PolicyId id, String suffix) {
        return pipeline.one("SELECT * FROM policies WHERE id = ? AND org_id = ? AND deleted_at IS NULL" + suffix, READ,
                id.value(), orgId.value());
    }

    private static <S extends SqlStatement<S>> S bind(S statement, Policy policy) {
        PolicyRules rules = policy.rules();
        return statement
                .bind("id", policy.id().value())
                .bind("org", policy.orgId().value())
                .bind("name", policy.name())
                .bind("version", policy.version())
                .bind("maxPerTx", Rows.micros(rules.maxPerTx()))
                .bind("maxPerDay", Rows.micros(rules.maxPerDay()))
                .bind("maxPerMonth", Rows.micros(rules.maxPerMonth()))
                .bind("velocityCap", rules.velocityCap().orElse(null))
                .bindArray("allowed", String.class, rules.allowedRecipients())
                .bindArray("blocked", String.class, List.copyOf(rules.blockedCategories()))
                .bind("expiry", Rows.timestamp(rules.expiry()))
                .bind("coSign", Rows.micros(rules.requireCoSign()))
                .bind("coSigner", rules.coSigner().orElse(null))
                .bind("createdAt", Rows.timestamp(policy.createdAt()))
                .bind("updatedAt", Rows.timestamp(policy.updatedAt()));
    }
}
