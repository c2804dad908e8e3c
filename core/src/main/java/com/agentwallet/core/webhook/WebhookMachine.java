package com.agentwallet.core.webhook;

import com.agentwallet.core.common.Result;
import com.agentwallet.core.common.Transition;

import java.time.Instant;

/** The webhook endpoint's state machine: degraded when an event exhausts its attempts, active again when re-enabled. */
public final class WebhookMachine {

    public enum Command {
        /** One event failed its last attempt. */
        EVENT_EXHAUSTED,
        /** A user re-enabled the webhook. */
        REENABLE
    }

    private WebhookMachine() {
    }

    public static Result<Transition<Webhook>> apply(Webhook webhook, Command command, Instant now) {
        WebhookStatus target = command == Command.EVENT_EXHAUSTED ? WebhookStatus.DEGRADED : WebhookStatus.ACTIVE;
        if (webhook.status() == target) {
            return Transition.refuse("Webhook " + webhook.id() + " is already " + target.wireName());
        }
        return Transition.to(webhook.withStatus(target, now));
    }
}
