package com.agentwallet.adapters.persistence;

import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.idempotency.RequestKey;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.payment.PayCommand;
import com.agentwallet.core.policy.PolicyRules;
import com.agentwallet.core.port.WebhookTransport;
import com.agentwallet.core.testing.Addresses;
import com.agentwallet.core.testing.CoreServices;
import com.agentwallet.core.testing.FakeLedger;
import com.agentwallet.core.testing.MutableClock;
import com.agentwallet.core.testing.Scenario.FundedWallet;
import com.agentwallet.core.webhook.Delivery;
import com.agentwallet.core.webhook.DeliveryMachine;
import com.agentwallet.core.webhook.DeliveryOutcome;
import com.agentwallet.core.webhook.DueDelivery;
import com.agentwallet.core.webhook.WebhookDispatcher;
import com.agentwallet.core.webhook.WebhookLimits;
import com.zaxxer.hikari.HikariDataSource;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Webhook delivery on PostgreSQL with several dispatchers at once, as several servers sharing one
 * database would run: every event reaches the receiver exactly once while it acknowledges, and each
 * wallet's events arrive in the order they were written.
 */
class PostgresDeliveryTest {
    private static final int DISPATCHERS = 4;

    private static HikariDataSource pool;
    private static Jdbi jdbi;

    @BeforeAll
    static void createDatabase() {
        pool = TestDatabase.fresh(DISPATCHERS + 2);
        jdbi = Postgres.jdbi(pool);
    }

    @AfterAll
    static void closeDatabase() {
        pool.close();
    }

    /** Acknowledges everything and keeps what arrived in arrival order. */
    static final class Receiver implements WebhookTransport {
        final ConcurrentLinkedQueue<Map<String, Object>> received = new ConcurrentLinkedQueue<>();

        @Override
        public DeliveryOutcome post(URI receiver, String signingSecret, Map<String, Object> body, Duration timeout) {
            received.add(body);
            return DeliveryOutcome.answered(204, 2);
        }
    }

    @Test
    void concurrentDispatchersDeliverEachEventOnceAndEachWalletInOrder() throws Exception {
        MutableClock clock = MutableClock.atTestEpoch();
        JdbiStorage storage = new JdbiStorage(jdbi, clock);
        CoreServices core = PgBooks.services(storage, new FakeLedger(), clock, 23);
        OrgId org = PgBooks.organisation(core, "10000");
        clock.advance(Duration.ofSeconds(1));
        core.webhooks.create(org, "https://hooks.example.com/in", List.of("*"), RequestKey.none());
        List<FundedWallet> wallets = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            FundedWallet wallet = PgBooks.wallet(core, org, PgBooks.policy(core, org, PolicyRules.NONE), "agent-" + i, "100");
            wallets.add(wallet);
            for (int payment = 0; payment < 3; payment++) {
                core.payments.pay(new PayCommand(org, wallet.wallet().id(), Addresses.external("payee-" + payment),
                        Usdc.parse("1"), Optional.empty(), Optional.empty(), false, Optional.of(wallet.session()),
                        Optional.empty())).value();
            }
        }
        List<String> written = jdbi.withHandle(handle -> handle.createQuery(
                "SELECT e.id FROM outbox_events e JOIN webhooks w ON w.org_id = e.org_id "
                        + "WHERE e.org_id = :org AND e.created_at >= w.created_at ORDER BY e.seq")
                .bind("org", org.value()).mapTo(String.class).list());

        Receiver receiver = new Receiver();
        ExecutorService threads = Executors.newFixedThreadPool(DISPATCHERS);
        List<Future<?>> running = new ArrayList<>();
        for (int i = 0; i < DISPATCHERS; i++) {
            WebhookDispatcher dispatcher = new WebhookDispatcher(storage, receiver, core.receivers, WebhookLimits.DEFAULTS, clock);
            running.add(threads.submit(() -> {
                for (int idle = 0; idle < 20; ) {
                    boolean progressed = dispatcher.fanOut(7) > 0;
                    while (dispatcher.deliverNext()) {
                        progressed = true;
                    }
                    idle = progressed ? 0 : idle + 1;
                }
            }));
        }
        for (Future<?> dispatcher : running) {
            dispatcher.get();
        }
        threads.shutdown();

