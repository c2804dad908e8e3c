package com.agentwallet.core.wallet;

import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.policy.PolicyRules;
import com.agentwallet.core.policy.SpendSummary;

import java.time.Instant;
import java.util.Optional;
import java.util.stream.Stream;

import static java.util.Objects.requireNonNull;

/**
 * A wallet at one instant with what its policy still allows: the caps' rolling totals moved to
 * {@code at}, so an agent can plan a payment instead of learning its limits from refusals. It is a
 * reading, not a promise: the payment's own check, atomic with its debit, is what decides.
 */
public record Allowance(Wallet wallet, PolicyRules rules, SpendSummary spend, Instant at) {
    public Allowance {
        requireNonNull(wallet, "wallet is null");
        requireNonNull(rules, "rules is null");
        requireNonNull(spend, "spend is null");
        requireNonNull(at, "at is null");
    }

    /** How much more the rolling 24 hours take, when the policy caps them. */
    public Optional<Usdc> leftToday() {
        return rules.maxPerDay().map(cap -> left(cap, spend.day()));
    }

    /** How much more the rolling 30 days take, when the policy caps them. */
    public Optional<Usdc> leftThisMonth() {
        return rules.maxPerMonth().map(cap -> left(cap, spend.month()));
    }

    /** How many more payments the rolling 60 minutes take, when the policy caps their number. */
    public Optional<Integer> paymentsLeftThisHour() {
        return rules.velocityCap().map(cap -> Math.max(0, cap - spend.hourCount()));
    }

    public boolean isExpired() {
        return rules.isExpiredAt(at);
    }

    /**
     * The largest single payment that no cap, nor the balance, would refuse now (zero when the
     * policy has expired or no payment is left this hour); the recipient rules still apply.
     */
    public Usdc largestPayment() {
        if (isExpired() || paymentsLeftThisHour().filter(left -> left == 0).isPresent()) {
            return Usdc.ZERO;
        }
        return Stream.of(rules.maxPerTx(), leftToday(), leftThisMonth()).flatMap(Optional::stream)
                .reduce(wallet.balance(), (smallest, bound) -> bound.isLessThan(smallest) ? bound : smallest);
    }

    private static Usdc left(Usdc cap, Usdc used) {
        return used.isAtLeast(cap) ? Usdc.ZERO : cap.minus(used);
    }
}
