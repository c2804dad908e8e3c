package com.agentwallet.core.common;

import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FieldUpdateTest {

    @Test
    void keepLeavesAnOptionalFieldAsItIs() {
        FieldUpdate<String> keep = FieldUpdate.keep();
        assertThat(keep.applyTo(Optional.of("old"))).contains("old");
        assertThat(keep.applyTo(Optional.empty())).isEmpty();
        assertThat(keep.isKeep()).isTrue();
    }

    @Test
    void setReplacesAnOptionalFieldWhetherOrNotItHadAValue() {
        FieldUpdate<String> set = FieldUpdate.set("new");
        assertThat(set.applyTo(Optional.of("old"))).contains("new");
        assertThat(set.applyTo(Optional.empty())).contains("new");
        assertThat(set.isKeep()).isFalse();
    }

    @Test
    void clearEmptiesAnOptionalField() {
        FieldUpdate<String> clear = FieldUpdate.clear();
        assertThat(clear.applyTo(Optional.of("old"))).isEmpty();
        assertThat(clear.isKeep()).isFalse();
    }

    @Test
    void aRequiredFieldCanBeKeptOrSet() {
        assertThat(FieldUpdate.<String>keep().applyToRequired("old", "name")).isEqualTo("old");
        assertThat(FieldUpdate.set("new").applyToRequired("old", "name")).isEqualTo("new");
    }

    @Test
    void clearingARequiredFieldIsAValidationErrorNamingTheParam() {
        assertThatThrownBy(() -> FieldUpdate.<String>clear().applyToRequired("old", "allowed_recipients"))
                .isInstanceOfSatisfying(ValidationException.class,
                        e -> assertThat(e.param()).isEqualTo("allowed_recipients"));
    }

    @Test
    void settingNullIsAProgrammingErrorNotAClear() {
        assertThatThrownBy(() -> FieldUpdate.set(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new FieldUpdate.Set<String>(null)).isInstanceOf(NullPointerException.class);
    }
}
