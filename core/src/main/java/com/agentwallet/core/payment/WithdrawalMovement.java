package com.agentwallet.core.payment;

import com.agentwallet.core.event.DomainEvent;
import com.agentwallet.core.event.EventPublisher;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.ledger.LedgerOutcome;
import com.agentwallet.core.port.Stores;
import com.agentwallet.core.wallet.Wallet;

import java.time.Instant;

/** A withdrawal: from a wallet back to its organisation's treasury. */
record WithdrawalMovement(Transaction tx) implements MoneyMovement {

    @Override
    public LedgerInstruction instruction(Stores stores, Wallet wallet) {
        return new LedgerInstruction.Withdraw(tx.id().value(), tx.orgId(), wallet.address(), tx.amount());
    }

    @Override
    public boolean refusalIsFinal(LedgerOutcome.Rejected refusal) {
        return true;
    }

    @Override
    public void credit(Stores stores, EventPublisher events, Instant now) {
        Wallet wallet = stores.wallets().find(tx.orgId(), tx.walletId()).orElseThrow();
        Books.creditOrganisation(stores, tx);
        events.publish(stores, new DomainEvent.WalletBalanceMoved(wallet, tx, now));
    }

    @Override
    public void giveBack(Stores stores, EventPublisher events, Instant now) {
        Holds.release(stores, tx, now);
    }
}
