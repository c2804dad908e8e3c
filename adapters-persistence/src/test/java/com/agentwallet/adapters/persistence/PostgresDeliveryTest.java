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
import com.agentwallet.core.webhook.DeliveryOutcome;
import com.agentwallet.core.webhook.WebhookDispatcher;
import com.zaxxer.hikari.HikariDataSource;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
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
            WebhookDispatcher dispatcher = new WebhookDispatcher(storage, receiver, core.receivers, clock);
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
}
