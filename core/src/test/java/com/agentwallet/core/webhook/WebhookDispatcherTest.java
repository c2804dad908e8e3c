package com.agentwallet.core.webhook;

import com.agentwallet.core.common.PageRequest;
import com.agentwallet.core.common.Rejection;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.idempotency.RequestKey;
import com.agentwallet.core.policy.PolicyRules;
import com.agentwallet.core.port.ServiceMetrics.DeliveryResult;
import com.agentwallet.core.port.WebhookTransport;
import com.agentwallet.core.testing.CoreFixture;
import com.agentwallet.core.testing.CountingMetrics;
import com.agentwallet.core.testing.Scenario.FundedWallet;
import com.agentwallet.core.testing.Scenario;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

class WebhookDispatcherTest {
    private static final String URL = "https://hooks.example.com/agent-wallet";
    private static final String OTHER_URL = "https://hooks.example.org/other-organisation";
    private static final String PAYEE = "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV";

    private final CoreFixture core = new CoreFixture();
    private final Scenario given = new Scenario(core);
    private final RecordingTransport transport = new RecordingTransport();
    private final CountingMetrics metrics = new CountingMetrics();
    private final WebhookDispatcher dispatcher = new WebhookDispatcher(core.storage, transport, core.receivers,
            WebhookLimits.DEFAULTS, core.clock, metrics);
    private OrgId org;

    /** A receiver that answers with the statuses it is given (then 200) and remembers what it got. */
    static final class RecordingTransport implements WebhookTransport {
        final List<Map<String, Object>> received = new ArrayList<>();
        final List<URI> receivers = new ArrayList<>();
        final Deque<Integer> answers = new ArrayDeque<>();
        /** Run once, inside the next POST: what other workers do while it is in flight. */
        Runnable whileInFlight = () -> {
        };

        @Override
        public DeliveryOutcome post(URI receiver, String signingSecret, Map<String, Object> body, Duration timeout) {
            received.add(body);
            receivers.add(receiver);
            Runnable meanwhile = whileInFlight;
            whileInFlight = () -> {
            };
            meanwhile.run();
            Integer status = answers.isEmpty() ? 200 : answers.pop();
            return DeliveryOutcome.answered(status, 3);
        }

        List<String> events() {
            return received.stream().map(body -> (String) body.get("event")).toList();
        }
    }

    /** The organisation's own deposit event is older than every webhook of the test, so no webhook gets it. */
    @BeforeEach
    void anOrganisation() {
        org = given.organisation("1000.00");
        core.clock.advance(Duration.ofSeconds(1));
    }

    @Test
    void eachEventGoesOnceToEveryWebhookSubscribedToIt() {
        core.webhooks.create(org, URL, List.of("wallet.funded"), RequestKey.none());
        core.webhooks.create(org, URL, List.of("wallet.created"), RequestKey.none());
        given.wallet(org, given.policy(org, PolicyRules.NONE), "agent-1", "10");

        dispatcher.fanOut(100);
        drain();
        dispatcher.fanOut(100);

        assertThat(transport.events()).containsExactlyInAnyOrder("wallet.created", "wallet.funded");
        assertThat(drain()).isZero();
    }

    @Test
    void aPingGoesOnlyToTheWebhookItTests() {
        Webhook tested = core.webhooks.create(org, URL, List.of("wallet.funded"), RequestKey.none()).value();
        core.webhooks.create(org, URL, List.of("*"), RequestKey.none());

        String eventId = core.webhooks.test(org, tested.id()).value().value();
        dispatcher.fanOut(100);
        drain();

        assertThat(transport.received).singleElement()
                .satisfies(body -> assertThat(body).containsEntry("event", "ping").containsEntry("id", eventId));
    }

