package com.agentwallet.core.policy;

import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.testing.TestCoSigner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class PolicyEngineTest {
    private static final Instant NOW = Instant.parse("2026-04-01T12:00:00Z");
    private static final WalletId WALLET = new WalletId("wal_AAAAAAAAAAAAAAAAAAAAAAAA");
    private static final WalletId OTHER_WALLET = new WalletId("wal_BBBBBBBBBBBBBBBBBBBBBBBB");
    private static final String RECIPIENT = "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV";
    private static final String OTHER_RECIPIENT = "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin";
    private static final String CO_SIGNER = new TestCoSigner(11).publicKey();

    /**
     * One payment attempt, every part of it adjustable. The defaults pass every check with room
     * to spare (each cap is set, the recipient is allowed, the category is not blocked), so a
     * test breaks exactly the rules it means to.
     */
    private static final class Attempt {
        Optional<Usdc> maxPerTx = Optional.of(usdc("100"));
        Optional<Usdc> maxPerDay = Optional.of(usdc("1000"));
        Optional<Usdc> maxPerMonth = Optional.of(usdc("10000"));
        Optional<Integer> velocityCap = Optional.of(10);
        List<String> allowedRecipients = List.of(RECIPIENT, OTHER_RECIPIENT);
        Set<String> blockedCategories = Set.of("gambling");
        Optional<Instant> expiry = Optional.of(NOW.plus(Duration.ofDays(1)));
        Optional<Usdc> requireCoSign = Optional.of(usdc("50"));
        Optional<String> coSigner = Optional.of(CO_SIGNER);

        long walletSessionVersion = 3;
        Optional<SessionGrant> session = Optional.of(new SessionGrant(WALLET, 3, NOW.plus(Duration.ofHours(1))));
        Usdc amount = usdc("10");
        String recipient = RECIPIENT;
        Optional<String> category = Optional.of("groceries");
        Usdc dayTotal = Usdc.ZERO;
        Usdc monthTotal = Usdc.ZERO;
        int hourCount = 0;
        Instant now = NOW;
        PaymentCheck.Kind kind = PaymentCheck.Kind.PAYMENT;

        Attempt with(Consumer<Attempt> change) {
            change.accept(this);
            return this;
        }

        PolicyRules rules() {
            return new PolicyRules(maxPerTx, maxPerDay, maxPerMonth, velocityCap, allowedRecipients, blockedCategories,
                    expiry, requireCoSign, coSigner);
        }

        PaymentCheck check() {
            SpendSummary spend = new SpendSummary(dayTotal, monthTotal, hourCount, now.minus(Duration.ofHours(24)),
                    now.minus(Duration.ofDays(30)), now.minus(Duration.ofMinutes(60)));
            return new PaymentCheck(WALLET, walletSessionVersion, session, amount, recipient, category, spend, now, kind);
        }

        Decision decide() {
            return PolicyEngine.evaluate(rules(), check());
        }
    }

    /** For each rule, the smallest change of the passing default attempt that breaks it (and nothing else). */
    private static final Map<ViolationRule, Consumer<Attempt>> BREAK = new EnumMap<>(Map.of(
            ViolationRule.SESSION_TOKEN, a -> a.session = Optional.empty(),
            ViolationRule.MAX_PER_TX, a -> a.maxPerTx = Optional.of(usdc("9.999999")),
            ViolationRule.ALLOWED_RECIPIENTS, a -> a.allowedRecipients = List.of(OTHER_RECIPIENT),
            ViolationRule.BLOCKED_CATEGORY, a -> a.category = Optional.of("gambling"),
            ViolationRule.MAX_PER_DAY, a -> a.maxPerDay = Optional.of(usdc("9.999999")),
            ViolationRule.MAX_PER_MONTH, a -> a.maxPerMonth = Optional.of(usdc("9.999999")),
            ViolationRule.VELOCITY_CAP, a -> a.velocityCap = Optional.of(0),
            ViolationRule.POLICY_EXPIRED, a -> a.expiry = Optional.of(NOW),
            ViolationRule.REQUIRE_CO_SIGN, a -> {
                a.requireCoSign = Optional.of(a.amount);
                a.kind = PaymentCheck.Kind.ESCROW_LOCK;
            }));

    @Test
    void theDefaultAttemptPassesEveryCheck() {
        assertThat(new Attempt().decide()).isEqualTo(new Decision.Allowed());
        assertThat(new Attempt().with(a -> a.kind = PaymentCheck.Kind.ESCROW_LOCK).decide())
                .isEqualTo(new Decision.Allowed());
    }

    @Test
    void everyRuleHasABreaker() {
        assertThat(BREAK.keySet()).containsExactly(ViolationRule.values());
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ViolationRule.class)
    void eachRuleAloneBlocksWithItsOwnRule(ViolationRule rule) {
        assertThat(blockedRule(new Attempt().with(BREAK.get(rule)))).isEqualTo(rule);
    }

    static Stream<Arguments> pairsOfRulesInOrder() {
        List<Arguments> pairs = new ArrayList<>();
        ViolationRule[] rules = ViolationRule.values();
        for (int i = 0; i < rules.length; i++) {
            for (int j = i + 1; j < rules.length; j++) {
                pairs.add(Arguments.of(rules[i], rules[j]));
            }
        }
        return pairs.stream();
    }

    @ParameterizedTest(name = "{0} is reported before {1}")
    @MethodSource("pairsOfRulesInOrder")
    void anAttemptBreakingTwoRulesReportsTheEarlierOne(ViolationRule earlier, ViolationRule later) {
        Attempt attempt = new Attempt().with(BREAK.get(later)).with(BREAK.get(earlier));
        assertThat(blockedRule(attempt)).isEqualTo(earlier);
    }

    @Test
    void anAttemptBreakingEveryRuleReportsTheSessionToken() {
        Attempt attempt = new Attempt();
        BREAK.values().forEach(attempt::with);
        assertThat(blockedRule(attempt)).isEqualTo(ViolationRule.SESSION_TOKEN);
    }

    // session_token

    @Test
    void aMissingSessionTokenIsASessionTokenViolation() {
        assertThat(new Attempt().with(a -> a.session = Optional.empty()).decide())
                .isEqualTo(blocked(ViolationRule.SESSION_TOKEN, WALLET.value(), "missing"));
    }

    @Test
    void aTokenOfAnotherWalletIsASessionTokenViolation() {
        assertThat(new Attempt().with(a -> a.session = Optional.of(new SessionGrant(OTHER_WALLET, 3, NOW.plusSeconds(60))))
                .decide()).isEqualTo(blocked(ViolationRule.SESSION_TOKEN, WALLET.value(), "scoped to another wallet"));
    }

    @ParameterizedTest(name = "token version {0}, wallet version 3")
    @CsvSource({"2", "4", "0"})
    void aTokenOfAnotherVersionIsRevoked(long tokenVersion) {
        assertThat(new Attempt().with(a -> a.session = Optional.of(new SessionGrant(WALLET, tokenVersion, NOW.plusSeconds(60))))
                .decide()).isEqualTo(blocked(ViolationRule.SESSION_TOKEN, WALLET.value(), "revoked"));
    }

    @Test
    void aTokenExpiringExactlyNowHasExpired() {
        assertThat(new Attempt().with(a -> a.session = Optional.of(new SessionGrant(WALLET, 3, NOW))).decide())
                .isEqualTo(blocked(ViolationRule.SESSION_TOKEN, WALLET.value(), "expired"));
        assertThat(new Attempt().with(a -> a.session = Optional.of(new SessionGrant(WALLET, 3, NOW.minusSeconds(1))))
                .decide()).isEqualTo(blocked(ViolationRule.SESSION_TOKEN, WALLET.value(), "expired"));
    }

    @Test
    void aTokenExpiringOneMillisecondFromNowIsValid() {
        assertThat(new Attempt().with(a -> a.session = Optional.of(new SessionGrant(WALLET, 3, NOW.plusMillis(1))))
                .decide()).isEqualTo(new Decision.Allowed());
    }

    // max_per_tx

    @Test
    void anAmountEqualToMaxPerTxIsAllowed() {
        assertThat(new Attempt().with(a -> a.amount = usdc("100.00")).with(a -> a.requireCoSign = Optional.empty())
                .decide()).isEqualTo(new Decision.Allowed());
    }

    @Test
    void oneMicroOverMaxPerTxIsBlockedWithTheCapAndTheAmount() {
        assertThat(new Attempt().with(a -> a.amount = usdc("100.000001")).decide())
                .isEqualTo(blocked(ViolationRule.MAX_PER_TX, "100.00", "100.000001"));
    }

    @Test
    void noMaxPerTxMeansNoCap() {
        assertThat(new Attempt().with(a -> {
            a.maxPerTx = Optional.empty();
            a.maxPerDay = Optional.empty();
            a.maxPerMonth = Optional.empty();
            a.requireCoSign = Optional.empty();
            a.amount = Usdc.ofMicros(Long.MAX_VALUE);
        }).decide()).isEqualTo(new Decision.Allowed());
    }

    // allowed_recipients

    @Test
    void anEmptyAllowListAllowsAnyRecipient() {
        assertThat(new Attempt().with(a -> {
            a.allowedRecipients = List.of();
            a.recipient = "anyone-at-all";
        }).decide()).isEqualTo(new Decision.Allowed());
    }

    @Test
    void aRecipientOutsideTheAllowListIsBlockedNamingTheListSizeAndTheRecipient() {
        assertThat(new Attempt().with(a -> a.recipient = "someone-else").decide())
                .isEqualTo(blocked(ViolationRule.ALLOWED_RECIPIENTS, "2 allowed recipients", "someone-else"));
        assertThat(new Attempt().with(a -> a.recipient = OTHER_RECIPIENT).decide()).isEqualTo(new Decision.Allowed());
    }

    // blocked_category

    @Test
    void aRecipientInABlockedCategoryIsBlockedNamingTheCategoryAndTheRecipient() {
        assertThat(new Attempt().with(a -> a.category = Optional.of("gambling")).decide())
                .isEqualTo(blocked(ViolationRule.BLOCKED_CATEGORY, "gambling", RECIPIENT));
    }

    @Test
    void aRecipientWithoutACategoryOrInAnUnblockedOneIsAllowed() {
        assertThat(new Attempt().with(a -> a.category = Optional.empty()).decide()).isEqualTo(new Decision.Allowed());
        assertThat(new Attempt().with(a -> a.category = Optional.of("gambling-adjacent")).decide())
                .isEqualTo(new Decision.Allowed());
    }

    // max_per_day and max_per_month

    @Test
    void aDayTotalReachingTheCapExactlyIsAllowed() {
        assertThat(new Attempt().with(a -> {
            a.maxPerDay = Optional.of(usdc("100"));
            a.dayTotal = usdc("90");
            a.monthTotal = usdc("90");
        }).decide()).isEqualTo(new Decision.Allowed());
    }

    @Test
    void aDayTotalOneMicroOverTheCapIsBlockedWithTheTotalIncludingThisPayment() {
        assertThat(new Attempt().with(a -> {
            a.maxPerDay = Optional.of(usdc("100"));
            a.dayTotal = usdc("90.000001");
            a.monthTotal = usdc("90.000001");
        }).decide()).isEqualTo(blocked(ViolationRule.MAX_PER_DAY, "100.00", "100.000001"));
    }

    @Test
    void aMonthTotalReachingTheCapExactlyIsAllowed() {
        assertThat(new Attempt().with(a -> {
            a.maxPerMonth = Optional.of(usdc("1000"));
            a.monthTotal = usdc("990");
        }).decide()).isEqualTo(new Decision.Allowed());
    }

    @Test
    void aMonthTotalOverTheCapIsBlockedWithTheTotalIncludingThisPayment() {
        assertThat(new Attempt().with(a -> {
            a.maxPerMonth = Optional.of(usdc("1000"));
            a.dayTotal = usdc("5");
            a.monthTotal = usdc("995.5");
        }).decide()).isEqualTo(blocked(ViolationRule.MAX_PER_MONTH, "1000.00", "1005.50"));
    }

    // velocity_cap

    @Test
    void theLastPaymentTheVelocityCapAllowsGoesThrough() {
        assertThat(new Attempt().with(a -> {
            a.velocityCap = Optional.of(5);
            a.hourCount = 4;
        }).decide()).isEqualTo(new Decision.Allowed());
    }

    @Test
    void onePaymentOverTheVelocityCapIsBlockedWithTheCountIncludingThisPayment() {
        assertThat(new Attempt().with(a -> {
            a.velocityCap = Optional.of(5);
            a.hourCount = 5;
        }).decide()).isEqualTo(blocked(ViolationRule.VELOCITY_CAP, "5", "6"));
    }

    @Test
    void aVelocityCapOfZeroBlocksEveryPayment() {
        assertThat(new Attempt().with(a -> a.velocityCap = Optional.of(0)).decide())
                .isEqualTo(blocked(ViolationRule.VELOCITY_CAP, "0", "1"));
    }

    // policy_expired

    @Test
    void aPolicyExpiringExactlyNowHasExpired() {
        assertThat(new Attempt().with(a -> a.expiry = Optional.of(NOW)).decide())
                .isEqualTo(blocked(ViolationRule.POLICY_EXPIRED, "2026-04-01T12:00:00.000Z", "2026-04-01T12:00:00.000Z"));
    }

    @Test
    void aPolicyThatExpiredEarlierNamesItsExpiryAndTheTimeOfTheAttempt() {
        assertThat(new Attempt().with(a -> a.expiry = Optional.of(NOW.minus(Duration.ofMinutes(90)).plusMillis(250)))
                .decide()).isEqualTo(blocked(ViolationRule.POLICY_EXPIRED, "2026-04-01T10:30:00.250Z",
                "2026-04-01T12:00:00.000Z"));
    }

    @Test
    void aPolicyExpiringOneMillisecondFromNowStillApplies() {
        assertThat(new Attempt().with(a -> a.expiry = Optional.of(NOW.plusMillis(1))).decide())
                .isEqualTo(new Decision.Allowed());
    }

    // co-sign

    @Test
    void anAmountAtTheThresholdNeedsACoSignature() {
        assertThat(new Attempt().with(a -> a.amount = usdc("50.00")).decide())
                .isEqualTo(new Decision.NeedsCoSign(CO_SIGNER));
    }

    @Test
    void anAmountAboveTheThresholdNeedsACoSignature() {
        assertThat(new Attempt().with(a -> a.amount = usdc("50.000001")).decide())
                .isEqualTo(new Decision.NeedsCoSign(CO_SIGNER));
    }

    @Test
    void anAmountJustBelowTheThresholdDoesNot() {
        assertThat(new Attempt().with(a -> a.amount = usdc("49.999999")).decide()).isEqualTo(new Decision.Allowed());
    }

    @Test
    void aCoSignIntentBelowTheThresholdNeedsACoSignature() {
        assertThat(new Attempt().with(a -> {
            a.amount = usdc("0.01");
            a.kind = PaymentCheck.Kind.PAYMENT_WITH_CO_SIGN_INTENT;
        }).decide()).isEqualTo(new Decision.NeedsCoSign(CO_SIGNER));
    }

    @Test
    void aCoSignIntentWorksWithACoSignerButNoThreshold() {
        assertThat(new Attempt().with(a -> {
            a.requireCoSign = Optional.empty();
            a.kind = PaymentCheck.Kind.PAYMENT_WITH_CO_SIGN_INTENT;
        }).decide()).isEqualTo(new Decision.NeedsCoSign(CO_SIGNER));
    }

    @Test
    void aCoSignerWithoutThresholdOrIntentAsksForNothing() {
        assertThat(new Attempt().with(a -> {
            a.requireCoSign = Optional.empty();
            a.amount = usdc("99");
        }).decide()).isEqualTo(new Decision.Allowed());
    }

    @Test
    void aBlockedPaymentIsBlockedEvenWhenItWouldNeedACoSignature() {
        assertThat(new Attempt().with(a -> {
            a.amount = usdc("60");
            a.velocityCap = Optional.of(0);
        }).decide()).isEqualTo(blocked(ViolationRule.VELOCITY_CAP, "0", "1"));
    }

    @ParameterizedTest(name = "escrow of {0}")
    @CsvSource({"50, 50.00", "50.000001, 50.000001", "99.5, 99.50"})
    void anEscrowLockAtOrAboveTheThresholdIsBlockedWithRequireCoSign(String amount, String rendered) {
        assertThat(new Attempt().with(a -> {
            a.amount = usdc(amount);
            a.kind = PaymentCheck.Kind.ESCROW_LOCK;
        }).decide()).isEqualTo(blocked(ViolationRule.REQUIRE_CO_SIGN, "50.00", rendered));
    }

    @Test
    void anEscrowLockBelowTheThresholdIsAllowed() {
        assertThat(new Attempt().with(a -> {
            a.amount = usdc("49.999999");
            a.kind = PaymentCheck.Kind.ESCROW_LOCK;
        }).decide()).isEqualTo(new Decision.Allowed());
    }

    @Test
    void decisionsHaveTheirWireNames() {
        assertThat(new Decision.Allowed().wireName()).isEqualTo("allowed");
        assertThat(new Decision.NeedsCoSign(CO_SIGNER).wireName()).isEqualTo("needs_co_sign");
        assertThat(blocked(ViolationRule.MAX_PER_TX, "1.00", "2.00").wireName()).isEqualTo("blocked");
    }

    private static ViolationRule blockedRule(Attempt attempt) {
        Decision decision = attempt.decide();
        assertThat(decision).isInstanceOf(Decision.Blocked.class);
        return ((Decision.Blocked) decision).violation().rule();
    }

    private static Decision blocked(ViolationRule rule, String limit, String attempted) {
        return new Decision.Blocked(new Violation(rule, limit, attempted));
    }

    private static Usdc usdc(String amount) {
        return Usdc.parse(amount);
    }
}
