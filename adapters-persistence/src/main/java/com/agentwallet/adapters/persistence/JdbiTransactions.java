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
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
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
    private static final Columns<Transaction> FIXED = Columns.<Transaction>of()
            .and("id", Columns.Type.TEXT, tx -> tx.id().value())
            .and("org_id", Columns.Type.TEXT, tx -> tx.orgId().value())
            .and("wallet_id", Columns.Type.TEXT, tx -> tx.walletId().value())
            .and("type", Columns.Type.TEXT, tx -> tx.type().wireName())
            .and("amount_micros", Columns.Type.BIGINT, tx -> tx.amount().micros())
            .and("recipient", Columns.Type.TEXT, Transaction::recipient)
            .and("created_at", Columns.Type.TIMESTAMPTZ, tx -> Rows.timestamp(tx.createdAt()));
    /** The columns {@link #update} writes. */
    private static final Columns<Transaction> CHANGING = Columns.<Transaction>of()
            .and("status", Columns.Type.TEXT, tx -> tx.status().wireName())
            .and("memo", Columns.Type.TEXT, tx -> tx.memo().orElse(null))
            .and("policy_triggered", Columns.Type.BOOLEAN, Transaction::policyTriggered)
            .and("violation_rule", Columns.Type.TEXT, tx -> tx.violation().map(v -> v.rule().wireName()).orElse(null))
            .and("violation_limit", Columns.Type.TEXT, tx -> tx.violation().map(Violation::limit).orElse(null))
            .and("violation_attempted", Columns.Type.TEXT, tx -> tx.violation().map(Violation::attempted).orElse(null))
            .and("signature", Columns.Type.TEXT, tx -> tx.signature().orElse(null))
            .and("slot", Columns.Type.BIGINT, tx -> tx.slot().orElse(null))
            .and("co_signer", Columns.Type.TEXT, tx -> tx.coSign().map(CoSign::coSigner).orElse(null))
            .and("co_sign_payload", Columns.Type.TEXT, tx -> tx.coSign().map(CoSign::payload).orElse(null))
            .and("co_sign_expires_at", Columns.Type.TIMESTAMPTZ,
                    tx -> Rows.timestamp(tx.coSign().map(CoSign::expiresAt)))
            .and("co_signature", Columns.Type.TEXT, tx -> tx.coSign().flatMap(CoSign::signature).orElse(null))
            .and("co_sign_requested_by", Columns.Type.TEXT,
                    tx -> tx.coSign().flatMap(CoSign::requestedBy).map(Actor::id).orElse(null))
            .and("escrow_id", Columns.Type.TEXT, tx -> tx.escrowId().map(EscrowId::value).orElse(null))
            .and("failure_reason", Columns.Type.TEXT, tx -> tx.failureReason().orElse(null))
            .and("updated_at", Columns.Type.TIMESTAMPTZ, tx -> Rows.timestamp(tx.updatedAt()));
    private static final Columns<Transaction> KEY = Columns.<Transaction>of()
            .and("id", Columns.Type.TEXT, tx -> tx.id().value())
            .and("org_id", Columns.Type.TEXT, tx -> tx.orgId().value());
    private static final Pipeline.Kind<Transaction> INSERT = FIXED.and(CHANGING).insertInto("transactions", "");
    /** A whole row's update: of a transaction written twice, the last write counts. */
    private static final Pipeline.Kind<Transaction> UPDATE = CHANGING.update("transactions", KEY, "TRUE", true);
    /** {@link #UPDATE} on condition that the transaction is still pending: a ledger's outcome is applied once. */
    static final Pipeline.Kind<Transaction> UPDATE_IF_PENDING =
            CHANGING.update("transactions", KEY, stillPending("t.status"), true);
    static final String LOCK_ALL = "SELECT id, status FROM transactions WHERE id = ANY(?) AND org_id = ? "
            + "ORDER BY id COLLATE \"C\" FOR NO KEY UPDATE";

    private final Handle handle;
    private final Pipeline pipeline;
    /**
     * The status of each transaction {@link #lockAll} locked, as this unit of work last read or wrote
     * it (none for an id without a row); null while the read is held back. Nobody else changes a
     * locked row before the transaction ends.
     */
    private final Map<TxId, Optional<TransactionStatus>> locked = new HashMap<>();
    /** The transactions this unit of work inserted: nobody else knows their ids before it commits. */
    private final Set<TxId> inserted = new HashSet<>();

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
        pipeline.send(INSERT, tx);
        inserted.add(tx.id());
    }

    @Override
    public Optional<Transaction> find(OrgId orgId, TxId id) {
        return one(orgId, id, "");
    }

    @Override
    public Optional<Transaction> lock(OrgId orgId, TxId id) {
        return one(orgId, id, " FOR NO KEY UPDATE");
    }

    /**
     * One statement locks them all, in the order Java orders their ids (collation "C"), and reads
     * their statuses; held back until the next statement waited for. The rest of the transaction,
     * which applies the ledger's outcomes, is planned once per connection ({@link Pipeline#planOnce}).
     */
    @Override
    public void lockAll(OrgId orgId, Collection<TxId> ids) {
        List<TxId> wanted = ids.stream().filter(id -> !locked.containsKey(id)).distinct().toList();
        if (wanted.isEmpty()) {
            return;
        }
        wanted.forEach(id -> locked.put(id, null));
        pipeline.planOnce();
        pipeline.prefetch(LOCK_ALL, rs -> Map.entry(new TxId(rs.getString("id")),
                TransactionStatus.fromWire(rs.getString("status"), "status")), rows -> {
            wanted.forEach(id -> locked.put(id, Optional.empty()));
            rows.forEach(row -> locked.put(row.getKey(), Optional.of(row.getValue())));
        }, wanted.stream().map(TxId::value).toList(), orgId.value());
    }

    /** Held back until the next statement waited for (see {@link Pipeline}). */
    @Override
    public void update(Transaction tx) {
        if (locked.containsKey(tx.id())) {
            lockedStatus(tx.id());
            locked.put(tx.id(), Optional.of(tx.status()));
        }
        pipeline.send(UPDATE, tx);
    }

    /**
     * Of a transaction {@link #lockAll} locked, answered from the status read with the lock, and the
     * update held back until the next statement waited for; of any other, one conditional update.
     */
    @Override
    public boolean updateIfPending(Transaction tx) {
        if (!locked.containsKey(tx.id())) {
            Pipeline.Sql update = UPDATE_IF_PENDING.statementOf().apply(List.of(tx));
            return pipeline.update(update.sql(), update.values()) == 1;
        }
        if (!lockedStatus(tx.id()).equals(Optional.of(TransactionStatus.PENDING))) {
            return false;
        }
        pipeline.send(UPDATE_IF_PENDING, tx);
        locked.put(tx.id(), Optional.of(tx.status()));
        return true;
    }

    /** The status of a transaction {@link #lockAll} locked, its read sent first if held back. */
    private Optional<TransactionStatus> lockedStatus(TxId id) {
        if (locked.get(id) == null) {
            pipeline.flush();
        }
        return locked.get(id);
    }

    /**
     * One statement: a claim is made, or taken over from a holder whose claim lapsed, or left to its
     * holder. The claim of a transaction this unit of work inserted is held back (see {@link Pipeline}):
     * nobody else can have claimed an id nobody else knows, and were it so, the insert would fail the
     * unit of work rather than take the claim.
     */
    @Override
    public boolean claimSettlement(TxId id, String holder, Instant now, Instant until) {
        if (inserted.contains(id)) {
            pipeline.send("INSERT INTO settlement_claims (tx_id, holder, until) VALUES (?, ?, ?)", id.value(), holder,
                    Rows.timestamp(until));
            return true;
        }
        return pipeline.update("INSERT INTO settlement_claims (tx_id, holder, until) VALUES (?, ?, ?) "
                + "ON CONFLICT (tx_id) DO UPDATE SET holder = EXCLUDED.holder, until = EXCLUDED.until "
                + "WHERE settlement_claims.until <= ? OR settlement_claims.holder = EXCLUDED.holder",
                id.value(), holder, Rows.timestamp(until), Rows.timestamp(now)) == 1;
    }

    @Override
    public boolean releaseSettlement(TxId id, String holder) {
        return pipeline.update("DELETE FROM settlement_claims WHERE tx_id = ? AND holder = ?", id.value(), holder) == 1;
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
}
