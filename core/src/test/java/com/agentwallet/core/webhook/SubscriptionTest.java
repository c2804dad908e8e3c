package com.agentwallet.core.webhook;

import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.event.EventType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SubscriptionTest {

    @ParameterizedTest(name = "{0}")
    @EnumSource(EventType.class)
    void theWildcardSubscribesToEveryEvent(EventType type) {
        assertThat(Subscription.parse(List.of("*")).includes(type)).isTrue();
    }

    @Test
    void theWildcardAnywhereInTheListWins() {
        Subscription subscription = Subscription.parse(List.of("transaction.completed", "*"));
        assertThat(subscription.all()).isTrue();
        assertThat(subscription.wireNames()).containsExactly("*");
    }

    @Test
    void namedEventsAreIncludedAndOthersAreNot() {
        Subscription subscription = Subscription.parse(List.of("wallet.created", "transaction.completed"));
        assertThat(subscription.all()).isFalse();
        assertThat(subscription.includes(EventType.TRANSACTION_COMPLETED)).isTrue();
        assertThat(subscription.includes(EventType.WALLET_CREATED)).isTrue();
        assertThat(subscription.includes(EventType.TRANSACTION_BLOCKED)).isFalse();
        assertThat(subscription.includes(EventType.BALANCE_LOW)).isFalse();
        assertThat(subscription.wireNames()).containsExactly("transaction.completed", "wallet.created");
    }

    @Test
    void duplicateNamesCountOnce() {
        Subscription subscription = Subscription.parse(List.of("balance.low", "balance.low"));
        assertThat(subscription.events()).containsExactly(EventType.BALANCE_LOW);
    }

    @ParameterizedTest(name = "subscribed to {0}")
    @EnumSource(EventType.class)
    void pingIsAlwaysIncluded(EventType only) {
        assertThat(Subscription.parse(List.of(only.wireName())).includes(EventType.PING)).isTrue();
    }

    @Test
    void everyCatalogueNameParses() {
        List<String> all = Arrays.stream(EventType.values()).map(EventType::wireName).toList();
        assertThat(Subscription.parse(all).events()).containsExactlyInAnyOrder(EventType.values());
    }

    @Test
    void anUnknownNameIsAValidationErrorOnEvents() {
        assertValidationError(List.of("transaction.completed", "transaction.exploded"));
        assertValidationError(List.of("TRANSACTION.COMPLETED"));
        assertValidationError(List.of(" ping"));
        assertValidationError(Arrays.asList("ping", null));
    }

    @Test
    void anEmptyOrMissingListIsAValidationErrorOnEvents() {
        assertValidationError(List.of());
        assertValidationError(null);
        assertThatThrownBy(() -> new Subscription(false, Set.of())).isInstanceOf(ValidationException.class);
    }

    private static void assertValidationError(Collection<String> names) {
        assertThatThrownBy(() -> Subscription.parse(names))
                .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.param()).isEqualTo("events"));
    }
}
