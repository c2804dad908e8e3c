package com.agentwallet.adapters.dashboard;

import com.agentwallet.core.common.Actor;
import com.agentwallet.core.common.PageRequest;
import com.agentwallet.core.common.Result;
import com.agentwallet.core.id.PolicyId;
import com.agentwallet.core.id.TxId;
import com.agentwallet.core.payment.CoSign;
import com.agentwallet.core.payment.PaymentService;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.payment.TransactionStatus;
import com.agentwallet.core.policy.Policy;
import com.agentwallet.core.policy.PolicyService;
import com.agentwallet.core.port.TransactionStore;
import com.agentwallet.core.user.SignedInUser;
import com.agentwallet.core.wallet.Wallet;
import com.agentwallet.core.wallet.WalletService;

import java.time.Clock;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The co-sign inbox's use of the core: the organisation's payments awaiting a co-signature, with
 * their wallet and policy, and the signed-in user's approval or rejection of one.
 */
public final class CoSignInbox {
    private static final TransactionStore.Query PENDING = TransactionStore.Query.ofStatus(TransactionStatus.PENDING_CO_SIGN);

    /** A payment as the inbox lists it; {@code wallet} and {@code policy} are empty if gone since. */
    record Row(Transaction tx, CoSign coSign, Optional<Wallet> wallet, Optional<Policy> policy) {
    }

    /** The newest {@link PageRequest#MAX_LIMIT} payments awaiting a co-signature, and whether there are more. */
    record Listing(List<Row> rows, boolean hasMore, Instant now) {
    }

    private final PaymentService payments;
    private final WalletService wallets;
    private final PolicyService policies;
    private final Clock clock;

    public CoSignInbox(PaymentService payments, WalletService wallets, PolicyService policies, Clock clock) {
        this.payments = requireNonNull(payments, "payments is null");
        this.wallets = requireNonNull(wallets, "wallets is null");
        this.policies = requireNonNull(policies, "policies is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    Listing pending(SignedInUser user) {
        var page = payments.list(user.orgId(), PENDING, PageRequest.first(PageRequest.MAX_LIMIT));
        Map<String, Optional<Wallet>> walletsById = new HashMap<>();
        Map<String, Optional<Policy>> policiesById = new HashMap<>();
        List<Row> rows = page.data().stream()
                .filter(tx -> tx.coSign().isPresent())
                .sorted(Comparator.comparing(Transaction::createdAt).reversed())
                .map(tx -> {
                    Optional<Wallet> wallet = walletsById.computeIfAbsent(tx.walletId().value(),
                            id -> found(wallets.get(user.orgId(), tx.walletId())));
                    Optional<Policy> policy = wallet.map(Wallet::policyId).flatMap(id -> policiesById.computeIfAbsent(
                            id.value(), key -> found(policies.get(user.orgId(), new PolicyId(key)))));
                    return new Row(tx, tx.coSign().orElseThrow(), wallet, policy);
                })
                .toList();
        return new Listing(rows, page.hasMore(), clock.instant());
    }

    /** The payment's status now, for the message after a decision; empty if it is not the organisation's. */
    Optional<Transaction> find(SignedInUser user, TxId txId) {
        return found(payments.get(user.orgId(), txId));
    }

    Result<Transaction> approve(SignedInUser user, TxId txId, String signature) {
        return payments.coSign(user.orgId(), txId, signature, actor(user));
    }

    Result<Transaction> reject(SignedInUser user, TxId txId) {
        return payments.reject(user.orgId(), txId, "Rejected in the dashboard by " + user.email(), actor(user));
    }

    /** The user as the audit log names them; never the credential that made a payment, so never refused as such. */
    private static Actor actor(SignedInUser user) {
        return new Actor(user.userId().value());
    }

    private static <T> Optional<T> found(Result<T> result) {
        return result.isOk() ? Optional.of(result.value()) : Optional.empty();
    }
}
