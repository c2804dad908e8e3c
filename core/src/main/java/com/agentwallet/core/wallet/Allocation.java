package com.agentwallet.core.wallet;

import com.agentwallet.core.common.Rejection;
import com.agentwallet.core.common.Result;
import com.agentwallet.core.event.DomainEvent;
import com.agentwallet.core.event.EventPublisher;
import com.agentwallet.core.id.IdGenerator;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.org.Organisation;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.payment.TransactionStatus;
import com.agentwallet.core.payment.TransactionType;
import com.agentwallet.core.port.Stores;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Moving organisation funds toward wallets, and what follows a debit. The one place that makes a
 * funding transaction, whether for a single funding, a batch or an auto-topup: the organisation is
 * debited at once and the wallet credited when the ledger confirms.
 */
public final class Allocation {
    private final IdGenerator ids;
    private final EventPublisher events;

    public Allocation(IdGenerator ids, EventPublisher events) {
        this.ids = requireNonNull(ids, "ids is null");
        this.events = requireNonNull(events, "events is null");
    }

    /** Debits the organisation for each wallet's amount and records the funding transactions, or refuses all. */
    public Result<List<Transaction>> fund(Stores stores, OrgId orgId, List<Wallet> wallets, List<Usdc> amounts,
                                          Instant now) {
        Organisation org = stores.organisations().lock(orgId)
                .orElseThrow(() -> new IllegalStateException("organisation " + orgId + " is missing"));
        Usdc total = amounts.stream().reduce(Usdc.ZERO, Usdc::plus);
        if (org.balance().isLessThan(total)) {
            return Result.refused(new Rejection.InsufficientFunds(
                    "The organisation balance " + org.balance() + " is less than " + total));
        }
        stores.organisations().update(org.withBalance(org.balance().minus(total)));
        List<Transaction> fundings = new ArrayList<>(wallets.size());
        for (int i = 0; i < wallets.size(); i++) {
            Wallet wallet = wallets.get(i);
            Transaction funding = Transaction.open(ids.tx(), orgId, wallet.id(), TransactionType.FUNDING,
                    TransactionStatus.PENDING, amounts.get(i), wallet.address().base58(), now);
            stores.transactions().insert(funding);
            fundings.add(funding);
        }
        return Result.ok(fundings);
    }

    /**
     * After a debit took {@code before} to {@code after} (already stored): fires {@code balance.low}
     * when the balance crossed the wallet's trigger, and starts an auto-topup when it is enabled and
     * the organisation can pay for it. Returns the topup to settle, if any.
     */
    public Optional<Transaction> afterDebit(Stores stores, Wallet before, Wallet after, Instant now) {
        Optional<AutoTopup> rule = after.autoTopup().filter(r -> r.crossedBy(before.balance(), after.balance()));
        if (rule.isEmpty()) {
            return Optional.empty();
        }
        events.publish(stores, new DomainEvent.BalanceLow(after, rule.get().triggerBelow(), now));
        if (!rule.get().enabled() || after.status() == WalletStatus.ARCHIVED) {
            return Optional.empty();
        }
        Result<List<Transaction>> topup = fund(stores, after.orgId(), List.of(after), List.of(rule.get().topupAmount()), now);
        return topup.isOk() ? Optional.of(topup.value().get(0)) : Optional.empty();
    }
}
