package com.agentwallet.adapters.persistence;

import com.agentwallet.core.common.Cursor;
import com.agentwallet.core.common.Page;
import com.agentwallet.core.common.PageRequest;
import com.agentwallet.core.event.EventType;
import com.agentwallet.core.id.EventId;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.WebhookId;
import com.agentwallet.core.port.WebhookStore;
import com.agentwallet.core.webhook.DeliveryAttempt;
import com.agentwallet.core.webhook.Subscription;
import com.agentwallet.core.webhook.Webhook;
import com.agentwallet.core.webhook.WebhookStatus;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.Query;
import org.jdbi.v3.core.statement.SqlStatement;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

final class JdbiWebhooks implements WebhookStore {
    static final RowMapper<Webhook> ROW = (rs, ctx) -> new Webhook(new WebhookId(rs.getString("id")),
            new OrgId(rs.getString("org_id")), rs.getString("url"),
            new Subscription(rs.getBoolean("all_events"), Rows.strings(rs, "events").stream()
                    .map(name -> EventType.fromWire(name).orElseThrow())
                    .collect(Collectors.toSet())),
            rs.getString("signing_secret"), WebhookStatus.fromWire(rs.getString("status"), "status"),
            Rows.instant(rs, "created_at"), Rows.instant(rs, "updated_at"));

    private static final RowMapper<DeliveryAttempt> ATTEMPT = (rs, ctx) -> new DeliveryAttempt(
            new EventId(rs.getString("event_id")), EventType.fromWire(rs.getString("type")).orElseThrow(),
            new WebhookId(rs.getString("webhook_id")), rs.getInt("attempt"), Rows.optionalInt(rs, "status_code"),
            Rows.optionalString(rs, "error"), rs.getLong("latency_ms"), Rows.instant(rs, "attempted_at"),
            Rows.optionalInstant(rs, "next_attempt_at"));

    private final Handle handle;

    JdbiWebhooks(Handle handle) {
        this.handle = handle;
    }

    @Override
    public void insert(Webhook webhook) {
        bind(handle.createUpdate("INSERT INTO webhooks (id, org_id, url, all_events, events, signing_secret, status, "
                + "created_at, updated_at) VALUES (:id, :org, :url, :all, :events, :secret, :status, :createdAt, "
                + ":updatedAt)"), webhook).execute();
    }

    @Override
    public Optional<Webhook> find(OrgId orgId, WebhookId id) {
        return one(orgId, id, "");
    }

    @Override
    public Optional<Webhook> lock(OrgId orgId, WebhookId id) {
        return one(orgId, id, " FOR NO KEY UPDATE");
    }

    @Override
    public void update(Webhook webhook) {
        bind(handle.createUpdate("UPDATE webhooks SET url = :url, all_events = :all, events = :events, status = :status, "
                + "updated_at = :updatedAt WHERE id = :id AND org_id = :org AND deleted_at IS NULL"), webhook).execute();
    }

    @Override
    public void delete(OrgId orgId, WebhookId id, Instant at) {
        handle.createUpdate("UPDATE webhooks SET deleted_at = :at WHERE id = :id AND org_id = :org AND deleted_at IS NULL")
                .bind("id", id.value()).bind("org", orgId.value()).bind("at", Rows.timestamp(at)).execute();
    }

    @Override
    public Page<Webhook> list(OrgId orgId, PageRequest page) {
        return Listing.page(handle, "webhooks", orgId.value(), "deleted_at IS NULL", q -> {
        }, page, ROW, Webhook::createdAt, w -> w.id().value());
    }

    @Override
    public void insertAttempt(DeliveryAttempt attempt) {
        handle.createUpdate("INSERT INTO delivery_attempts (event_id, webhook_id, attempt, status_code, error, latency_ms, "
                        + "attempted_at, next_attempt_at) VALUES (:event, :webhook, :attempt, :statusCode, :error, "
                        + ":latency, :attemptedAt, :nextAttemptAt)")
                .bind("event", attempt.eventId().value())
                .bind("webhook", attempt.webhookId().value())
                .bind("attempt", attempt.attempt())
                .bind("statusCode", attempt.statusCode().orElse(null))
                .bind("error", attempt.error().orElse(null))
                .bind("latency", attempt.latencyMs())
                .bind("attemptedAt", Rows.timestamp(attempt.attemptedAt()))
                .bind("nextAttemptAt", Rows.timestamp(attempt.nextAttemptAt()))
                .execute();
    }

    /**
     * Keyset pages newest first by {@code (attempted_at, event_id, attempt)}, the order of
     * {@link DeliveryAttempt#sortKey()}; the cursor's key is split back into event id and attempt.
     */
    @Override
    public Page<DeliveryAttempt> attempts(OrgId orgId, WebhookId webhookId, PageRequest page) {
        Optional<Cursor> cursor = page.cursor().map(Cursor::decode);
        Query query = handle.createQuery("SELECT a.*, e.type FROM delivery_attempts a "
                        + "JOIN webhooks w ON w.id = a.webhook_id JOIN outbox_events e ON e.id = a.event_id "
                        + "WHERE a.webhook_id = :webhook AND w.org_id = :org"
                        + (cursor.isPresent()
                        ? " AND (a.attempted_at, a.event_id, a.attempt) < (:cursorAt, :cursorEvent, :cursorAttempt)" : "")
                        + " ORDER BY a.attempted_at DESC, a.event_id DESC, a.attempt DESC LIMIT :limit")
                .bind("webhook", webhookId.value())
                .bind("org", orgId.value())
                .bind("limit", page.limit() + 1);
        cursor.ifPresent(c -> bindCursor(query, c));
        return Listing.pageOf(query.map(ATTEMPT).list(), page, DeliveryAttempt::attemptedAt, DeliveryAttempt::sortKey);
    }

    private static void bindCursor(Query query, Cursor cursor) {
        int slash = cursor.id().lastIndexOf('/');
        if (slash < 0) {
            throw Cursor.invalid();
        }
        try {
            query.bind("cursorAt", Rows.timestamp(cursor.at()))
                    .bind("cursorEvent", cursor.id().substring(0, slash))
                    .bind("cursorAttempt", Integer.parseInt(cursor.id().substring(slash + 1)));
        } catch (NumberFormatException e) {
            throw Cursor.invalid();
        }
    }

    private Optional<Webhook> one(OrgId orgId, WebhookId id, String suffix) {
        return handle.createQuery("SELECT * FROM webhooks WHERE id = :id AND org_id = :org AND deleted_at IS NULL" + suffix)
                .bind("id", id.value()).bind("org", orgId.value()).map(ROW).findOne();
    }

    private static <S extends SqlStatement<S>> S bind(S statement, Webhook webhook) {
        return statement
                .bind("id", webhook.id().value())
                .bind("org", webhook.orgId().value())
                .bind("url", webhook.url())
                .bind("all", webhook.subscription().all())
                .bindArray("events", String.class, webhook.subscription().all()
                        ? List.of() : webhook.subscription().wireNames())
                .bind("secret", webhook.signingSecret())
                .bind("status", webhook.status().wireName())
                .bind("createdAt", Rows.timestamp(webhook.createdAt()))
                .bind("updatedAt", Rows.timestamp(webhook.updatedAt()));
    }
}
