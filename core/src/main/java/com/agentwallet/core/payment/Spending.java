package com.agentwallet.core.payment;

import com.agentwallet.core.common.Rejection;
import com.agentwallet.core.common.Result;
import com.agentwallet.core.event.DomainEvent;
import com.agentwallet.core.event.EventPublisher;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.policy.Decision;
import com.agentwallet.core.policy.PaymentCheck;
import com.agentwallet.core.policy.Policy;
import com.agentwallet.core.policy.PolicyEngine;
import com.agentwallet.core.policy.SessionGrant;
import com.agentwallet.core.policy.SpendEntry;
import com.agentwallet.core.policy.SpendSummary;
import com.agentwallet.core.port.Stores;
import com.agentwallet.core.wallet.Allocation;
import com.agentwallet.core.wallet.Wallet;
import com.agentwallet.core.wallet.WalletStatus;

import java.time.Instant;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The check-and-debit step shared by payments and escrow locks, run on a wallet row locked for the
 * whole database transaction: so the checks and the debit are one atomic step, and under any
 * concurrency what leaves a wallet never exceeds its balance or a cap.
 */
public final class Spending {
    private final Allocation allocation;
    private final EventPublisher events;

    public Spending(Allocation allocation, EventPublisher events) {
        this.allocation = requireNonNull(allocation, "allocation is null");
        this.events = requireNonNull(events, "events is null");
    }

    /** An evaluated attempt: the wallet with its spend totals moved to now, its policy, and the decision. */
    public record Attempt(Wallet wallet, Policy policy, Usdc amount, String recipient, Decision decision) {
    }

    /**
     * Runs the wallet's state check, then the policy engine, then (unless blocked) the balance
     * check. A blocked attempt is an {@code Ok} here: recording it is the caller's choice (a dry run
     * does not).
     */
    public Result<Attempt> evaluate(Stores stores, Wallet locked, Optional<SessionGrant> session, Usdc amount,
                                    String recipient, PaymentCheck.Kind kind, Instant now) {
        if (locked.status() != WalletStatus.ACTIVE) {
            return Result.refused(new Rejection.InvalidState("Wallet " + locked.id() + " is " + locked.status().wireName()));
        }
        Policy policy = stores.policies().find(locked.orgId(), locked.policyId())
                .orElseThrow(() -> new IllegalStateException("policy of wallet " + locked.id() + " is missing"));
        if (kind == PaymentCheck.Kind.PAYMENT_WITH_CO_SIGN_INTENT && policy.rules().coSigner().isEmpty()) {
            return Result.refused(new Rejection.InvalidInput("require_co_sign",
                    "The wallet's policy has no co_signer to co-sign this payment"));
        }
        SpendSummary spend = stores.spendLog().advance(locked.id(), locked.spend(), now);
        Wallet wallet = locked.withSpend(spend);
        // The recipient's category matters only to a policy that blocks some: no read for the others.
        Optional<String> category = policy.rules().blockedCategories().isEmpty() ? Optional.empty()
                : stores.recipientCategories().categoryOf(wallet.orgId(), recipient);
        Decision decision = PolicyEngine.evaluate(policy.rules(), new PaymentCheck(wallet.id(), wallet.sessionVersion(),
                session, amount, recipient, category, spend, now, kind));
        if (!(decision instanceof Decision.Blocked) && wallet.balance().isLessThan(amount)) {
            return Result.refused(new Rejection.InsufficientFunds(
                    "Wallet " + wallet.id() + " holds " + wallet.balance() + "; the payment needs " + amount));
        }
        return Result.ok(new Attempt(wallet, policy, amount, recipient, decision));
    }

    /** Records a blocked attempt for history and fires {@code transaction.blocked}; no money moves. */
    public Transaction recordBlocked(Stores stores, Attempt attempt, Transaction attempted, Instant now) {
        Decision.Blocked blocked = (Decision.Blocked) attempt.decision();
        Transaction tx = attempted.blockedBy(blocked.violation());
        stores.wallets().update(attempt.wallet());
        stores.transactions().insert(tx);
        events.publish(stores, new DomainEvent.TransactionBlocked(tx, now));
        return tx;
    }

    /**
     * Debits the wallet for an allowed attempt, counts the spend toward its caps and stores the
     * transaction. Returns an auto-topup to settle, if the debit started one.
     */
    public Optional<Transaction> debit(Stores stores, Attempt attempt, Transaction tx, Instant now) {
        SpendEntry entry = tx.spendEntry();
        Wallet before = attempt.wallet();
        Wallet after = before.withBalance(before.balance().minus(tx.amount()), now).withSpend(before.spend().plus(entry));
        stores.spendLog().append(after.id(), entry);
        stores.wallets().update(after);
        stores.transactions().insert(tx);
        return allocation.afterDebit(stores, before, after, now);
    }
}
