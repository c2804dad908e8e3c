package com.agentwallet.core.payment;

import com.agentwallet.core.id.TxId;
import com.agentwallet.core.port.Stores;
import com.agentwallet.core.wallet.Wallet;

import java.time.Instant;

/**
 * Giving back what a transaction held: its amount to the wallet's balance and, for spends, its
 * place in the rolling caps. Used by co-sign rejection and expiry, ledger failures and refunds.
 */
public final class Holds {

    private Holds() {
    }

    /** Returns the amount to the wallet and removes the spend from its caps; the wallet is locked here. */
    public static void release(Stores stores, Transaction tx, Instant now) {
        Wallet wallet = stores.wallets().lock(tx.orgId(), tx.walletId())
                .orElseThrow(() -> new IllegalStateException("wallet of " + tx.id() + " is missing"));
        Wallet credited = wallet.withBalance(wallet.balance().plus(tx.amount()), now);
        stores.wallets().update(tx.type().countsTowardCaps() ? releaseCaps(stores, credited, tx.id()) : credited);
    }

    /** The wallet with the spend of {@code txId} no longer counted toward its caps. */
    public static Wallet releaseCaps(Stores stores, Wallet wallet, TxId txId) {
        return stores.spendLog().remove(wallet.id(), txId)
                .map(entry -> wallet.withSpend(wallet.spend().minus(entry)))
                .orElse(wallet);
    }
}
