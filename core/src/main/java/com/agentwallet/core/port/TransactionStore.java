package com.agentwallet.core.port;

import com.agentwallet.core.common.Page;
import com.agentwallet.core.common.PageRequest;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.TxId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.payment.TransactionStatus;
import com.agentwallet.core.payment.TransactionType;

import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

public interface TransactionStore {

    /** Filters of the history: every present filter must match; {@code from} inclusive, {@code to} exclusive. */
    record Query(Optional<WalletId> walletId, Optional<TransactionStatus> status, Optional<TransactionType> type,
                 Optional<Instant> from, Optional<Instant> to) {
        public static final Query ALL = new Query(Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty());

        public static Query ofWallet(WalletId walletId) {
            return new Query(Optional.of(walletId), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
        }

        public static Query ofStatus(TransactionStatus status) {
            return new Query(Optional.empty(), Optional.of(status), Optional.empty(), Optional.empty(), Optional.empty());
        }
    }

    void insert(Transaction transaction);

    Optional<Transaction> find(OrgId orgId, TxId id);

    /** Reads the transaction and locks it until the transaction ends. */
    Optional<Transaction> lock(OrgId orgId, TxId id);

    /**
     * Locks those of the organisation's transactions {@code ids} that exist, until the transaction
     * ends, in the order of their ids. A store may lock them all at once, and then answer
     * {@link #updateIfPending} of them without waiting; by default each is locked in turn.
     */
    default void lockAll(OrgId orgId, Collection<TxId> ids) {
        ids.stream().distinct().sorted(Comparator.comparing(TxId::value)).forEach(id -> lock(orgId, id));
    }

    void update(Transaction transaction);

    /**
     * Stores the transaction's new state if it is still {@code pending} in the store, as the outcome
     * of its settlement; answers whether it was. What makes it wait is the row's lock, not a read.
     */
    boolean updateIfPending(Transaction transaction);

    /**
     * Claims the settlement of transaction {@code id} for {@code holder} until {@code until}: answers
     * whether it is {@code holder}'s now, which it is not while another holder's claim runs past
     * {@code now}. The claim commits with the unit of work, whether or not the transaction is pending
     * or exists: read it after claiming, as the claim's holder.
     */
    boolean claimSettlement(TxId id, String holder, Instant now, Instant until);

    /**
     * Ends {@code holder}'s claim on the settlement of {@code id}, and locks it until the unit of work
     * ends; answers whether the claim was still {@code holder}'s (it is not once another holder took
     * it over after it lapsed).
     */
    boolean releaseSettlement(TxId id, String holder);

    Page<Transaction> list(OrgId orgId, Query query, PageRequest page);

    /** Transactions still {@code pending} that were last changed at or before {@code changedBy}: the ledger's unfinished work. */
    List<Transaction> pendingSince(Instant changedBy, int limit);

    /**
     * Claims the payment in {@code pending_co_sign}, of any organisation, whose approval window closed
     * earliest (at or before {@code now}): locked until the transaction ends; those another transaction
     * holds are skipped.
     */
    Optional<Transaction> claimCoSignExpired(Instant now);

    /** Whether the wallet has a payment waiting for its co-signature. */
    boolean anyAwaitingCoSign(OrgId orgId, WalletId walletId);
}
