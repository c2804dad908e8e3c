package com.agentwallet.core.payment;

import com.agentwallet.core.common.Result;
import com.agentwallet.core.common.Timestamps;
import com.agentwallet.core.common.Transition;
import com.agentwallet.core.event.DomainEvent;
import com.agentwallet.core.event.EventPublisher;
import com.agentwallet.core.port.Stores;

import java.time.Instant;
import java.util.Optional;

/**
 * The transaction state machine, a pure function. Payment events (pending, completed, failed,
 * rejected, expired) come from here; events of other transaction types depend on the wallet or
 * escrow they move money for, so their use cases add them. Terminal states refuse everything.
 */
public final class TransactionMachine {

    private TransactionMachine() {
    }

    public static Result<Transition<Transaction>> apply(Transaction tx, TransactionCommand command, Instant now) {
        return switch (tx.status()) {
            case PENDING_CO_SIGN -> awaitingCoSign(tx, command, now);
            case PENDING -> pending(tx, command, now);
            case CONFIRMED, FAILED, REJECTED, EXPIRED, BLOCKED ->
                    Transition.refuse("Transaction " + tx.id() + " is " + tx.status().wireName() + " and cannot change");
        };
    }

    /** Applies a command and, when it is accepted, stores the new state and publishes its events. */
    public static Result<Transaction> applyAndStore(Stores stores, EventPublisher events, Transaction tx,
                                                    TransactionCommand command, Instant now) {
        return apply(tx, command, now).map(transition -> {
            stores.transactions().update(transition.state());
            events.publish(stores, transition.events());
            return transition.state();
        });
    }

    private static Result<Transition<Transaction>> awaitingCoSign(Transaction tx, TransactionCommand command, Instant now) {
        CoSign coSign = tx.coSign().orElseThrow(() -> new IllegalStateException("co-sign details missing on " + tx.id()));
        boolean windowOpen = now.isBefore(coSign.expiresAt());
        if (command instanceof TransactionCommand.CoSigned coSigned) {
            if (!windowOpen) {
                return Transition.refuse("The co-sign window of " + tx.id() + " closed at "
                        + Timestamps.format(coSign.expiresAt()));
            }
            Transaction next = tx.withCoSign(coSign.signedWith(coSigned.signature()))
                    .withStatus(TransactionStatus.PENDING, now);
            return Result.ok(new Transition<>(next, transactionEvent(next, now).stream().toList()));
        }
        if (command instanceof TransactionCommand.Reject reject) {
            return end(tx, TransactionStatus.REJECTED, reject.reason(), now);
        }
        if (command instanceof TransactionCommand.ExpireCoSign) {
            return windowOpen
                    ? Transition.refuse("The co-sign window of " + tx.id() + " is open until "
                    + Timestamps.format(coSign.expiresAt()))
                    : end(tx, TransactionStatus.EXPIRED, "no co-signature within the approval window", now);
        }
        return Transition.refuse("Transaction " + tx.id() + " is waiting for its co-signature");
    }

    private static Result<Transition<Transaction>> pending(Transaction tx, TransactionCommand command, Instant now) {
        if (command instanceof TransactionCommand.Confirm confirm) {
            Transaction next = tx.confirmed(confirm.signature(), confirm.slot(), now);
            return Result.ok(new Transition<>(next, transactionEvent(next, now).stream().toList()));
        }
        if (command instanceof TransactionCommand.Fail fail) {
            return end(tx, TransactionStatus.FAILED, fail.reason(), now);
        }
        return Transition.refuse("Transaction " + tx.id() + " is already submitted to the ledger");
    }

    private static Result<Transition<Transaction>> end(Transaction tx, TransactionStatus ending, String reason, Instant now) {
        Transaction next = tx.endedWithout(ending, reason, now);
        return Result.ok(new Transition<>(next, transactionEvent(next, now).stream().toList()));
    }

    /**
     * The event a transaction in its new state announces. Pending and completed are payment events;
     * other types announce those steps through their use case (wallet.funded, escrow.released, ...).
     * An ending without payment is announced for every type.
     */
    private static Optional<DomainEvent> transactionEvent(Transaction tx, Instant now) {
        boolean paymentStep = tx.status() == TransactionStatus.PENDING || tx.status() == TransactionStatus.CONFIRMED;
        if (paymentStep && tx.type() != TransactionType.PAYMENT) {
            return Optional.empty();
        }
        return Optional.of(switch (tx.status()) {
            case PENDING -> new DomainEvent.TransactionPending(tx, now);
            case CONFIRMED -> new DomainEvent.TransactionCompleted(tx, now);
            case FAILED, REJECTED, EXPIRED -> new DomainEvent.TransactionEnded(tx, now);
            case PENDING_CO_SIGN, BLOCKED -> throw new IllegalStateException("not a transition target: " + tx.status());
        });
    }
}
