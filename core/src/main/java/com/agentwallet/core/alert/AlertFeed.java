package com.agentwallet.core.alert;

import com.agentwallet.core.common.Page;
import com.agentwallet.core.common.PageRequest;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.payment.TransactionStatus;
import com.agentwallet.core.port.Storage;
import com.agentwallet.core.port.Stores;
import com.agentwallet.core.port.TransactionStore;
import com.agentwallet.core.webhook.Webhook;
import com.agentwallet.core.webhook.WebhookStatus;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * What needs someone's attention in an organisation, newest first: its {@code balance.low},
 * {@code policy.expired}, {@code transaction.blocked} and {@code escrow.disputed} events of the last
 * {@link #WINDOW} (the newest {@link #LIMIT}), its webhooks degraded now, and its payments waiting for
 * a co-signature now (the newest {@link #LIMIT}).
 */
public final class AlertFeed {
    public static final Duration WINDOW = Duration.ofDays(7);
    public static final int LIMIT = 100;
    private static final TransactionStore.Query AWAITING_CO_SIGN = TransactionStore.Query.ofStatus(TransactionStatus.PENDING_CO_SIGN);

    private final Storage storage;
    private final Clock clock;

    public AlertFeed(Storage storage, Clock clock) {
        this.storage = requireNonNull(storage, "storage is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    public List<Alert> recent(OrgId orgId) {
        Instant since = clock.instant().minus(WINDOW);
        return storage.inTransaction(stores -> {
            List<Alert> alerts = new ArrayList<>();
            stores.outbox().recentAlerts(orgId, since, LIMIT).forEach(event -> alerts.add(event.alert()));
            degradedWebhooks(stores, orgId).forEach(webhook -> alerts.add(new Alert(AlertKind.WEBHOOK_DEGRADED,
                    webhook.updatedAt(), "Webhook to " + webhook.url() + " is degraded: its deliveries kept failing",
                    webhook.id().value())));
            stores.transactions().list(orgId, AWAITING_CO_SIGN, PageRequest.first(LIMIT)).data()
                    .forEach(tx -> alerts.add(awaitingCoSign(tx)));
            alerts.sort(Comparator.comparing(Alert::at).reversed());
            return List.copyOf(alerts);
        });
    }

    private static List<Webhook> degradedWebhooks(Stores stores, OrgId orgId) {
        List<Webhook> degraded = new ArrayList<>();
        PageRequest request = PageRequest.first(PageRequest.MAX_LIMIT);
        while (true) {
            Page<Webhook> page = stores.webhooks().list(orgId, request);
            page.data().stream().filter(webhook -> webhook.status() == WebhookStatus.DEGRADED).forEach(degraded::add);
            if (!page.hasMore()) {
                return degraded;
            }
            request = new PageRequest(PageRequest.MAX_LIMIT, page.nextCursor());
        }
    }

    private static Alert awaitingCoSign(Transaction tx) {
        return new Alert(AlertKind.CO_SIGN_AWAITED, tx.updatedAt(), "Payment of " + tx.amount() + " USDC from wallet "
                + tx.walletId().value() + " to " + tx.recipient() + " awaits a co-signature", tx.id().value());
    }
}
