package com.agentwallet.core.port;

import com.agentwallet.core.common.Page;
import com.agentwallet.core.common.PageRequest;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.PolicyId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.wallet.Wallet;
import com.agentwallet.core.wallet.WalletStatus;

import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

public interface WalletStore {

    /** Filters of the wallet list: by status, and by tags (a wallet matches when it has all of them). */
    record Query(Optional<WalletStatus> status, List<String> tags) {
        public static final Query ALL = new Query(Optional.empty(), List.of());

        public Query {
            tags = List.copyOf(tags);
        }
    }

    /** Inserts the wallet, or returns false when the organisation already has one for its agent id. */
    boolean insertIfAbsent(Wallet wallet);

    Optional<Wallet> find(OrgId orgId, WalletId id);

    /** Reads the wallet and locks it until the transaction ends. */
    Optional<Wallet> lock(OrgId orgId, WalletId id);

    /**
     * Locks those of the organisation's wallets {@code ids} that exist, until the transaction ends,
     * in the order of their ids (the global lock order), so that {@link #lock} of any of them
     * afterwards answers what this read. A store may read them all at once; by default each is
     * locked in turn.
     */
    default void lockAll(OrgId orgId, Collection<WalletId> ids) {
        ids.stream().distinct().sorted(Comparator.comparing(WalletId::value)).forEach(id -> lock(orgId, id));
    }

    /**
     * Locks the wallets, of any organisation, at those of the ledger {@code addresses} that hold one,
     * until the transaction ends, in the order of their ids (the global lock order): where
     * confirmations applied together will credit.
     */
    void lockAllAt(Collection<String> addresses);

    /** Any organisation's wallet: escrows and payments may go to wallets of other organisations. */
    Optional<Wallet> findAnyOrg(WalletId id);

    /**
     * Adds {@code amount} to the balance of the wallet at a ledger address, in any organisation, if
     * there is one: money a payment or an escrow's release sent it. Nothing else of the wallet changes.
     */
    void creditByAddress(String address, Usdc amount, Instant now);

    void update(Wallet wallet);

    Page<Wallet> list(OrgId orgId, Query query, PageRequest page);

    /** Whether a wallet that is not archived uses the policy. */
    boolean anyUsesPolicy(OrgId orgId, PolicyId policyId);

    /**
     * Claims the active wallet, of any organisation, whose policy expired earliest (at or before
     * {@code now}): locked until the transaction ends; wallets another transaction holds are skipped.
     */
    Optional<Wallet> claimActiveWithPolicyExpired(Instant now);
}
