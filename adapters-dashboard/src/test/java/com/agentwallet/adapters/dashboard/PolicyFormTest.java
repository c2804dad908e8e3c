package com.agentwallet.adapters.dashboard;

import com.agentwallet.core.common.FieldUpdate;
import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.PolicyId;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.policy.Policy;
import com.agentwallet.core.policy.PolicyPatch;
import com.agentwallet.core.policy.PolicyRules;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PolicyFormTest {
    private static final Instant NOW = Instant.parse("2026-11-28T10:00:00Z");
    private static final Policy POLICY = new Policy(new PolicyId("pol_PPPPPPPPPPPPPPPPPPPPPPPP"),
            new OrgId("org_OOOOOOOOOOOOOOOOOOOOOOOO"), "ops",
            new PolicyRules(Optional.of(Usdc.parse("50")), Optional.of(Usdc.parse("100")), Optional.empty(),
                    Optional.of(10), List.of("alice", "bob"), Set.of("gambling"),
                    Optional.of(Instant.parse("2030-01-01T00:00:00Z")), Optional.empty(), Optional.empty()),
            3, NOW, NOW);

    private static PolicyForm form(Map<String, String> fields) {
        return PolicyForm.of(fields.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey,
                entry -> List.of(entry.getValue()))));
    }

    @Test
    void aNewPolicyHasTheFilledRulesAndNoOthers() {
        PolicyForm typed = form(Map.of("name", " ops ", "max_per_tx", "12.5", "velocity_cap", "7",
                "allowed_recipients", "alice\r\n\n  bob \nalice", "blocked_categories", "adult\ngambling",
                "expiry", "2030-01-01T01:00:00+01:00"));
        assertThat(typed.newName()).isEqualTo("ops");
        assertThat(typed.forCreation()).isEqualTo(new PolicyRules(Optional.of(Usdc.parse("12.50")), Optional.empty(),
                Optional.empty(), Optional.of(7), List.of("alice", "bob"), Set.of("adult", "gambling"),
                Optional.of(Instant.parse("2030-01-01T00:00:00Z")), Optional.empty(), Optional.empty()));
        assertThat(PolicyForm.EMPTY.forCreation()).isEqualTo(PolicyRules.NONE);
    }

    @Test
    void invalidFieldsAreRefusedNamingTheField() {
        assertThatThrownBy(() -> form(Map.of("max_per_day", "1.2345678")).forCreation())
                .isInstanceOf(ValidationException.class).extracting("param").isEqualTo("max_per_day");
        assertThatThrownBy(() -> form(Map.of("velocity_cap", "-1")).forCreation())
                .isInstanceOf(ValidationException.class).extracting("param").isEqualTo("velocity_cap");
        assertThatThrownBy(() -> form(Map.of("require_co_sign", "0")).forCreation())
                .isInstanceOf(ValidationException.class).extracting("param").isEqualTo("require_co_sign");
        assertThatThrownBy(() -> form(Map.of("require_co_sign", "25")).forCreation())
                .isInstanceOf(ValidationException.class).extracting("param").isEqualTo("co_signer");
        assertThatThrownBy(() -> form(Map.of("name", "  ")).newName())
                .isInstanceOf(ValidationException.class).extracting("param").isEqualTo("name");
    }

    @Test
    void theFormOfAPolicyPatchesNothing() {
        PolicyForm shown = PolicyForm.of(POLICY);
        assertThat(shown.maxPerTx()).isEqualTo("50.00");
        assertThat(shown.allowedRecipients()).isEqualTo("alice\nbob");
        assertThat(shown.expiry()).isEqualTo("2030-01-01T00:00:00.000Z");
        assertThat(shown.requireCoSign()).isEmpty();
        assertThat(shown.changesTo(POLICY)).isEqualTo(PolicyPatch.NONE);
    }

    @Test
    void onlyChangedFieldsArePatchedAndAnEmptiedOneIsCleared() {
        PolicyForm shown = PolicyForm.of(POLICY);
        PolicyForm typed = new PolicyForm(shown.name(), "50", "150", "", "", "bob", "", shown.expiry(), "", "");
        PolicyPatch patch = typed.changesTo(POLICY);
        assertThat(patch).isEqualTo(new PolicyPatch(FieldUpdate.keep(), FieldUpdate.keep(),
                FieldUpdate.set(Usdc.parse("150")), FieldUpdate.keep(), FieldUpdate.clear(),
                FieldUpdate.set(List.of("bob")), FieldUpdate.set(Set.of()), FieldUpdate.keep(), FieldUpdate.keep(),
                FieldUpdate.keep()));
        PolicyRules after = patch.applyTo(POLICY.rules());
        assertThat(after.velocityCap()).isEmpty();
        assertThat(after.blockedCategories()).isEmpty();
        assertThat(after.maxPerTx()).contains(Usdc.parse("50"));
    }

    @Test
    void anEmptiedNameIsRefusedAsAPatchOfNullIs() {
        PolicyForm shown = PolicyForm.of(POLICY);
        PolicyForm typed = new PolicyForm("", shown.maxPerTx(), shown.maxPerDay(), shown.maxPerMonth(),
                shown.velocityCap(), shown.allowedRecipients(), shown.blockedCategories(), shown.expiry(),
                shown.requireCoSign(), shown.coSigner());
        assertThatThrownBy(() -> typed.changesTo(POLICY).applyToName(POLICY.name()))
                .isInstanceOf(ValidationException.class).hasMessageContaining("'name' cannot be null");
    }
}
