package com.agentwallet.adapters.persistence;

import com.agentwallet.core.common.Page;
import com.agentwallet.core.common.PageRequest;
import com.agentwallet.core.auth.Requester;
import com.agentwallet.core.escrow.Dispute;
import com.agentwallet.core.escrow.Escrow;
import com.agentwallet.core.escrow.EscrowStatus;
import com.agentwallet.core.id.EscrowId;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.TxId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.port.EscrowStore;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.SqlStatement;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

final class JdbiEscrows implements EscrowStore {
    private static final RowMapper<Escrow> ROW = (rs, ctx) -> {
        Optional<String> disputeReason = Rows.optionalString(rs, "dispute_reason");
        Optional<Dispute> dispute = disputeReason.isEmpty() ? Optional.empty() : Optional.of(new Dispute(
                disputeReason.get(), rs.getString("dispute_evidence"), Rows.instant(rs, "disputed_at")));
        return new Escrow(new EscrowId(rs.getString("id")), new OrgId(rs.getString("org_id")),
                new WalletId(rs.getString("from_wallet")), rs.getString("to_wallet"), rs.getString("receiver"),
                Rows.optionalString(rs, "receiver_wallet").map(WalletId::new), Rows.usdc(rs, "amount_micros"),
                rs.getString("task_description"), rs.getLong("timeout_seconds"), Rows.instant(rs, "timeout_at"),
                Rows.optionalString(rs, "expected_proof"), EscrowStatus.fromWire(rs.getString("status"), "status"),
                Rows.optionalString(rs, "proof"), dispute, new TxId(rs.getString("lock_tx_id")),
                Rows.optionalString(rs, "settle_tx_id").map(TxId::new), Rows.optionalString(rs, "settle_reason"),
                Rows.instant(rs, "created_at"), Rows.instant(rs, "updated_at"));
    };

    /** A locked escrow past its timeout whose lock is settled, claimed by this transaction. */
    static final String CLAIM_TIMED_OUT = "SELECT * FROM escrows e WHERE e.status = 'locked' "
            + "AND e.timeout_at <= :now AND NOT EXISTS (SELECT 1 FROM transactions t WHERE t.id = e.lock_tx_id "
            + "AND " + JdbiTransactions.stillPending("t.status") + ") "
            + "ORDER BY e.timeout_at, e.id LIMIT 1 FOR UPDATE OF e SKIP LOCKED";

    private final Handle handle;

    JdbiEscrows(Handle handle) {
        this.handle = handle;
    }

    @Override
    public void insert(Escrow escrow) {
        bind(handle.createUpdate("INSERT INTO escrows (id, org_id, from_wallet, to_wallet, receiver, receiver_wallet, "
                + "amount_micros, task_description, timeout_seconds, timeout_at, expected_proof, status, proof, "
                + "dispute_reason, dispute_evidence, disputed_at, lock_tx_id, settle_tx_id, settle_reason, "
                + "created_at, updated_at, receiver_org) VALUES (:id, :org, :from, :to, :receiver, :receiverWallet, "
                + ":amount, :task, :timeout, :timeoutAt, :expectedProof, :status, :proof, :disputeReason, "
                + ":disputeEvidence, :disputedAt, :lockTx, :settleTx, :settleReason, :createdAt, :updatedAt, "
                + "(SELECT org_id FROM wallets WHERE id = :receiverWallet))"), escrow).execute();
    }

    @Override
    public Optional<Escrow> find(OrgId orgId, EscrowId id) {
        return one(orgId, id, "");
    }

    @Override
    public Optional<Escrow> lock(OrgId orgId, EscrowId id) {
        return one(orgId, id, " FOR NO KEY UPDATE");
    }

    @Override
    public Optional<Escrow> findAnyOrg(EscrowId id) {
        return handle.createQuery("SELECT * FROM escrows WHERE id = :id").bind("id", id.value()).map(ROW).findOne();
    }

    @Override
    public Optional<Escrow> lockAnyOrg(EscrowId id) {
        return handle.createQuery("SELECT * FROM escrows WHERE id = :id FOR NO KEY UPDATE").bind("id", id.value())
                .map(ROW).findOne();
    }

