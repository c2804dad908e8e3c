package com.agentwallet.core.policy;

import com.agentwallet.core.common.FieldUpdate;
import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.testing.TestCoSigner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PolicyPatchTest {
    private static final String CO_SIGNER = new TestCoSigner(5).publicKey();
    private static final String NEW_CO_SIGNER = new TestCoSigner(6).publicKey();
    private static final Instant EXPIRY = Instant.parse("2026-06-01T00:00:00Z");

    private static final PolicyRules CURRENT = new PolicyRules(Optional.of(Usdc.parse("100")), Optional.of(Usdc.parse("500")),
            Optional.of(Usdc.parse("2000")), Optional.of(10), List.of("alice", "bob"), Set.of("gambling"), Optional.of(EXPIRY),
            Optional.of(Usdc.parse("50")), Optional.of(CO_SIGNER));

    /** A patch that keeps every field unless a test says otherwise. */
    private static final class Patch {
        FieldUpdate<String> name = FieldUpdate.keep();
        FieldUpdate<Usdc> maxPerTx = FieldUpdate.keep();
        FieldUpdate<Usdc> maxPerDay = FieldUpdate.keep();
        FieldUpdate<Usdc> maxPerMonth = FieldUpdate.keep();
        FieldUpdate<Integer> velocityCap = FieldUpdate.keep();
        FieldUpdate<List<String>> allowedRecipients = FieldUpdate.keep();
        FieldUpdate<Set<String>> blockedCategories = FieldUpdate.keep();
        FieldUpdate<Instant> expiry = FieldUpdate.keep();
        FieldUpdate<Usdc> requireCoSign = FieldUpdate.keep();
        FieldUpdate<String> coSigner = FieldUpdate.keep();

        PolicyPatch build() {
            return new PolicyPatch(name, maxPerTx, maxPerDay, maxPerMonth, velocityCap, allowedRecipients, blockedCategories,
                    expiry, requireCoSign, coSigner);
        }
    }

    private static PolicyPatch patch(Consumer<Patch> change) {
        Patch patch = new Patch();
        change.accept(patch);
        return patch.build();
    }

    @Test
    void keepingEveryFieldChangesNothing() {
        assertThat(PolicyPatch.NONE).isEqualTo(patch(p -> { }));
        assertThat(PolicyPatch.NONE.applyTo(CURRENT)).isEqualTo(CURRENT);
        assertThat(PolicyPatch.NONE.applyToName("Current")).isEqualTo("Current");
    }

    @Test
    void settingEveryFieldReplacesEachValue() {
        PolicyPatch everything = patch(p -> {
            p.name = FieldUpdate.set("Renamed");
            p.maxPerTx = FieldUpdate.set(Usdc.parse("1"));
            p.maxPerDay = FieldUpdate.set(Usdc.parse("2"));
            p.maxPerMonth = FieldUpdate.set(Usdc.parse("3"));
            p.velocityCap = FieldUpdate.set(4);
            p.allowedRecipients = FieldUpdate.set(List.of("carol"));
            p.blockedCategories = FieldUpdate.set(Set.of("adult"));
            p.expiry = FieldUpdate.set(EXPIRY.plusSeconds(60));
            p.requireCoSign = FieldUpdate.set(Usdc.parse("0.5"));
            p.coSigner = FieldUpdate.set(NEW_CO_SIGNER);
        });
        assertThat(everything.applyTo(CURRENT)).isEqualTo(new PolicyRules(Optional.of(Usdc.parse("1")),
                Optional.of(Usdc.parse("2")), Optional.of(Usdc.parse("3")), Optional.of(4), List.of("carol"),
                Set.of("adult"), Optional.of(EXPIRY.plusSeconds(60)), Optional.of(Usdc.parse("0.5")),
                Optional.of(NEW_CO_SIGNER)));
        assertThat(everything.applyToName("Current")).isEqualTo("Renamed");
    }

    @Test
    void clearingEveryOptionalFieldLeavesOnlyTheLists() {
        assertThat(clearEveryOptionalField().applyTo(CURRENT)).isEqualTo(new PolicyRules(Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), List.of("alice", "bob"), Set.of("gambling"),
                Optional.empty(), Optional.empty(), Optional.empty()));
    }

    @Test
    void aPatchTouchesOnlyTheFieldsItNames() {
        PolicyRules patched = patch(p -> p.maxPerTx = FieldUpdate.set(Usdc.parse("75"))).applyTo(CURRENT);
        assertThat(patched.maxPerTx()).contains(Usdc.parse("75"));
        assertThat(patched).usingRecursiveComparison().ignoringFields("maxPerTx").isEqualTo(CURRENT);
    }

    @Test
    void clearingTheAllowedRecipientsIsAValidationError() {
        assertValidationError(() -> patch(p -> p.allowedRecipients = FieldUpdate.clear()).applyTo(CURRENT),
                "allowed_recipients");
    }

    @Test
    void clearingTheBlockedCategoriesIsAValidationError() {
        assertValidationError(() -> patch(p -> p.blockedCategories = FieldUpdate.clear()).applyTo(CURRENT),
                "blocked_categories");
    }

    @Test
    void settingEmptyListsIsHowListsAreEmptied() {
        PolicyRules patched = patch(p -> {
            p.allowedRecipients = FieldUpdate.set(List.of());
            p.blockedCategories = FieldUpdate.set(Set.of());
        }).applyTo(CURRENT);
        assertThat(patched.allowedRecipients()).isEmpty();
        assertThat(patched.blockedCategories()).isEmpty();
    }

    @Test
    void clearingTheNameIsAValidationError() {
        assertValidationError(() -> patch(p -> p.name = FieldUpdate.clear()).applyToName("Current"), "name");
    }

    @ParameterizedTest(name = "name \"{0}\"")
    @ValueSource(strings = {"", " ", "\t"})
    void aBlankNameIsAValidationError(String name) {
        assertValidationError(() -> PolicyPatch.NONE.withName(name).applyToName("Current"), "name");
    }

    @Test
    void withNameSetsTheNameAndKeepsTheRules() {
        PolicyPatch renamed = clearEveryOptionalField().withName("Copy");
        assertThat(renamed.applyToName("Original")).isEqualTo("Copy");
        assertThat(renamed.applyTo(CURRENT)).isEqualTo(clearEveryOptionalField().applyTo(CURRENT));
    }

    @Test
    void clearingTheCoSignerWhileTheThresholdStaysIsAValidationError() {
        assertValidationError(() -> patch(p -> p.coSigner = FieldUpdate.clear()).applyTo(CURRENT), "co_signer");
    }

    @Test
    void clearingTheThresholdAndTheCoSignerTogetherIsValid() {
        PolicyRules patched = patch(p -> {
            p.requireCoSign = FieldUpdate.clear();
            p.coSigner = FieldUpdate.clear();
        }).applyTo(CURRENT);
        assertThat(patched.requireCoSign()).isEmpty();
        assertThat(patched.coSigner()).isEmpty();
    }

    @Test
    void theResultIsValidatedAsAWhole() {
        List<String> tooMany = IntStream.range(0, 33).mapToObj(i -> "r" + i).toList();
        assertValidationError(() -> patch(p -> p.velocityCap = FieldUpdate.set(-1)).applyTo(CURRENT), "velocity_cap");
        assertValidationError(() -> patch(p -> p.allowedRecipients = FieldUpdate.set(tooMany)).applyTo(CURRENT),
                "allowed_recipients");
        assertValidationError(() -> patch(p -> p.blockedCategories = FieldUpdate.set(Set.of("Bad Name"))).applyTo(CURRENT),
                "blocked_categories");
    }

    private static PolicyPatch clearEveryOptionalField() {
        return patch(p -> {
            p.maxPerTx = FieldUpdate.clear();
            p.maxPerDay = FieldUpdate.clear();
            p.maxPerMonth = FieldUpdate.clear();
            p.velocityCap = FieldUpdate.clear();
            p.expiry = FieldUpdate.clear();
            p.requireCoSign = FieldUpdate.clear();
            p.coSigner = FieldUpdate.clear();
        });
    }

    private static void assertValidationError(Runnable apply, String param) {
        assertThatThrownBy(apply::run)
                .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.param()).isEqualTo(param));
    }
}
