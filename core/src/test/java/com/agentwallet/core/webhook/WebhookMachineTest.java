package com.agentwallet.core.webhook;

import com.agentwallet.core.common.Rejection;
import com.agentwallet.core.common.Result;
import com.agentwallet.core.common.Transition;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.WebhookId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class WebhookMachineTest {
    private static final Instant CREATED = Instant.parse("2026-03-01T00:00:00Z");
    private static final Instant NOW = Instant.parse("2026-04-01T12:00:00Z");
    private static final WebhookId WEBHOOK = new WebhookId("wh_HHHHHHHHHHHHHHHHHHHHHHHH");

    @ParameterizedTest(name = "{0} x {1} -> {2}")
    @CsvSource({
            "ACTIVE, EVENT_EXHAUSTED, DEGRADED",
            "DEGRADED, REENABLE, ACTIVE",
    })
    void legalCommandsMoveTheWebhookWithoutEvents(WebhookStatus from, WebhookMachine.Command command, WebhookStatus to) {
        Webhook webhook = webhook(from);
        Result<Transition<Webhook>> result = WebhookMachine.apply(webhook, command, NOW);
        assertThat(result.isOk()).isTrue();
        assertThat(result.value().state()).isEqualTo(webhook.withStatus(to, NOW));
        assertThat(result.value().state().updatedAt()).isEqualTo(NOW);
        assertThat(result.value().events()).isEmpty();
    }

    @ParameterizedTest(name = "{0} x {1} is refused")
    @CsvSource({
            "ACTIVE, REENABLE",
            "DEGRADED, EVENT_EXHAUSTED",
    })
    void commandsThatWouldChangeNothingAreRefused(WebhookStatus from, WebhookMachine.Command command) {
        Result<Transition<Webhook>> result = WebhookMachine.apply(webhook(from), command, NOW);
        assertThat(result).isInstanceOf(Result.Refused.class);
        assertThat(result.rejection()).isInstanceOf(Rejection.InvalidState.class);
        assertThat(result.rejection().message()).contains(WEBHOOK.value());
    }

    @Test
    void everyPairIsEitherOneOfTheTwoMovesOrARefusal() {
        for (WebhookStatus status : WebhookStatus.values()) {
            for (WebhookMachine.Command command : WebhookMachine.Command.values()) {
                boolean move = status == WebhookStatus.ACTIVE && command == WebhookMachine.Command.EVENT_EXHAUSTED
                        || status == WebhookStatus.DEGRADED && command == WebhookMachine.Command.REENABLE;
                assertThat(WebhookMachine.apply(webhook(status), command, NOW).isOk()).as("%s x %s", status, command)
                        .isEqualTo(move);
            }
        }
    }

    private static Webhook webhook(WebhookStatus status) {
        return new Webhook(WEBHOOK, new OrgId("org_OOOOOOOOOOOOOOOOOOOOOOOO"), "https://hooks.example.com/agent-wallet",
                Subscription.parse(List.of("*")), "whsec_secret", status, CREATED, CREATED);
    }
}