    @Override
    public void update(Escrow escrow) {
        bind(handle.createUpdate("UPDATE escrows SET status = :status, proof = :proof, dispute_reason = :disputeReason, "
                + "dispute_evidence = :disputeEvidence, disputed_at = :disputedAt, settle_tx_id = :settleTx, "
                + "settle_reason = :settleReason, updated_at = :updatedAt WHERE id = :id AND org_id = :org"), escrow)
                .execute();
    }

    /**
     * An organisation's escrows are those it sends and those its wallets receive; an agent's, those
     * its wallet sends (always of its own organisation) or receives.
     */
    @Override
    public Page<Escrow> list(Requester party, Query query, PageRequest page) {
        List<String> scopes = party instanceof Requester.Agent
                ? List.of("org_id = :org AND from_wallet = :party", "receiver_wallet = :party")
                : List.of("org_id = :org", "receiver_org = :org");
        String filter = "(CAST(:wallet AS text) IS NULL OR from_wallet = :wallet OR receiver_wallet = :wallet) "
                + "AND (CAST(:status AS text) IS NULL OR status = :status)";
        return Listing.pageWithin(handle, "escrows", scopes, filter, q -> {
            q.bind("org", party.orgId().value())
                    .bind("wallet", query.walletId().map(WalletId::value).orElse(null))
                    .bind("status", query.status().map(EscrowStatus::wireName).orElse(null));
            if (party instanceof Requester.Agent agent) {
                q.bind("party", agent.walletId().value());
            }
        }, page, ROW, Escrow::createdAt, e -> e.id().value());
    }

    @Override
    public Optional<Escrow> claimTimedOut(Instant now) {
        return handle.createQuery(CLAIM_TIMED_OUT).bind("now", Rows.timestamp(now)).map(ROW).findOne();
    }

    @Override
    public boolean anyOpenFrom(OrgId orgId, WalletId walletId) {
        return handle.createQuery("SELECT EXISTS (SELECT 1 FROM escrows WHERE org_id = :org AND from_wallet = :wallet "
                        + "AND status IN ('locked', 'disputed'))")
                .bind("org", orgId.value()).bind("wallet", walletId.value()).mapTo(Boolean.class).one();
    }

    private Optional<Escrow> one(OrgId orgId, EscrowId id, String suffix) {
        return handle.createQuery("SELECT * FROM escrows WHERE id = :id AND org_id = :org" + suffix)
                .bind("id", id.value()).bind("org", orgId.value()).map(ROW).findOne();
    }

    private static <S extends SqlStatement<S>> S bind(S statement, Escrow escrow) {
        return statement
                .bind("id", escrow.id().value())
                .bind("org", escrow.orgId().value())
                .bind("from", escrow.fromWallet().value())
                .bind("to", escrow.toWallet())
                .bind("receiver", escrow.receiver())
                .bind("receiverWallet", escrow.receiverWallet().map(WalletId::value).orElse(null))
                .bind("amount", escrow.amount().micros())
                .bind("task", escrow.taskDescription())
                .bind("timeout", escrow.timeoutSeconds())
                .bind("timeoutAt", Rows.timestamp(escrow.timeoutAt()))
                .bind("expectedProof", escrow.expectedProof().orElse(null))
                .bind("status", escrow.status().wireName())
                .bind("proof", escrow.proof().orElse(null))
                .bind("disputeReason", escrow.dispute().map(Dispute::reason).orElse(null))
                .bind("disputeEvidence", escrow.dispute().map(Dispute::evidence).orElse(null))
                .bind("disputedAt", Rows.timestamp(escrow.dispute().map(Dispute::at)))
                .bind("lockTx", escrow.lockTx().value())
                .bind("settleTx", escrow.settleTx().map(TxId::value).orElse(null))
                .bind("settleReason", escrow.settleReason().orElse(null))
                .bind("createdAt", Rows.timestamp(escrow.createdAt()))
                .bind("updatedAt", Rows.timestamp(escrow.updatedAt()));
    }
}
