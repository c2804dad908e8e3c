package com.agentwallet.core.alert;

import com.agentwallet.core.common.Page;
import com.agentwallet.core.common.PageRequest;
import com.agentwallet.core.event.EventType;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.payment.TransactionStatus;
import com.agentwallet.core.port.Storage;
import com.agentwallet.core.port.Stores;
import com.agentwallet.core.port.TransactionStore;
import com.agentwallet.core.webhook.StoredEvent;
import com.agentwallet.core.webhook.Webhook;
import com.agentwallet.core.webhook.WebhookStatus;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * What needs someone's attention in an organisation, newest first: its {@code balance.low},
 * {@code policy.expired}, {@code transaction.blocked} and {@code escrow.disputed} events of the last
 * {@link #WINDOW} (the newest {@link #LIMIT}), its webhooks degraded now, and its payments waiting for
 * a co-signature now (the newest {@link #LIMIT}). The events are read from the outbox with the bodies
 * receivers get (docs/API.md, "Event payloads"), whose fields the descriptions quote.
 */
public final class AlertFeed {
    public static final Duration WINDOW = Duration.ofDays(7);
    public static final int LIMIT = 100;
    private static final Set<EventType> EVENTS = Set.of(EventType.BALANCE_LOW, EventType.POLICY_EXPIRED,
            EventType.TRANSACTION_BLOCKED, EventType.ESCROW_DISPUTED);
    private static final TransactionStore.Query AWAITING_CO_SIGN = new TransactionStore.Query(Optional.empty(),
            Optional.of(TransactionStatus.PENDING_CO_SIGN), Optional.empty(), Optional.empty(), Optional.empty());

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
            stores.outbox().recent(orgId, EVENTS, since, LIMIT).forEach(event -> alerts.add(ofEvent(event)));
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

    private static Alert ofEvent(StoredEvent event) {
        Map<String, Object> body = event.body();
        return switch (event.type()) {
            case BALANCE_LOW -> new Alert(AlertKind.BALANCE_LOW, event.createdAt(), "Wallet " + wallet(body)
                    + " fell to " + field(body, "current_balance") + " USDC, below " + field(body, "threshold")
                    + " USDC", field(body, "wallet_id"));
            case POLICY_EXPIRED -> new Alert(AlertKind.POLICY_EXPIRED, event.createdAt(), "Policy "
                    + field(body, "policy_id") + " of wallet " + wallet(body) + " expired; the wallet is frozen",
                    field(body, "policy_id"));
            case TRANSACTION_BLOCKED -> new Alert(AlertKind.TRANSACTION_BLOCKED, event.createdAt(), "Payment of "
                    + field(body, "attempted_amount") + " USDC from wallet " + field(body, "wallet_id") + " to "
                    + field(body, "recipient") + " blocked by the rule " + rule(body), field(body, "tx_id"));
            case ESCROW_DISPUTED -> new Alert(AlertKind.ESCROW_DISPUTED, event.createdAt(), "Escrow of "
                    + field(body, "amount") + " USDC from wallet " + field(body, "from_wallet") + " to "
                    + field(body, "recipient") + " disputed: " + field(body, "reason"), field(body, "escrow_id"));
            default -> throw new IllegalStateException("not an alert: " + event.type().wireName());
        };
    }

    private static String wallet(Map<String, Object> body) {
        return field(body, "agent_id") + " (" + field(body, "wallet_id") + ")";
    }

    private static String rule(Map<String, Object> body) {
        Object violation = body.get("violation");
        if (!(violation instanceof Map<?, ?> fields)) {
            throw new IllegalStateException("a transaction.blocked body without its violation: " + body);
        }
        return String.valueOf(fields.get("rule"));
    }

    private static String field(Map<String, Object> body, String name) {
        Object value = body.get(name);
        if (value == null) {
            throw new IllegalStateException("an event body without its '" + name + "': " + body);
        }
        return value.toString();
    }
}
