package com.agentwallet.core.payment;

import com.agentwallet.core.escrow.Escrow;
import com.agentwallet.core.org.Organisation;
import com.agentwallet.core.port.Stores;
import com.agentwallet.core.wallet.Wallet;

import java.time.Instant;

/** The rows a movement of money reads and changes when it settles, each found by its transaction. */
final class Books {

    private Books() {
    }

    /** Adds the transaction's amount to its wallet, locked here, and answers the wallet as it is then. */
    static Wallet creditWallet(Stores stores, Transaction tx, Instant now) {
        Wallet wallet = stores.wallets().lock(tx.orgId(), tx.walletId())
                .orElseThrow(() -> new IllegalStateException("wallet of " + tx.id() + " is missing"));
        Wallet credited = wallet.withBalance(wallet.balance().plus(tx.amount()), now);
        stores.wallets().update(credited);
        return credited;
    }

    /** Adds the transaction's amount to its organisation's balance, locked here. */
    static void creditOrganisation(Stores stores, Transaction tx) {
        Organisation org = stores.organisations().lock(tx.orgId())
                .orElseThrow(() -> new IllegalStateException("organisation " + tx.orgId() + " is missing"));
        stores.organisations().update(org.withBalance(org.balance().plus(tx.amount())));
    }

    static Escrow escrowOf(Stores stores, Transaction tx) {
        return stores.escrows().find(tx.orgId(), tx.escrowId().orElseThrow())
                .orElseThrow(() -> new IllegalStateException("escrow of " + tx.id() + " is missing"));
    }

    static Escrow lockEscrow(Stores stores, Transaction tx) {
        return stores.escrows().lock(tx.orgId(), tx.escrowId().orElseThrow()).orElseThrow();
    }
}
