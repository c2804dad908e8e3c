package com.agentwallet.core.webhook;

import com.agentwallet.core.common.Page;
import com.agentwallet.core.common.PageRequest;
import com.agentwallet.core.common.Rejection;
import com.agentwallet.core.common.Result;
import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.event.DomainEvent;
import com.agentwallet.core.event.EventType;
import com.agentwallet.core.event.OutboxEvent;
import com.agentwallet.core.id.EventId;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.WebhookId;
import com.agentwallet.core.idempotency.RequestKey;
import com.agentwallet.core.testing.CoreFixture;
import com.agentwallet.core.testing.Outbox;
import com.agentwallet.core.testing.Scenario;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WebhookServiceTest {
    private static final String URL = "https://hooks.example.com/agent-wallet";
    private static final List<String> PAYMENTS = List.of("transaction.completed", "transaction.blocked");

    private final CoreFixture core = new CoreFixture();
    private final Scenario given = new Scenario(core);
    private final Outbox outbox = new Outbox(core);
    private OrgId org;

    @BeforeEach
    void anOrganisation() {
        org = given.organisation("100.00");
    }

    @Nested
    class Create {
        @Test
        void registersAnActiveWebhookWithItsOwnSigningSecret() {
            Webhook webhook = core.webhooks.create(org, URL, PAYMENTS, RequestKey.none()).value();
            Webhook another = core.webhooks.create(org, URL, PAYMENTS, RequestKey.none()).value();

            assertThat(webhook.status()).isEqualTo(WebhookStatus.ACTIVE);
            assertThat(webhook.url()).isEqualTo(URL);
            assertThat(webhook.subscription().wireNames()).containsExactly("transaction.completed", "transaction.blocked");
            assertThat(webhook.signingSecret()).matches("whsec_[0-9A-Za-z]{48}");
            assertThat(another.signingSecret()).isNotEqualTo(webhook.signingSecret());
            assertThat(webhook.createdAt()).isEqualTo(core.clock.instant()).isEqualTo(webhook.updatedAt());
            assertThat(core.webhooks.get(org, webhook.id()).value()).isEqualTo(webhook);
        }

        @Test
        void aStarSubscribesToEveryEvent() {
            Webhook webhook = core.webhooks.create(org, URL, List.of("transaction.completed", "*"), RequestKey.none()).value();

            assertThat(webhook.subscription().all()).isTrue();
            assertThat(webhook.subscription().wireNames()).containsExactly("*");
        }

        @Test
        void anUnknownEventANonHttpsUrlOrARefusedReceiverStoreNothing() {
            core.receivers.refuse("10.0.0.7");

            assertThatThrownBy(() -> core.webhooks.create(org, URL, List.of("wallet.exploded"), RequestKey.none()))
                    .isInstanceOf(ValidationException.class).extracting("param").isEqualTo("events");
            assertThatThrownBy(() -> core.webhooks.create(org, "http://hooks.example.com/", PAYMENTS, RequestKey.none()))
                    .isInstanceOf(ValidationException.class).extracting("param").isEqualTo("url");
            assertThatThrownBy(() -> core.webhooks.create(org, "https://10.0.0.7/hook", PAYMENTS, RequestKey.none()))
                    .isInstanceOf(ValidationException.class).extracting("param").isEqualTo("url");
            assertThat(core.webhooks.list(org, PageRequest.firstDefault()).data()).isEmpty();
        }
    }

    @Nested
    class Read {
        @Test
        void listsTheOrganisationsWebhooksNewestFirst() {
            Webhook older = core.webhooks.create(org, URL, PAYMENTS, RequestKey.none()).value();
            core.clock.advance(Duration.ofSeconds(1));
            Webhook newer = core.webhooks.create(org, URL, List.of("*"), RequestKey.none()).value();
            OrgId otherOrg = given.organisation("1.00");
            core.webhooks.create(otherOrg, URL, PAYMENTS, RequestKey.none());

            Page<Webhook> page = core.webhooks.list(org, PageRequest.firstDefault());

            assertThat(page.data()).containsExactly(newer, older);
        }

        @Test
        void anotherOrganisationsWebhookIsNotFoundByAnyUseCase() {
            Webhook webhook = core.webhooks.create(org, URL, PAYMENTS, RequestKey.none()).value();
            OrgId otherOrg = given.organisation("1.00");
            Rejection notFound = new Rejection.NotFound("webhook", webhook.id().value());

            assertThat(core.webhooks.get(otherOrg, webhook.id()).rejection()).isEqualTo(notFound);
            assertThat(core.webhooks.update(otherOrg, webhook.id(), Optional.of(URL), Optional.empty(),
                    Optional.empty()).rejection()).isEqualTo(notFound);
            assertThat(core.webhooks.delete(otherOrg, webhook.id()).rejection()).isEqualTo(notFound);
            assertThat(core.webhooks.test(otherOrg, webhook.id()).rejection()).isEqualTo(notFound);
            assertThat(core.webhooks.deliveries(otherOrg, webhook.id(), PageRequest.firstDefault()).rejection())
                    .isEqualTo(notFound);
            assertThat(core.webhooks.get(org, webhook.id()).value()).isEqualTo(webhook);
            assertThat(outbox.ofType(EventType.PING)).isEmpty();
        }
    }

    @Nested
    class Update {
        @Test
        void changesTheUrlAndTheEvents() {
            Webhook webhook = core.webhooks.create(org, URL, PAYMENTS, RequestKey.none()).value();
            core.clock.advance(Duration.ofMinutes(1));

            Webhook changed = update(webhook.id(), Optional.of("https://new.example.com/in"),
                    Optional.of(List.of("balance.low")), Optional.empty()).value();

            assertThat(changed.url()).isEqualTo("https://new.example.com/in");
            assertThat(changed.subscription().wireNames()).containsExactly("balance.low");
            assertThat(changed.signingSecret()).isEqualTo(webhook.signingSecret());
            assertThat(changed.updatedAt()).isEqualTo(core.clock.instant());
            assertThat(core.webhooks.get(org, webhook.id()).value()).isEqualTo(changed);
        }

        @Test
        void settingActiveReenablesADegradedWebhook() {
            Webhook webhook = degraded(core.webhooks.create(org, URL, PAYMENTS, RequestKey.none()).value());
            core.clock.advance(Duration.ofMinutes(1));

            Webhook reenabled = update(webhook.id(), Optional.empty(), Optional.empty(),
                    Optional.of(WebhookStatus.ACTIVE)).value();

            assertThat(reenabled.status()).isEqualTo(WebhookStatus.ACTIVE);
            assertThat(reenabled.updatedAt()).isEqualTo(core.clock.instant());
            assertThat(core.webhooks.get(org, webhook.id()).value()).isEqualTo(reenabled);
        }

        @Test
        void settingActiveOnAnActiveWebhookSucceedsAndChangesNothing() {
            Webhook webhook = core.webhooks.create(org, URL, PAYMENTS, RequestKey.none()).value();
            core.clock.advance(Duration.ofMinutes(1));

            Webhook same = update(webhook.id(), Optional.of(URL), Optional.of(PAYMENTS),
                    Optional.of(WebhookStatus.ACTIVE)).value();

            assertThat(same).isEqualTo(webhook);
            assertThat(core.webhooks.get(org, webhook.id()).value()).isEqualTo(webhook);
        }

        @Test
        void settingDegradedByHandIsInvalidInput() {
            Webhook webhook = core.webhooks.create(org, URL, PAYMENTS, RequestKey.none()).value();

            Rejection refused = update(webhook.id(), Optional.empty(), Optional.empty(),
                    Optional.of(WebhookStatus.DEGRADED)).rejection();

            assertThat(refused).isInstanceOfSatisfying(Rejection.InvalidInput.class,
                    invalid -> assertThat(invalid.param()).isEqualTo("status"));
            assertThat(refused).isInstanceOf(Rejection.InvalidInput.class);
            assertThat(core.webhooks.get(org, webhook.id()).value()).isEqualTo(webhook);
        }

        @Test
        void aNewUrlIsCheckedLikeANewWebhooks() {
            Webhook webhook = core.webhooks.create(org, URL, PAYMENTS, RequestKey.none()).value();
            core.receivers.refuse("localhost");

            assertThatThrownBy(() -> update(webhook.id(), Optional.of("https://localhost/hook"), Optional.empty(),
                    Optional.empty())).isInstanceOf(ValidationException.class).extracting("param").isEqualTo("url");
            assertThatThrownBy(() -> update(webhook.id(), Optional.empty(), Optional.of(List.of()), Optional.empty()))
                    .isInstanceOf(ValidationException.class).extracting("param").isEqualTo("events");
            assertThat(core.webhooks.get(org, webhook.id()).value()).isEqualTo(webhook);
        }
    }

    @Nested
    class Delete {
        @Test
        void aDeletedWebhookIsNotFoundAnyMore() {
            Webhook webhook = core.webhooks.create(org, URL, PAYMENTS, RequestKey.none()).value();

            assertThat(core.webhooks.delete(org, webhook.id()).value()).isEqualTo(webhook);

            Rejection notFound = new Rejection.NotFound("webhook", webhook.id().value());
            assertThat(core.webhooks.get(org, webhook.id()).rejection()).isEqualTo(notFound);
            assertThat(core.webhooks.delete(org, webhook.id()).rejection()).isEqualTo(notFound);
            assertThat(core.webhooks.test(org, webhook.id()).rejection()).isEqualTo(notFound);
            assertThat(core.webhooks.list(org, PageRequest.firstDefault()).data()).isEmpty();
        }
    }

    @Nested
    class TestEvent {
        @Test
        void writesAPingForTheWebhookWhateverItSubscribesTo() {
            Webhook webhook = core.webhooks.create(org, URL, List.of("balance.low"), RequestKey.none()).value();

            EventId id = core.webhooks.test(org, webhook.id()).value();

            OutboxEvent ping = outbox.single(EventType.PING);
            assertThat(ping.id()).isEqualTo(id);
            assertThat(ping.event().orgId()).isEqualTo(org);
            assertThat(ping.event()).isEqualTo(new DomainEvent.Ping(org, webhook.id(), core.clock.instant()));
        }
    }

    @Nested
    class Deliveries {
        @Test
        void listsTheWebhooksAttemptsNewestFirst() {
            Webhook webhook = core.webhooks.create(org, URL, PAYMENTS, RequestKey.none()).value();
            EventId ping = core.webhooks.test(org, webhook.id()).value();
            DeliveryAttempt failed = attempt(ping, webhook.id(), 1, Optional.of(503));
            core.clock.advance(Duration.ofMinutes(1));
            DeliveryAttempt delivered = attempt(ping, webhook.id(), 2, Optional.of(200));

            Page<DeliveryAttempt> page = core.webhooks.deliveries(org, webhook.id(), PageRequest.firstDefault()).value();

            assertThat(page.data()).containsExactly(delivered, failed);
        }

        @Test
        void anUnknownWebhookIsNotFound() {
            WebhookId unknown = core.ids.webhook();

            assertThat(core.webhooks.deliveries(org, unknown, PageRequest.firstDefault()).rejection())
                    .isEqualTo(new Rejection.NotFound("webhook", unknown.value()));
        }

        private DeliveryAttempt attempt(EventId event, WebhookId webhookId, int number, Optional<Integer> status) {
            DeliveryAttempt attempt = new DeliveryAttempt(event, EventType.PING, webhookId, number, status,
                    Optional.empty(), 40, core.clock.instant(), Optional.empty());
            core.storage.inTransaction(stores -> {
                stores.webhooks().insertAttempt(attempt);
                return attempt;
            });
            return attempt;
        }
    }

    private Result<Webhook> update(WebhookId id, Optional<String> url, Optional<Collection<String>> events,
                                   Optional<WebhookStatus> status) {
        return core.webhooks.update(org, id, url, events, status);
    }

    /** The webhook as the dispatcher leaves it when an event exhausts its attempts. */
    private Webhook degraded(Webhook webhook) {
        Webhook degraded = WebhookMachine.apply(webhook, WebhookMachine.Command.EVENT_EXHAUSTED, core.clock.instant())
                .value().state();
        core.storage.inTransaction(stores -> {
            stores.webhooks().update(degraded);
            return degraded;
        });
        return degraded;
    }
}
