package com.agentwallet.adapters.persistence;

import com.agentwallet.core.common.Actor;
import com.agentwallet.core.common.Page;
import com.agentwallet.core.common.PageRequest;
import com.agentwallet.core.id.EscrowId;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.TxId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.payment.CoSign;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.payment.TransactionStatus;
import com.agentwallet.core.payment.TransactionType;
import com.agentwallet.core.policy.Violation;
import com.agentwallet.core.policy.ViolationRule;
import com.agentwallet.core.common.WireNamed;
import com.agentwallet.core.port.TransactionStore;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.RowMapper;

import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

final class JdbiTransactions implements TransactionStore {
    static final Pipeline.RowReader<Transaction> READ = rs -> {
        Optional<String> rule = Rows.optionalString(rs, "violation_rule");
        Optional<Violation> violation = rule.isEmpty() ? Optional.empty() : Optional.of(new Violation(
                WireNamed.parse(ViolationRule.class, rule.get(), "violation_rule"), rs.getString("violation_limit"),
                rs.getString("violation_attempted")));
        Optional<String> coSigner = Rows.optionalString(rs, "co_signer");
        Optional<CoSign> coSign = coSigner.isEmpty() ? Optional.empty() : Optional.of(new CoSign(coSigner.get(),
                rs.getString("co_sign_payload"), Rows.instant(rs, "co_sign_expires_at"),
                Rows.optionalString(rs, "co_signature"),
                Rows.optionalString(rs, "co_sign_requested_by").map(Actor::new)));
        return new Transaction(new TxId(rs.getString("id")), new OrgId(rs.getString("org_id")),
                new WalletId(rs.getString("wallet_id")), TransactionType.fromWire(rs.getString("type"), "type"),
                TransactionStatus.fromWire(rs.getString("status"), "status"), Rows.usdc(rs, "amount_micros"),
                rs.getString("recipient"), Rows.optionalString(rs, "memo"), rs.getBoolean("policy_triggered"),
                violation, Rows.optionalString(rs, "signature"), Rows.optionalLong(rs, "slot"), coSign,
                Rows.optionalString(rs, "escrow_id").map(EscrowId::new), Rows.optionalString(rs, "failure_reason"),
                Rows.instant(rs, "created_at"), Rows.instant(rs, "updated_at"));
    };
    static final RowMapper<Transaction> ROW = (rs, ctx) -> READ.read(rs);

    /** The columns a transaction is created with and keeps. */
    private static final String FIXED = "id, org_id, wallet_id, type, amount_micros, recipient, created_at";
    /** The columns {@link #update} writes. */
    private static final String CHANGING = "status, memo, policy_triggered, violation_rule, violation_limit, "
            + "violation_attempted, signature, slot, co_signer, co_sign_payload, co_sign_expires_at, co_signature, "
            + "co_sign_requested_by, escrow_id, failure_reason, updated_at";
    private static final Pipeline.Kind INSERT = Pipeline.rowsOf(Rows.insertWhole("transactions", FIXED, CHANGING));
    /** The SQL types of {@link #CHANGING}, in its order, then of the id and organisation. */
    private static final List<String> TYPES = List.of("text", "text", "boolean", "text", "text", "text", "text",
            "bigint", "text", "text", "timestamptz", "text", "text", "text", "text", "timestamptz", "text", "text");
    private static final String UPDATE = Rows.updateByIdAndOrg("transactions", CHANGING);
    /** {@link #UPDATE} on condition that the transaction is still pending: a ledger's outcome is applied once. */
    static final String UPDATE_IF_PENDING = UPDATE + " AND " + stillPending("status");

    private final Handle handle;
    private final Pipeline pipeline;

    /**
     * The condition that a transaction, whose status is {@code column}, is still pending, for a
     * statement that finds the transaction by its id. It is written {@code IS NOT DISTINCT FROM}, the
     * same as {@code =} on this NOT NULL column, so that the planner finds the row by its primary key.
     * With {@code = 'pending'} it takes an index whose entries start with that status instead
     * ({@code transactions_pending}, {@code transactions_org_status}): it counts the few live pending
     * rows, but the index holds every payment's pending entry since the last vacuum, and the scan
     * walks them all (0.2 to 9 ms a call under the service load benchmark, against 0.05 ms by the
     * key).
     */
    static String stillPending(String column) {
        return column + " IS NOT DISTINCT FROM 'pending'";
    }

    JdbiTransactions(Handle handle, Pipeline pipeline) {
        this.handle = handle;
        this.pipeline = pipeline;
    }

    /** Held back until the next statement waited for (see {@link Pipeline}). */
    @Override
    public void insert(Transaction tx) {
        pipeline.send(INSERT, Rows.concat(fixed(tx), changing(tx)));
    }

    @Override
    public Optional<Transaction> find(OrgId orgId, TxId id) {
        return one(orgId, id, "");
    }

    @Override
    public Optional<Transaction> lock(OrgId orgId, TxId id) {
        return one(orgId, id, " FOR NO KEY UPDATE");
    }

    /** Held back until the next statement waited for (see {@link Pipeline}). */
    @Override
    public void update(Transaction tx) {
        pipeline.send(UPDATE, byId(tx));
    }

    @Override
    public boolean updateIfPending(Transaction tx) {
        return pipeline.update(UPDATE_IF_PENDING, byId(tx)) == 1;
    }

