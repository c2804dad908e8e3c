package com.agentwallet.core.policy;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FieldChangeTest {

    @Test
    void identicalMapsHaveNoChanges() {
        Map<String, Object> fields = fields("name", "P", "max_per_tx", "100.00", "allowed_recipients", List.of("a"));
        assertThat(FieldChange.diff(fields, fields("name", "P", "max_per_tx", "100.00", "allowed_recipients", List.of("a"))))
                .isEmpty();
    }

    @Test
    void onlyChangedFieldsAreListedInTheOrderOfTheBeforeMap() {
        Map<String, Object> before = fields("name", "P", "max_per_tx", "100.00", "velocity_cap", 5, "expiry", null);
        Map<String, Object> after = fields("expiry", "2026-05-01T00:00:00.000Z", "velocity_cap", 5, "max_per_tx", null,
                "name", "Q");
        assertThat(FieldChange.diff(before, after)).containsExactly(
                new FieldChange("name", "P", "Q"),
                new FieldChange("max_per_tx", "100.00", null),
                new FieldChange("expiry", null, "2026-05-01T00:00:00.000Z"));
    }

    @Test
    void valuesAreComparedByEquality() {
        Map<String, Object> before = fields("allowed_recipients", List.of("a", "b"), "velocity_cap", 5);
        Map<String, Object> after = fields("allowed_recipients", List.of("a", "b"), "velocity_cap", 6);
        assertThat(FieldChange.diff(before, after)).containsExactly(new FieldChange("velocity_cap", 5, 6));
        assertThat(FieldChange.diff(fields("allowed_recipients", List.of("a", "b")),
                fields("allowed_recipients", List.of("b", "a")))).hasSize(1);
    }

    @Test
    void mapsOfDifferentShapesCannotBeDiffed() {
        assertThatThrownBy(() -> FieldChange.diff(fields("name", "P"), fields("title", "P")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> FieldChange.diff(fields("name", "P"), fields("name", "P", "max_per_tx", null)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void thePayloadMapsEachFieldToItsOldAndNewValue() {
        Map<String, Object> payload = FieldChange.toPayload(List.of(new FieldChange("max_per_tx", null, "100.00"),
                new FieldChange("name", "P", "Q")));
        assertThat(payload.keySet()).containsExactly("max_per_tx", "name");
        assertThat(payload.get("max_per_tx")).isEqualTo(fields("old", null, "new", "100.00"));
        assertThat(payload.get("name")).isEqualTo(fields("old", "P", "new", "Q"));
        assertThat(FieldChange.toPayload(List.of())).isEmpty();
    }

    @Test
    void creatingAPolicyDiffsEveryFieldAgainstUnset() {
        PolicyRules rules = PolicyRules.NONE;
        Map<String, Object> unset = new LinkedHashMap<>();
        rules.fields().keySet().forEach(field -> unset.put(field, null));
        assertThat(FieldChange.diff(unset, rules.fields())).extracting(FieldChange::field)
                .containsExactly("allowed_recipients", "blocked_categories");
    }

    private static Map<String, Object> fields(Object... namesAndValues) {
        Map<String, Object> fields = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            fields.put((String) namesAndValues[i], namesAndValues[i + 1]);
        }
        return fields;
    }
}
