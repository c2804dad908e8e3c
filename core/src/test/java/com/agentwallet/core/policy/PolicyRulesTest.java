package com.agentwallet.core.policy;

import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.crypto.Base58;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.testing.TestCoSigner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PolicyRulesTest {
    private static final String CO_SIGNER = new TestCoSigner(3).publicKey();

    @Test
    void noRulesIsValid() {
        assertThat(PolicyRules.NONE.allowedRecipients()).isEmpty();
        assertThat(PolicyRules.NONE.blockedCategories()).isEmpty();
        assertThat(PolicyRules.NONE.isExpiredAt(Instant.MAX)).isFalse();
    }

    @Test
    void aCoSignThresholdRequiresACoSigner() {
        assertValidationError(() -> rules(Optional.of(Usdc.parse("50")), Optional.empty()), "co_signer");
    }

    @Test
    void aCoSignThresholdWithACoSignerAndACoSignerAloneAreValid() {
        assertThatCode(() -> rules(Optional.of(Usdc.parse("50")), Optional.of(CO_SIGNER))).doesNotThrowAnyException();
        assertThatCode(() -> rules(Optional.empty(), Optional.of(CO_SIGNER))).doesNotThrowAnyException();
    }

    @ParameterizedTest(name = "co_signer \"{0}\"")
    @ValueSource(strings = {"", "not-a-key", "0OIl0OIl0OIl0OIl0OIl0OIl0OIl0OIl", "1111111111111111111111111111111",
            "JxF12TrwUP45BMd"})
    void aCoSignerMustBeABase58PublicKey(String coSigner) {
        assertValidationError(() -> rules(Optional.of(Usdc.parse("50")), Optional.of(coSigner)), "co_signer");
    }

    /** 32 bytes that decode to no curve point cannot verify any co-signature, so they are no co-signer. */
    @Test
    void aCoSignerMustBeACurvePoint() {
        byte[] notAPoint = new byte[32];
        notAPoint[0] = 2;
        assertValidationError(() -> rules(Optional.empty(), Optional.of(Base58.encode(notAPoint))), "co_signer");
    }

    @Test
    void upTo32AllowedRecipientsAreValid() {
        assertThat(withRecipients(recipients(32)).allowedRecipients()).hasSize(32);
    }

    @Test
    void moreThan32AllowedRecipientsAreRefused() {
        assertValidationError(() -> withRecipients(recipients(33)), "allowed_recipients");
    }

    @Test
    void duplicateRecipientsCountOnceAndKeepTheirFirstPosition() {
        List<String> withDuplicates = new ArrayList<>(recipients(32));
        withDuplicates.add(0, withDuplicates.get(5));
        withDuplicates.add(withDuplicates.get(1));
        PolicyRules rules = withRecipients(withDuplicates);
        assertThat(rules.allowedRecipients()).hasSize(32).startsWith("recipient-5", "recipient-0", "recipient-1");
    }

    @ParameterizedTest(name = "recipient \"{0}\"")
    @ValueSource(strings = {"", " ", "has space", "tab\there", "new\nline", "caf\u00e9", "\u007f",
            "12345678901234567890123456789012345678901234567890123456789012345"})
    void allowedRecipientsMustBe1To64PrintableCharacters(String recipient) {
        assertValidationError(() -> withRecipients(List.of("fine", recipient)), "allowed_recipients");
    }

    @Test
    void aRecipientOf64PrintableCharactersIsValid() {
        String longest = "~!#" + "x".repeat(61);
        assertThat(withRecipients(List.of(longest)).allowedRecipients()).containsExactly(longest);
    }

    @Test
    void upTo16BlockedCategoriesAreValidAndMoreAreRefused() {
        assertThat(withCategories(categories(16)).blockedCategories()).hasSize(16);
        assertValidationError(() -> withCategories(categories(17)), "blocked_categories");
    }

    @ParameterizedTest(name = "category \"{0}\"")
    @ValueSource(strings = {"", "Gambling", "GAMBLING", "-gambling", "_gambling", ".gambling", "gam bling", "gambling!",
            "caf\u00e9", "gambling\n",
            "a1234567890123456789012345678901234567890123456789012345678901234"})
    void badCategoryNamesAreRefused(String category) {
        assertValidationError(() -> withCategories(Set.of(category)), "blocked_categories");
    }

    @ParameterizedTest(name = "category \"{0}\"")
    @ValueSource(strings = {"a", "0", "gambling", "adult.content", "crypto-exchange", "high_risk_2",
            "a123456789012345678901234567890123456789012345678901234567890123"})
    void goodCategoryNamesAreAccepted(String category) {
        assertThat(withCategories(Set.of(category)).blockedCategories()).containsExactly(category);
    }

    @ParameterizedTest(name = "velocity_cap {0}")
    @ValueSource(ints = {Integer.MIN_VALUE, -1, 1_000_001})
    void aVelocityCapOutside0To1000000IsRefused(int cap) {
        assertValidationError(() -> withVelocityCap(cap), "velocity_cap");
    }

    @ParameterizedTest(name = "velocity_cap {0}")
    @ValueSource(ints = {0, 1, 1_000_000})
    void aVelocityCapFrom0To1000000IsValid(int cap) {
        assertThat(withVelocityCap(cap).velocityCap()).contains(cap);
    }

    @Test
    void aPolicyHasExpiredFromItsExpiryInstantOn() {
        Instant expiry = Instant.parse("2026-05-01T00:00:00Z");
        PolicyRules rules = new PolicyRules(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                List.of(), Set.of(), Optional.of(expiry), Optional.empty(), Optional.empty());
        assertThat(rules.isExpiredAt(expiry.minusMillis(1))).isFalse();
        assertThat(rules.isExpiredAt(expiry)).isTrue();
        assertThat(rules.isExpiredAt(expiry.plusMillis(1))).isTrue();
    }

    @Test
    void fieldsAreWireNamedAndWireFormattedInAFixedOrder() {
        PolicyRules rules = new PolicyRules(Optional.of(Usdc.parse("100")), Optional.empty(), Optional.of(Usdc.parse("0.5")),
                Optional.of(7), List.of("b", "a"), Set.of("zeta", "alpha"), Optional.of(Instant.parse("2026-05-01T00:00:00Z")),
                Optional.of(Usdc.parse("50")), Optional.of(CO_SIGNER));
        Map<String, Object> fields = rules.fields();
        assertThat(fields.keySet()).containsExactly("max_per_tx", "max_per_day", "max_per_month", "velocity_cap",
                "allowed_recipients", "blocked_categories", "expiry", "require_co_sign", "co_signer");
        assertThat(fields).containsEntry("max_per_tx", "100.00").containsEntry("max_per_day", null)
                .containsEntry("max_per_month", "0.50").containsEntry("velocity_cap", 7)
                .containsEntry("allowed_recipients", List.of("b", "a"))
                .containsEntry("blocked_categories", List.of("alpha", "zeta"))
                .containsEntry("expiry", "2026-05-01T00:00:00.000Z").containsEntry("require_co_sign", "50.00")
                .containsEntry("co_signer", CO_SIGNER);
    }

    private static PolicyRules rules(Optional<Usdc> requireCoSign, Optional<String> coSigner) {
        return new PolicyRules(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), List.of(), Set.of(),
                Optional.empty(), requireCoSign, coSigner);
    }

    private static PolicyRules withRecipients(List<String> recipients) {
        return new PolicyRules(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), recipients, Set.of(),
                Optional.empty(), Optional.empty(), Optional.empty());
    }

    private static PolicyRules withCategories(Set<String> categories) {
        return new PolicyRules(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), List.of(), categories,
                Optional.empty(), Optional.empty(), Optional.empty());
    }

    private static PolicyRules withVelocityCap(int cap) {
        return new PolicyRules(Optional.empty(), Optional.empty(), Optional.empty(), Optional.of(cap), List.of(), Set.of(),
                Optional.empty(), Optional.empty(), Optional.empty());
    }

    private static List<String> recipients(int count) {
        return IntStream.range(0, count).mapToObj(i -> "recipient-" + i).toList();
    }

    private static Set<String> categories(int count) {
        return IntStream.range(0, count).mapToObj(i -> "category-" + i).collect(Collectors.toSet());
    }

    private static void assertValidationError(Runnable build, String param) {
        assertThatThrownBy(build::run)
                .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.param()).isEqualTo(param));
    }
}
