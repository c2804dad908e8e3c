package com.agentwallet.core.payment;

import com.agentwallet.core.event.EventPublisher;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.ledger.LedgerOutcome;
import com.agentwallet.core.port.Stores;
import com.agentwallet.core.wallet.Wallet;

import java.time.Instant;

/** A payment: from a wallet to any address; a wallet of this service at that address is credited. */
public record PaymentMovement(Transaction tx) implements MoneyMovement {

    /** Public for its instruction, so it makes sure it moves a payment. */
    public PaymentMovement {
        if (tx.type() != TransactionType.PAYMENT) {
            throw new IllegalArgumentException(tx.id() + " is not a payment but a " + tx.type().wireName());
        }
    }

    /** The ledger instruction of a payment; the co-sign payload is made from this same instruction. */
    public static LedgerInstruction.Pay payInstruction(Transaction tx, Wallet wallet) {
        return new LedgerInstruction.Pay(tx.id().value(), wallet.address(), tx.recipient(), tx.amount(), tx.createdAt(),
                wallet.sessionVersion(), tx.coSign().flatMap(CoSign::signature));
    }

    @Override
    public LedgerInstruction instruction(Stores stores, Wallet wallet) {
        return payInstruction(tx, wallet);
    }

    @Override
    public boolean refusalIsFinal(LedgerOutcome.Rejected refusal) {
        return true;
    }

    @Override
    public void credit(Stores stores, EventPublisher events, Instant now) {
        stores.wallets().creditByAddress(tx.recipient(), tx.amount(), now);
    }

    @Override
    public void giveBack(Stores stores, EventPublisher events, Instant now) {
        Holds.release(stores, tx, now);
    }
}
