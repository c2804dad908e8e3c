package com.agentwallet.core.port;

import com.agentwallet.core.common.Page;
import com.agentwallet.core.common.PageRequest;
import com.agentwallet.core.escrow.Escrow;
import com.agentwallet.core.escrow.EscrowStatus;
import com.agentwallet.core.id.EscrowId;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.WalletId;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

public interface EscrowStore {

    record Query(Optional<WalletId> walletId, Optional<EscrowStatus> status) {
        public static final Query ALL = new Query(Optional.empty(), Optional.empty());
    }

    void insert(Escrow escrow);

    Optional<Escrow> find(OrgId orgId, EscrowId id);

    /** Reads the escrow and locks it until the transaction ends. */
    Optional<Escrow> lock(OrgId orgId, EscrowId id);

    void update(Escrow escrow);

    Page<Escrow> list(OrgId orgId, Query query, PageRequest page);

    /** Locked escrows whose timeout is at or before {@code now}, earliest first. */
    List<Escrow> lockedTimedOutBy(Instant now, int limit);

    /** Whether the wallet has an escrow that is locked or disputed. */
    boolean anyOpenFrom(OrgId orgId, WalletId walletId);
}
