package com.agentwallet.core.webhook;

import com.agentwallet.core.common.Rejection;
import com.agentwallet.core.common.Result;
import com.agentwallet.core.common.Transition;
import com.agentwallet.core.id.EventId;
import com.agentwallet.core.id.WebhookId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DeliveryMachineTest {
    private static final Instant START = Instant.parse("2026-04-01T12:00:00Z");
    private static final EventId EVENT = new EventId("evt_EEEEEEEEEEEEEEEEEEEEEEEE");
    private static final WebhookId WEBHOOK = new WebhookId("wh_HHHHHHHHHHHHHHHHHHHHHHHH");
    private static final List<Duration> DUE_AFTER_START = List.of(Duration.ZERO, Duration.ofMinutes(1),
            Duration.ofMinutes(5), Duration.ofMinutes(30), Duration.ofHours(2));

    @ParameterizedTest(name = "attempt {0} is due {1} after the start")
    @CsvSource({"1, PT0S", "2, PT1M", "3, PT5M", "4, PT30M", "5, PT2H"})
    void attemptsAreDueAtFixedOffsetsFromTheScheduleStart(int attempt, Duration offset) {
        assertThat(RetrySchedule.attemptDue(START, attempt)).isEqualTo(START.plus(offset));
    }

    @ParameterizedTest(name = "attempt {0}")
    @ValueSource(ints = {-1, 0, 6})
    void thereAreExactlyFiveAttempts(int attempt) {
        assertThat(RetrySchedule.MAX_ATTEMPTS).isEqualTo(5);
        assertThatThrownBy(() -> RetrySchedule.attemptDue(START, attempt)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aNewDeliveryIsDueAtOnce() {
        assertThat(Delivery.schedule(EVENT, WEBHOOK, START))
                .isEqualTo(new Delivery(EVENT, WEBHOOK, DeliveryStatus.SCHEDULED, 0, START, Optional.of(START)));
    }

    @Test
    void eachFailureOnTimeSchedulesTheNextAttemptAndTheFifthExhausts() {
        Delivery delivery = Delivery.schedule(EVENT, WEBHOOK, START);
        for (int attempt = 1; attempt <= 4; attempt++) {
            Instant due = delivery.nextAttemptAt().orElseThrow();
            assertThat(due).as("attempt %d due", attempt).isEqualTo(START.plus(DUE_AFTER_START.get(attempt - 1)));
            delivery = accepted(delivery, DeliveryMachine.Command.FAILED, due);
            assertThat(delivery).isEqualTo(new Delivery(EVENT, WEBHOOK, DeliveryStatus.SCHEDULED, attempt, START,
                    Optional.of(START.plus(DUE_AFTER_START.get(attempt)))));
        }
        Delivery exhausted = accepted(delivery, DeliveryMachine.Command.FAILED, START.plus(Duration.ofHours(2)));
        assertThat(exhausted).isEqualTo(new Delivery(EVENT, WEBHOOK, DeliveryStatus.EXHAUSTED, 5, START, Optional.empty()));
    }

    @Test
    void aLateFailureNeverSchedulesTheNextAttemptInThePast() {
        Delivery delivery = Delivery.schedule(EVENT, WEBHOOK, START);
        Instant late = START.plus(Duration.ofMinutes(10));
        Delivery afterFirst = accepted(delivery, DeliveryMachine.Command.FAILED, late);
        assertThat(afterFirst.nextAttemptAt()).contains(late);
        assertThat(afterFirst.scheduleStart()).isEqualTo(START);

        Delivery afterSecond = accepted(afterFirst, DeliveryMachine.Command.FAILED, late);
        assertThat(afterSecond.nextAttemptAt()).as("attempt 3 is still due at 5 min... which has passed").contains(late);

        Delivery afterThird = accepted(afterSecond, DeliveryMachine.Command.FAILED, late.plusSeconds(1));
        assertThat(afterThird.nextAttemptAt()).as("attempt 4 keeps its slot at 30 min")
                .contains(START.plus(Duration.ofMinutes(30)));
    }

    @Test
    void anEarlyFailureKeepsTheFixedSchedule() {
        Delivery afterFirst = accepted(Delivery.schedule(EVENT, WEBHOOK, START), DeliveryMachine.Command.FAILED, START);
        Delivery afterSecond = accepted(afterFirst, DeliveryMachine.Command.FAILED, START.plusSeconds(61));
        assertThat(afterSecond.nextAttemptAt()).contains(START.plus(Duration.ofMinutes(5)));
    }

    @Test
    void aSuccessDeliversAndCountsTheAttempt() {
        Delivery afterOneFailure = accepted(Delivery.schedule(EVENT, WEBHOOK, START), DeliveryMachine.Command.FAILED, START);
        Instant now = START.plus(Duration.ofMinutes(1));
        assertThat(accepted(afterOneFailure, DeliveryMachine.Command.SUCCEEDED, now))
                .isEqualTo(new Delivery(EVENT, WEBHOOK, DeliveryStatus.DELIVERED, 2, START, Optional.empty()));
    }

    @Test
    void aSuccessOnTheLastAttemptDelivers() {
        Delivery delivery = new Delivery(EVENT, WEBHOOK, DeliveryStatus.SCHEDULED, 4, START,
                Optional.of(START.plus(Duration.ofHours(2))));
        assertThat(accepted(delivery, DeliveryMachine.Command.SUCCEEDED, START.plus(Duration.ofHours(2))))
                .isEqualTo(new Delivery(EVENT, WEBHOOK, DeliveryStatus.DELIVERED, 5, START, Optional.empty()));
    }

    @Test
    void requeuingAnExhaustedDeliveryStartsAFreshSchedule() {
        Instant reenabled = START.plus(Duration.ofDays(1));
        Delivery requeued = accepted(exhausted(), DeliveryMachine.Command.REQUEUE, reenabled);
        assertThat(requeued).isEqualTo(new Delivery(EVENT, WEBHOOK, DeliveryStatus.SCHEDULED, 0, reenabled,
                Optional.of(reenabled)));

        Delivery failedAgain = accepted(requeued, DeliveryMachine.Command.FAILED, reenabled);
        assertThat(failedAgain.nextAttemptAt()).contains(reenabled.plus(Duration.ofMinutes(1)));
    }

    @Test
    void requeuingAScheduledDeliveryIsRefused() {
        assertRefused(Delivery.schedule(EVENT, WEBHOOK, START), DeliveryMachine.Command.REQUEUE);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = DeliveryMachine.Command.class, names = {"SUCCEEDED", "FAILED"})
    void anExhaustedDeliveryOnlyAcceptsARequeue(DeliveryMachine.Command command) {
        assertRefused(exhausted(), command);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(DeliveryMachine.Command.class)
    void aDeliveredEventRefusesEverything(DeliveryMachine.Command command) {
        assertRefused(new Delivery(EVENT, WEBHOOK, DeliveryStatus.DELIVERED, 1, START, Optional.empty()), command);
    }

    @Test
    void transitionsEmitNoEvents() {
        for (DeliveryMachine.Command command : List.of(DeliveryMachine.Command.SUCCEEDED, DeliveryMachine.Command.FAILED)) {
            Result<Transition<Delivery>> result = DeliveryMachine.apply(Delivery.schedule(EVENT, WEBHOOK, START), command, START);
            assertThat(result.value().events()).as(command.name()).isEmpty();
        }
        assertThat(DeliveryMachine.apply(exhausted(), DeliveryMachine.Command.REQUEUE, START).value().events()).isEmpty();
    }

    @Test
    void aDeliveryHasANextAttemptExactlyWhileScheduled() {
        assertThatThrownBy(() -> new Delivery(EVENT, WEBHOOK, DeliveryStatus.SCHEDULED, 0, START, Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Delivery(EVENT, WEBHOOK, DeliveryStatus.DELIVERED, 1, START, Optional.of(START)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Delivery(EVENT, WEBHOOK, DeliveryStatus.EXHAUSTED, 6, START, Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static Delivery exhausted() {
        return new Delivery(EVENT, WEBHOOK, DeliveryStatus.EXHAUSTED, 5, START, Optional.empty());
    }

    private static Delivery accepted(Delivery delivery, DeliveryMachine.Command command, Instant now) {
        Result<Transition<Delivery>> result = DeliveryMachine.apply(delivery, command, now);
        assertThat(result.isOk()).as("%s x %s accepted, got %s", delivery.status(), command, result).isTrue();
        return result.value().state();
    }

    private static void assertRefused(Delivery delivery, DeliveryMachine.Command command) {
        Result<Transition<Delivery>> result = DeliveryMachine.apply(delivery, command, START.plus(Duration.ofDays(2)));
        assertThat(result).isInstanceOf(Result.Refused.class);
        assertThat(result.rejection()).isInstanceOf(Rejection.InvalidState.class);
        assertThat(result.rejection().message()).contains(EVENT.value());
    }
}
