package com.agentwallet.core.policy;

import com.agentwallet.core.common.Timestamps;
import com.agentwallet.core.money.Usdc;

import java.util.List;
import java.util.Optional;

/**
 * The enforcement order of the spec, as small named checks; the first that fails decides. Pure and
 * constant-time: the rolling totals come from the wallet's {@link SpendSummary}, never from history.
 * The on-chain program (and the simulator that models it) runs the same checks in the same order.
 */
public final class PolicyEngine {

    @FunctionalInterface
    private interface Check {
        Optional<Violation> apply(PolicyRules rules, PaymentCheck attempt);
    }

    private static final List<Check> CHECKS = List.of(
            PolicyEngine::sessionToken,
            PolicyEngine::maxPerTx,
            PolicyEngine::allowedRecipients,
            PolicyEngine::blockedCategory,
            PolicyEngine::maxPerDay,
            PolicyEngine::maxPerMonth,
            PolicyEngine::velocityCap,
            PolicyEngine::expiry);

    private PolicyEngine() {
    }

    public static Decision evaluate(PolicyRules rules, PaymentCheck attempt) {
        for (Check check : CHECKS) {
            Optional<Violation> violation = check.apply(rules, attempt);
            if (violation.isPresent()) {
                return new Decision.Blocked(violation.get());
            }
        }
        return coSign(rules, attempt);
    }

    private static Optional<Violation> sessionToken(PolicyRules rules, PaymentCheck attempt) {
        String wallet = attempt.walletId().value();
        Optional<String> problem = attempt.session().isEmpty() ? Optional.of("missing")
                : attempt.session().get().problemFor(attempt.walletId(), attempt.sessionVersion(), attempt.now());
        return problem.flatMap(reason -> violation(ViolationRule.SESSION_TOKEN, wallet, reason));
    }

    private static Optional<Violation> maxPerTx(PolicyRules rules, PaymentCheck attempt) {
        return rules.maxPerTx()
                .filter(max -> attempt.amount().exceeds(max))
                .map(max -> new Violation(ViolationRule.MAX_PER_TX, max.toString(), attempt.amount().toString()));
    }

    private static Optional<Violation> allowedRecipients(PolicyRules rules, PaymentCheck attempt) {
        List<String> allowed = rules.allowedRecipients();
        if (allowed.isEmpty() || allowed.contains(attempt.recipient())) {
            return Optional.empty();
        }
        return violation(ViolationRule.ALLOWED_RECIPIENTS, allowed.size() + " allowed recipients", attempt.recipient());
    }

    private static Optional<Violation> blockedCategory(PolicyRules rules, PaymentCheck attempt) {
        return attempt.recipientCategory()
                .filter(rules.blockedCategories()::contains)
                .map(category -> new Violation(ViolationRule.BLOCKED_CATEGORY, category, attempt.recipient()));
    }

    private static Optional<Violation> maxPerDay(PolicyRules rules, PaymentCheck attempt) {
        return capExceeded(ViolationRule.MAX_PER_DAY, rules.maxPerDay(), attempt.spend().day(), attempt.amount());
    }

    private static Optional<Violation> maxPerMonth(PolicyRules rules, PaymentCheck attempt) {
        return capExceeded(ViolationRule.MAX_PER_MONTH, rules.maxPerMonth(), attempt.spend().month(), attempt.amount());
    }

    private static Optional<Violation> velocityCap(PolicyRules rules, PaymentCheck attempt) {
        long attempted = attempt.spend().hourCount() + 1L;
        return rules.velocityCap()
                .filter(cap -> attempted > cap)
                .map(cap -> new Violation(ViolationRule.VELOCITY_CAP, cap.toString(), Long.toString(attempted)));
    }

    private static Optional<Violation> expiry(PolicyRules rules, PaymentCheck attempt) {
        if (!rules.isExpiredAt(attempt.now())) {
            return Optional.empty();
        }
        return violation(ViolationRule.POLICY_EXPIRED,
                Timestamps.format(rules.expiry().orElseThrow()), Timestamps.format(attempt.now()));
    }

    private static Decision coSign(PolicyRules rules, PaymentCheck attempt) {
        boolean atThreshold = rules.requireCoSign().filter(attempt.amount()::isAtLeast).isPresent();
        if (attempt.kind() == PaymentCheck.Kind.ESCROW_LOCK) {
            return atThreshold
                    ? new Decision.Blocked(new Violation(ViolationRule.REQUIRE_CO_SIGN,
                            rules.requireCoSign().orElseThrow().toString(), attempt.amount().toString()))
                    : new Decision.Allowed();
        }
        boolean requested = attempt.kind() == PaymentCheck.Kind.PAYMENT_WITH_CO_SIGN_INTENT;
        if ((atThreshold || requested) && rules.coSigner().isPresent()) {
            return new Decision.NeedsCoSign(rules.coSigner().get());
        }
        return new Decision.Allowed();
    }

    private static Optional<Violation> capExceeded(ViolationRule rule, Optional<Usdc> cap, Usdc total, Usdc amount) {
        if (cap.isEmpty()) {
            return Optional.empty();
        }
        Usdc attempted = total.plus(amount);
        return attempted.exceeds(cap.get())
                ? violation(rule, cap.get().toString(), attempted.toString())
                : Optional.empty();
    }

    private static Optional<Violation> violation(ViolationRule rule, String limit, String attempted) {
        return Optional.of(new Violation(rule, limit, attempted));
    }
}