    /**
     * One statement for all: an update from a list of rows, answering where in the list each row it
     * stored is (a number, not the id: its rows of values hold nulls, see {@link Pipeline}). The rest
     * of the transaction that applies the ledger's outcomes is planned once per connection
     * ({@link Pipeline#planOnce}).
     */
    @Override
    public Set<TxId> updateAllIfPending(List<Transaction> transactions) {
        pipeline.planOnce();
        if (transactions.size() <= 1) {
            return TransactionStore.super.updateAllIfPending(transactions);
        }
        List<String> ids = transactions.stream().map(tx -> tx.id().value()).toList();
        return new HashSet<>(pipeline.list(updateAllIfPending(transactions.size()),
                rs -> transactions.get(rs.getInt(1) - 1).id(),
                Rows.concat(Rows.flat(transactions.stream().map(JdbiTransactions::byId).toList()), new Object[] {ids})));
    }

    /**
     * {@link #UPDATE_IF_PENDING} of {@code rows} transactions in one statement, answering the place of
     * each it stored in the list of their ids, its last value (from 1).
     */
    static String updateAllIfPending(int rows) {
        return Rows.updateManyByIdAndOrg("transactions", CHANGING, TYPES, rows) + " AND " + stillPending("t.status")
                + " RETURNING array_position(CAST(? AS text[]), t.id)";
    }

    private static Object[] byId(Transaction tx) {
        return Rows.concat(changing(tx), new Object[] {tx.id().value(), tx.orgId().value()});
    }

    @Override
    public Page<Transaction> list(OrgId orgId, Query query, PageRequest page) {
        String filter = "(CAST(:wallet AS text) IS NULL OR wallet_id = :wallet) "
                + "AND (CAST(:status AS text) IS NULL OR status = :status) "
                + "AND (CAST(:type AS text) IS NULL OR type = :type) "
                + "AND (CAST(:from AS timestamptz) IS NULL OR created_at >= :from) "
                + "AND (CAST(:to AS timestamptz) IS NULL OR created_at < :to)";
        return Listing.page(handle, "transactions", orgId.value(), filter, q -> q
                        .bind("wallet", query.walletId().map(WalletId::value).orElse(null))
                        .bind("status", query.status().map(TransactionStatus::wireName).orElse(null))
                        .bind("type", query.type().map(TransactionType::wireName).orElse(null))
                        .bind("from", Rows.timestamp(query.from()))
                        .bind("to", Rows.timestamp(query.to())),
                page, ROW, Transaction::createdAt, tx -> tx.id().value());
    }

    @Override
    public List<Transaction> pendingSince(Instant changedBy, int limit) {
        return handle.createQuery("SELECT * FROM transactions WHERE status = 'pending' AND updated_at <= :by "
                        + "ORDER BY updated_at, id LIMIT :limit")
                .bind("by", Rows.timestamp(changedBy)).bind("limit", limit).map(ROW).list();
    }

    @Override
    public Optional<Transaction> claimCoSignExpired(Instant now) {
        return handle.createQuery("SELECT * FROM transactions WHERE status = 'pending_co_sign' "
                        + "AND co_sign_expires_at <= :now ORDER BY co_sign_expires_at, id LIMIT 1 FOR UPDATE SKIP LOCKED")
                .bind("now", Rows.timestamp(now)).map(ROW).findOne();
    }

    @Override
    public boolean anyAwaitingCoSign(OrgId orgId, WalletId walletId) {
        return handle.createQuery("SELECT EXISTS (SELECT 1 FROM transactions WHERE wallet_id = :wallet "
                        + "AND org_id = :org AND status = 'pending_co_sign')")
                .bind("wallet", walletId.value()).bind("org", orgId.value()).mapTo(Boolean.class).one();
    }

    private Optional<Transaction> one(OrgId orgId, TxId id, String suffix) {
        return pipeline.one("SELECT * FROM transactions WHERE id = ? AND org_id = ?" + suffix, READ, id.value(),
                orgId.value());
    }

    private static Object[] fixed(Transaction tx) {
        return new Object[] {tx.id().value(), tx.orgId().value(), tx.walletId().value(), tx.type().wireName(),
                tx.amount().micros(), tx.recipient(), Rows.timestamp(tx.createdAt())};
    }

    /** The values of {@link #CHANGING}, in its order. */
    private static Object[] changing(Transaction tx) {
        return new Object[] {tx.status().wireName(), tx.memo().orElse(null), tx.policyTriggered(),
                tx.violation().map(v -> v.rule().wireName()).orElse(null),
                tx.violation().map(Violation::limit).orElse(null), tx.violation().map(Violation::attempted).orElse(null),
                tx.signature().orElse(null), tx.slot().orElse(null), tx.coSign().map(CoSign::coSigner).orElse(null),
                tx.coSign().map(CoSign::payload).orElse(null), Rows.timestamp(tx.coSign().map(CoSign::expiresAt)),
                tx.coSign().flatMap(CoSign::signature).orElse(null),
                tx.coSign().flatMap(CoSign::requestedBy).map(Actor::id).orElse(null),
                tx.escrowId().map(EscrowId::value).orElse(null), tx.failureReason().orElse(null),
                Rows.timestamp(tx.updatedAt())};
    }
}