    @Test
    void aFailedAttemptIsRetriedOnTheScheduleAndTheFifthFailureDegradesTheWebhook() {
        Webhook webhook = core.webhooks.create(org, URL, List.of("wallet.created"), RequestKey.none()).value();
        given.wallet(org, given.policy(org, PolicyRules.NONE), "agent-1", "0");
        transport.answers.addAll(List.of(500, 500, 500, 500, 500));
        dispatcher.fanOut(100);

        List<Integer> attemptsAfter = new ArrayList<>();
        for (Duration wait : List.of(Duration.ZERO, Duration.ofSeconds(59), Duration.ofSeconds(1), Duration.ofMinutes(4),
                Duration.ofMinutes(25), Duration.ofMinutes(90))) {
            core.clock.advance(wait);
            drain();
            attemptsAfter.add(transport.received.size());
        }

        assertThat(attemptsAfter).containsExactly(1, 1, 2, 3, 4, 5);
        assertThat(core.webhooks.get(org, webhook.id()).value().status()).isEqualTo(WebhookStatus.DEGRADED);
        List<DeliveryAttempt> log = core.webhooks.deliveries(org, webhook.id(),
                PageRequest.first(10)).value().data();
        assertThat(log).hasSize(5);
        assertThat(log.get(0).attempt()).isEqualTo(5);
        assertThat(log.get(0).nextAttemptAt()).isEmpty();
        assertThat(log.get(4).nextAttemptAt()).contains(log.get(4).attemptedAt().plus(Duration.ofMinutes(1)));
        assertThat(metrics.deliveries).containsExactly(DeliveryResult.FAILED_ATTEMPT, DeliveryResult.FAILED_ATTEMPT,
                DeliveryResult.FAILED_ATTEMPT, DeliveryResult.FAILED_ATTEMPT, DeliveryResult.GAVE_UP);
    }

    @Test
    void aDegradedWebhookIsPausedAndReEnablingDeliversWhatWaited() {
        Webhook webhook = core.webhooks.create(org, URL, List.of("wallet.created", "wallet.funded"), RequestKey.none()).value();
        given.wallet(org, given.policy(org, PolicyRules.NONE), "agent-1", "0");
        transport.answers.addAll(List.of(500, 500, 500, 500, 500));
        dispatcher.fanOut(100);
        for (int i = 0; i < 5; i++) {
            drain();
            core.clock.advance(Duration.ofHours(2));
        }
        given.wallet(org, given.policy(org, PolicyRules.NONE), "agent-2", "0");
        dispatcher.fanOut(100);
        int whileDegraded = drain();

        core.webhooks.update(org, webhook.id(), Optional.empty(), Optional.empty(),
                Optional.of(WebhookStatus.ACTIVE)).value();
        int afterReEnabling = drain();

        assertThat(whileDegraded).isZero();
        assertThat(afterReEnabling).isEqualTo(2);
        assertThat(transport.events().subList(5, 7)).containsExactly("wallet.created", "wallet.created");
    }

    @Test
    void eventsOfOneWalletWaitForTheEarlierOnesToBeDelivered() {
        core.webhooks.create(org, URL, List.of("*"), RequestKey.none());
        FundedWallet wallet = given.wallet(org, given.policy(org, PolicyRules.NONE), "agent-1", "100");
        given.pay(wallet, PAYEE, "5").value();
        transport.answers.add(503);
        dispatcher.fanOut(100);

        int firstRound = drain();
        core.clock.advance(Duration.ofMinutes(1));
        drain();

        assertThat(firstRound).isEqualTo(1);
        Set<String> ofTheWallet = core.storage.outbox().stream()
                .filter(event -> event.event().walletId().equals(Optional.of(wallet.wallet().id())))
                .map(event -> event.id().value()).collect(Collectors.toSet());
        List<String> walletEvents = transport.received.stream().map(body -> (String) body.get("id"))
                .filter(ofTheWallet::contains).toList();
        assertThat(walletEvents.get(0)).isEqualTo(walletEvents.get(1));
        assertThat(walletEvents.subList(1, walletEvents.size())).doesNotHaveDuplicates();
    }

