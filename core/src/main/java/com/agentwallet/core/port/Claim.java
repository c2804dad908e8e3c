package com.agentwallet.core.port;

import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.TxId;
import com.agentwallet.core.id.WalletId;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import static java.util.Objects.requireNonNull;

/**
 * The rows a unit of work of the payment's path locks, named before it runs: {@link Storage#inBatch}
 * locks them first, in the global lock order, so that a store may run several such units of one
 * organisation in one database transaction without any of them waiting for a lock while it holds
 * another's rows.
 */
public sealed interface Claim {
    OrgId orgId();

    /** Booking a payment: its idempotency key, if any, then the wallet it pays from. */
    record Booking(OrgId orgId, Optional<String> idempotencyKey, WalletId wallet) implements Claim {
        public Booking {
            requireNonNull(orgId, "orgId is null");
            requireNonNull(idempotencyKey, "idempotencyKey is null");
            requireNonNull(wallet, "wallet is null");
        }
    }

    /**
     * Applying the ledger's outcome to a transaction: its row, then the wallet at the ledger address
     * a confirmation credits, if one is there (in any organisation). Confirmations applied together
     * credit their wallets in the global order, whatever order they arrived in.
     */
    record Outcome(OrgId orgId, TxId transaction, Optional<String> credited) implements Claim {
        public Outcome {
            requireNonNull(orgId, "orgId is null");
            requireNonNull(transaction, "transaction is null");
            requireNonNull(credited, "credited is null");
        }
    }

    /**
     * Locks the rows of {@code claims}, all of one organisation, in the global lock order: the
     * idempotency keys, then the transactions, then the wallets (those paying, or those credited, by
     * address), each kind in the order of its keys: wallets in the order of their ids either way.
     */
    static void lockAll(Stores stores, Collection<? extends Claim> claims) {
        OrgId orgId = claims.iterator().next().orgId();
        if (claims.stream().anyMatch(claim -> !claim.orgId().equals(orgId))) {
            throw new IllegalArgumentException("claims of several organisations locked together");
        }
        List<String> keys = claims.stream().flatMap(claim -> claim instanceof Booking booking
                ? booking.idempotencyKey().stream() : Stream.empty()).distinct().sorted().toList();
        List<TxId> transactions = claims.stream().flatMap(claim -> claim instanceof Outcome outcome
                ? Stream.of(outcome.transaction()) : Stream.empty())
                .distinct().sorted(Comparator.comparing(TxId::value)).toList();
        List<WalletId> wallets = claims.stream().flatMap(claim -> claim instanceof Booking booking
                ? Stream.of(booking.wallet()) : Stream.empty())
                .distinct().sorted(Comparator.comparing(WalletId::value)).toList();
        if (!keys.isEmpty()) {
            stores.idempotency().lockAll(orgId, keys);
        }
        if (!transactions.isEmpty()) {
            stores.transactions().lockAll(orgId, transactions);
        }
        if (!wallets.isEmpty()) {
            stores.wallets().lockAll(orgId, wallets);
        }
        List<String> credited = claims.stream().flatMap(claim -> claim instanceof Outcome outcome
                ? outcome.credited().stream() : Stream.empty()).distinct().sorted().toList();
        if (!credited.isEmpty()) {
            stores.wallets().lockAllAt(credited);
        }
    }
}
