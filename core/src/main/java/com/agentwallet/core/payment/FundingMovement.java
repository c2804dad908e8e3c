package com.agentwallet.core.payment;

import com.agentwallet.core.event.DomainEvent;
import com.agentwallet.core.event.EventPublisher;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.ledger.LedgerOutcome;
import com.agentwallet.core.port.Stores;
import com.agentwallet.core.wallet.Wallet;

import java.time.Instant;

/** A funding: from the organisation's treasury to one of its wallets, debited from the organisation when booked. */
record FundingMovement(Transaction tx) implements MoneyMovement {

    @Override
    public LedgerInstruction instruction(Stores stores, Wallet wallet) {
        return new LedgerInstruction.Fund(tx.id().value(), tx.orgId(), wallet.address(), tx.amount());
    }

    @Override
    public boolean refusalIsFinal(LedgerOutcome.Rejected refusal) {
        return true;
    }

    @Override
    public void credit(Stores stores, EventPublisher events, Instant now) {
        Wallet funded = Books.creditWallet(stores, tx, now);
        events.publish(stores, new DomainEvent.WalletBalanceMoved(funded, tx, now));
    }

    @Override
    public void giveBack(Stores stores, EventPublisher events, Instant now) {
        Books.creditOrganisation(stores, tx);
    }
}
