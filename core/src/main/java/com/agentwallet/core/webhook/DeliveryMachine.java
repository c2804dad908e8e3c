package com.agentwallet.core.webhook;

import com.agentwallet.core.common.Result;
import com.agentwallet.core.common.Transition;

import java.time.Instant;
import java.util.Optional;

/**
 * The delivery state machine. A failed attempt schedules the next one on the fixed schedule (never
 * earlier than now); the fifth failure exhausts the delivery, which degrades its webhook. Re-enabling
 * the webhook requeues exhausted deliveries with a fresh schedule.
 */
public final class DeliveryMachine {

    public enum Command {
        SUCCEEDED, FAILED, REQUEUE
    }

    private DeliveryMachine() {
    }

    public static Result<Transition<Delivery>> apply(Delivery delivery, Command command, Instant now) {
        return switch (delivery.status()) {
            case SCHEDULED -> scheduled(delivery, command, now);
            case EXHAUSTED -> command == Command.REQUEUE
                    ? Transition.to(new Delivery(delivery.eventId(), delivery.webhookId(), DeliveryStatus.SCHEDULED, 0,
                    now, Optional.of(now)))
                    : Transition.refuse("Delivery of " + delivery.eventId() + " is exhausted; re-enable the webhook");
            case DELIVERED -> Transition.refuse("Event " + delivery.eventId() + " is already delivered");
        };
    }

    private static Result<Transition<Delivery>> scheduled(Delivery delivery, Command command, Instant now) {
        int attempts = delivery.attemptsMade() + 1;
        if (command == Command.SUCCEEDED) {
            return Transition.to(new Delivery(delivery.eventId(), delivery.webhookId(), DeliveryStatus.DELIVERED,
                    attempts, delivery.scheduleStart(), Optional.empty()));
        }
        if (command == Command.REQUEUE) {
            return Transition.refuse("Delivery of " + delivery.eventId() + " is already scheduled");
        }
        if (attempts >= RetrySchedule.MAX_ATTEMPTS) {
            return Transition.to(new Delivery(delivery.eventId(), delivery.webhookId(), DeliveryStatus.EXHAUSTED,
                    attempts, delivery.scheduleStart(), Optional.empty()));
        }
        Instant due = RetrySchedule.attemptDue(delivery.scheduleStart(), attempts + 1);
        return Transition.to(new Delivery(delivery.eventId(), delivery.webhookId(), DeliveryStatus.SCHEDULED,
                attempts, delivery.scheduleStart(), Optional.of(due.isAfter(now) ? due : now)));
    }
}