    @Test
    void aReceiverThatBecameAPrivateAddressIsAFailedAttemptWithoutAPost() {
        Webhook webhook = core.webhooks.create(org, URL, List.of("wallet.created"), RequestKey.none()).value();
        given.wallet(org, given.policy(org, PolicyRules.NONE), "agent-1", "0");
        core.receivers.refuse("hooks.example.com");
        dispatcher.fanOut(100);

        drain();

        assertThat(transport.received).isEmpty();
        DeliveryAttempt attempt = core.webhooks.deliveries(org, webhook.id(),
                PageRequest.first(10)).value().data().get(0);
        assertThat(attempt.statusCode()).isEmpty();
        assertThat(attempt.error()).isPresent();
    }

    @Test
    void whileADeliveryIsInFlightItsWebhookGetsNoOtherButAnotherOrganisationsDoes() {
        OrgId other = given.organisation("1000.00");
        core.clock.advance(Duration.ofSeconds(1));
        core.webhooks.create(org, URL, List.of("wallet.created"), RequestKey.none());
        core.webhooks.create(other, OTHER_URL, List.of("wallet.created"), RequestKey.none());
        given.wallet(org, given.policy(org, PolicyRules.NONE), "agent-1", "0");
        given.wallet(org, given.policy(org, PolicyRules.NONE), "agent-2", "0");
        given.wallet(other, given.policy(other, PolicyRules.NONE), "agent-3", "0");
        dispatcher.fanOut(100);
        List<Boolean> claimedMeanwhile = new ArrayList<>();
        transport.whileInFlight = () -> {
            claimedMeanwhile.add(dispatcher.deliverNext());
            claimedMeanwhile.add(dispatcher.deliverNext());
        };

        dispatcher.deliverNext();

        assertThat(claimedMeanwhile).as("the other organisation's event, then nothing of the busy webhook")
                .containsExactly(true, false);
        assertThat(transport.receivers).containsExactly(URI.create(URL), URI.create(OTHER_URL));
        assertThat(drain()).isEqualTo(1);
    }

    @Test
    void aLeaseThatRanOutLetsAnotherWorkerRetryAndOnlyItsAttemptIsRecorded() {
        Webhook webhook = core.webhooks.create(org, URL, List.of("wallet.created"), RequestKey.none()).value();
        given.wallet(org, given.policy(org, PolicyRules.NONE), "agent-1", "0");
        dispatcher.fanOut(100);
        List<Boolean> claimedMeanwhile = new ArrayList<>();
        transport.whileInFlight = () -> {
            claimedMeanwhile.add(dispatcher.deliverNext());
            core.clock.advance(WebhookLimits.DEFAULTS.lease());
            claimedMeanwhile.add(dispatcher.deliverNext());
        };

        dispatcher.deliverNext();

        assertThat(claimedMeanwhile).as("nothing while the lease runs, the same delivery once it ran out")
                .containsExactly(false, true);
        assertThat(transport.received).hasSize(2);
        assertThat(transport.received.get(1).get("id")).isEqualTo(transport.received.get(0).get("id"));
        assertThat(core.webhooks.deliveries(org, webhook.id(), PageRequest.first(10)).value().data())
                .as("recorded once, by the claim that took the delivery over").singleElement()
                .satisfies(attempt -> assertThat(attempt.statusCode()).contains(200));
        assertThat(metrics.deliveries).as("the claim taken over counts its attempt as superseded")
                .containsExactly(DeliveryResult.DELIVERED, DeliveryResult.SUPERSEDED);
        assertThat(drain()).isZero();
    }

    @Test
    void anOrganisationGetsNoMoreWebhooksThanItsLimitUntilItDeletesOne() {
        List<Webhook> made = new ArrayList<>();
        for (int i = 0; i < WebhookLimits.DEFAULTS.perOrganisation(); i++) {
            made.add(core.webhooks.create(org, URL, List.of("*"), RequestKey.none()).value());
        }

        assertThat(core.webhooks.create(org, URL, List.of("*"), RequestKey.none()).rejection())
                .isInstanceOf(Rejection.InvalidState.class);
        core.webhooks.delete(org, made.get(0).id()).value();
        assertThat(core.webhooks.create(org, URL, List.of("*"), RequestKey.none()).isOk()).isTrue();
    }

    private int drain() {
        int attempts = 0;
        while (dispatcher.deliverNext()) {
            attempts++;
        }
        return attempts;
    }
}