        List<String> arrived = receiver.received.stream().map(body -> (String) body.get("id")).toList();
        assertThat(arrived).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(written);
        for (FundedWallet wallet : wallets) {
            String walletId = wallet.wallet().id().value();
            List<String> walletOrder = receiver.received.stream().filter(body -> walletId.equals(body.get("wallet_id")))
                    .map(body -> (String) body.get("id")).toList();
            assertThat(walletOrder).as("events of " + walletId).isEqualTo(written.stream()
                    .filter(walletOrder::contains).toList());
        }
    }

    /**
     * The claim, step by step on one clock: a webhook with a delivery in flight gets no other, an
     * organisation no more than its share, a lease that ran out is claimed again, and only the claim
     * that holds the lease records the outcome; a wallet's later event waits for its earlier one.
     */
    @Test
    void claimsKeepOneInFlightPerWebhookAnOrganisationsShareAndTheLeaseDecidesWhoRecords() {
        MutableClock clock = MutableClock.atTestEpoch();
        JdbiStorage storage = new JdbiStorage(jdbi, clock);
        CoreServices core = PgBooks.services(storage, new FakeLedger(), clock, 29);
        OrgId busy = PgBooks.organisation(core, "100");
        OrgId other = PgBooks.organisation(core, "100");
        clock.advance(Duration.ofSeconds(1));
        for (String host : List.of("first", "second")) {
            core.webhooks.create(busy, "https://" + host + ".example.com/in", List.of("wallet.created", "wallet.funded"),
                    RequestKey.none()).value();
        }
        core.webhooks.create(other, "https://other.example.com/in", List.of("wallet.created"), RequestKey.none()).value();
        PgBooks.wallet(core, busy, PgBooks.policy(core, busy, PolicyRules.NONE), "busy-agent", "10");
        clock.advance(Duration.ofSeconds(1));
        PgBooks.wallet(core, other, PgBooks.policy(core, other, PolicyRules.NONE), "other-agent", "0");
        new WebhookDispatcher(storage, new Receiver(), core.receivers, WebhookLimits.DEFAULTS, clock).fanOut(100);
        Duration lease = WebhookLimits.DEFAULTS.lease();

        DueDelivery first = claim(storage, clock.instant(), lease, 1).orElseThrow();
        DueDelivery second = claim(storage, clock.instant(), lease, 1).orElseThrow();
        assertThat(claim(storage, clock.instant(), lease, 1)).as("the busy organisation has its one in flight").isEmpty();
        DueDelivery third = claim(storage, clock.instant(), lease, 2).orElseThrow();
        assertThat(claim(storage, clock.instant(), lease, 3)).as("each webhook has one in flight").isEmpty();

        assertThat(first.webhook().orgId()).isEqualTo(busy);
        assertThat(second.webhook().orgId()).as("the other organisation is not held up").isEqualTo(other);
        assertThat(third.webhook().orgId()).isEqualTo(busy);
        assertThat(third.webhook().id()).isNotEqualTo(first.webhook().id());
        assertThat(third.event().id()).as("the wallet's earliest event, to the other webhook").isEqualTo(first.event().id());

        assertThat(settle(storage, DeliveryMachine.apply(third.delivery(), DeliveryMachine.Command.SUCCEEDED,
                clock.instant()).value().state(), third.lease())).isTrue();
        clock.advance(lease);
        DueDelivery again = claim(storage, clock.instant(), lease, 3).orElseThrow();
        assertThat(again.delivery()).as("the first lease ran out: the same delivery again").isEqualTo(first.delivery());
        Delivery delivered = DeliveryMachine.apply(first.delivery(), DeliveryMachine.Command.SUCCEEDED, clock.instant())
                .value().state();
        assertThat(settle(storage, delivered, first.lease())).as("the lease was taken over").isFalse();
        assertThat(settle(storage, delivered, again.lease())).isTrue();
        assertThat(settle(storage, delivered, again.lease())).as("recorded once").isFalse();

        DueDelivery next = claim(storage, clock.instant(), lease, 3).orElseThrow();
        assertThat(next.webhook().orgId()).isEqualTo(busy);
        assertThat(next.event().id()).as("the wallet's next event, now that the earlier one is delivered")
                .isNotEqualTo(first.event().id());
    }

    private static Optional<DueDelivery> claim(JdbiStorage storage, Instant now, Duration lease, int inFlight) {
        return storage.inTransaction(stores -> stores.deliveries().claim(now, lease, inFlight));
    }

    private static boolean settle(JdbiStorage storage, Delivery delivery, String lease) {
        return storage.inTransaction(stores -> stores.deliveries().settle(delivery, lease));
    }
}
