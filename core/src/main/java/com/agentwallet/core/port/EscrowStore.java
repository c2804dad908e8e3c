package com.agentwallet.core.port;

import com.agentwallet.core.auth.Requester;
import com.agentwallet.core.common.Page;
import com.agentwallet.core.common.PageRequest;
import com.agentwallet.core.escrow.Escrow;
import com.agentwallet.core.escrow.EscrowStatus;
import com.agentwallet.core.id.EscrowId;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.WalletId;

import java.time.Instant;
import java.util.Optional;

public interface EscrowStore {

    record Query(Optional<WalletId> walletId, Optional<EscrowStatus> status) {
        public static final Query ALL = new Query(Optional.empty(), Optional.empty());
    }

    void insert(Escrow escrow);

    Optional<Escrow> find(OrgId orgId, EscrowId id);

    /** Reads the escrow and locks it until the transaction ends. */
    Optional<Escrow> lock(OrgId orgId, EscrowId id);

    /** Reads an escrow of any organisation: the use case decides whether the requester is a party to it. */
    Optional<Escrow> findAnyOrg(EscrowId id);

    /** {@link #findAnyOrg}, and locks the escrow until the transaction ends. */
    Optional<Escrow> lockAnyOrg(EscrowId id);

    void update(Escrow escrow);

    /**
     * The escrows {@code party} is a party to, newest first: an organisation's are those it sends and
     * those its wallets receive; an agent's, those its wallet sends or receives. The query's wallet
     * filter matches either side.
     */
    Page<Escrow> list(Requester party, Query query, PageRequest page);

    /**
     * Claims the locked escrow, of any organisation, whose timeout passed earliest (at or before
     * {@code now}) and whose lock the ledger confirmed: it is locked until the transaction ends, and
     * escrows another transaction holds are skipped, so that servers sharing the database split the work.
     */
    Optional<Escrow> claimTimedOut(Instant now);

    /** Whether the wallet has an escrow that is locked or disputed. */
    boolean anyOpenFrom(OrgId orgId, WalletId walletId);
}
