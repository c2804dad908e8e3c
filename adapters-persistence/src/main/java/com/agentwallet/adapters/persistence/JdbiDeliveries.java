package com.agentwallet.adapters.persistence;

import com.agentwallet.core.common.WireNamed;
import com.agentwallet.core.event.EventType;
import com.agentwallet.core.id.EventId;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.WebhookId;
import com.agentwallet.core.port.DeliveryStore;
import com.agentwallet.core.webhook.Delivery;
import com.agentwallet.core.webhook.DeliveryStatus;
import com.agentwallet.core.webhook.DueDelivery;
import com.agentwallet.core.webhook.StoredEvent;
import com.agentwallet.core.webhook.UnfannedEvent;
import com.agentwallet.core.webhook.Webhook;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.Update;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Deliveries on PostgreSQL. Fan-out is one process at a time (a transaction-scoped advisory lock),
 * and it keeps a horizon (a transaction id) below which every event has been fanned out;
 * due deliveries are claimed one claim at a time under a lease (its id and end in the delivery's
 * row), so servers sharing the database never attempt the same delivery at once while the lease runs.
 */
final class JdbiDeliveries implements DeliveryStore {
    /** The advisory lock key of the fan-out: any constant no other lock of the service uses. */
    private static final long FAN_OUT_LOCK = 0x5741_4C4C_4F55_5401L;
    /** The advisory lock key of claiming a delivery. */
    private static final long CLAIM_LOCK = 0x5741_4C4C_4F55_5402L;

    private static final RowMapper<StoredEvent> EVENT = (rs, ctx) -> new StoredEvent(
            new EventId(rs.getString("event_id")), new OrgId(rs.getString("event_org_id")),
            EventType.fromWire(rs.getString("event_type")).orElseThrow(), Json.readMap(rs.getString("event_body")),
            Rows.instant(rs, "event_created_at"));

    private static final RowMapper<Delivery> DELIVERY = (rs, ctx) -> new Delivery(
            new EventId(rs.getString("delivery_event_id")), new WebhookId(rs.getString("delivery_webhook_id")),
            WireNamed.parse(DeliveryStatus.class, rs.getString("delivery_status"), "status"),
            rs.getInt("delivery_attempts"), Rows.instant(rs, "delivery_schedule_start"),
            Rows.optionalInstant(rs, "delivery_next_attempt_at"));

    private static final String EVENT_COLUMNS = "e.id AS event_id, e.org_id AS event_org_id, e.type AS event_type, "
            + "e.body::text AS event_body, e.created_at AS event_created_at";
    private static final String DELIVERY_COLUMNS = "d.event_id AS delivery_event_id, "
            + "d.webhook_id AS delivery_webhook_id, d.status AS delivery_status, d.attempts AS delivery_attempts, "
            + "d.schedule_start AS delivery_schedule_start, d.next_attempt_at AS delivery_next_attempt_at";

    private final Handle handle;
    private final Pipeline pipeline;
    /** What {@link #unfanned} read last in this unit of work. */
    private List<Candidate> candidates = List.of();

    JdbiDeliveries(Handle handle, Pipeline pipeline) {
        this.handle = handle;
        this.pipeline = pipeline;
    }

    @Override
    public boolean lockFanOut() {
        return handle.createQuery("SELECT pg_try_advisory_xact_lock(:key)").bind("key", FAN_OUT_LOCK)
                .mapTo(Boolean.class).one();
    }

    /**
     * The events from the horizon on, in the order they were numbered, up to the first one whose
     * transaction is not yet below the oldest transaction still running: an event numbered before it
     * may still be in flight, and one of the same wallet could depend on it. The horizon goes into
     * the query as a literal, so that its plan is made for it (the few events above it, through
     * their index), not for any horizon (walking every event in order); the query goes through the
     * {@link Pipeline}, whose driver parses a new text cheaply, not through Jdbi, which lexes each
     * new text in full. Only what fan-out needs is read: not the events' bodies, but a ping's webhook.
     */
    @Override
    public List<UnfannedEvent> unfanned(int limit) {
        long horizon = pipeline.one("SELECT xid::text FROM fan_out_horizon", rs -> Long.parseLong(rs.getString(1)))
                .orElseThrow();
        candidates = pipeline.list("SELECT e.id, e.org_id, e.type, e.created_at, e.seq, CASE WHEN e.type = 'ping' "
                        + "THEN e.body ->> 'webhook_id' END AS pinged, e.xid < s.xmin AS settled, s.xmin::text AS xmin "
                        + "FROM (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin) s JOIN outbox_events e "
                        + "ON e.xid >= '" + horizon + "'::xid8 ORDER BY e.seq LIMIT ?",
                rs -> new Candidate(new UnfannedEvent(new EventId(rs.getString("id")), new OrgId(rs.getString("org_id")),
                        EventType.fromWire(rs.getString("type")).orElseThrow(),
                        Rows.optionalString(rs, "pinged").map(WebhookId::new), Rows.instant(rs, "created_at")),
                        rs.getLong("seq"), rs.getBoolean("settled"), horizon, rs.getString("xmin")),
                limit);
        return candidates.stream().takeWhile(Candidate::settled).map(Candidate::event).toList();
    }

    /**
     * Moves the horizon past the events {@link #unfanned} answered, as far as the ones answered first
     * that are among {@code events}: to the oldest transaction running when they were read, or lower,
     * to the transaction of the first event left behind. An event fanned out that is still above the
     * new horizon is read again next time and scheduled again, which changes nothing.
     */
    @Override
    public void markFannedOut(Collection<EventId> events) {
        Set<EventId> marked = Set.copyOf(events);
        List<Candidate> done = candidates.stream().takeWhile(c -> c.settled() && marked.contains(c.event().id())).toList();
        if (!done.isEmpty()) {
            Candidate first = done.get(0);
            handle.createUpdate("UPDATE fan_out_horizon SET xid = least(CAST(:xmin AS xid8), (SELECT min(e.xid) "
                            + "FROM outbox_events e WHERE e.xid >= CAST(:horizon AS xid8) AND e.seq > :seq))")
                    .bind("xmin", first.xmin()).bind("horizon", Long.toString(first.horizon()))
                    .bind("seq", done.get(done.size() - 1).seq()).execute();
        }
    }

    /** An event at or above the horizon; {@code settled} when its transaction is below every one still running. */
    private record Candidate(UnfannedEvent event, long seq, boolean settled, long horizon, String xmin) {
    }

    @Override
    public List<Webhook> liveWebhooks(OrgId orgId) {
        return handle.createQuery("SELECT * FROM webhooks WHERE org_id = :org AND deleted_at IS NULL ORDER BY created_at")
                .bind("org", orgId.value()).map(JdbiWebhooks.ROW).list();
    }

    @Override
    public void schedule(Delivery delivery) {
        bind(handle.createUpdate("INSERT INTO webhook_deliveries (event_id, webhook_id, status, attempts, schedule_start, "
                        + "next_attempt_at, wallet_id, seq) SELECT :event, :webhook, :status, :attempts, :start, :next, "
                        + "e.wallet_id, e.seq FROM outbox_events e WHERE e.id = :event "
                        + "ON CONFLICT (event_id, webhook_id) DO NOTHING"), delivery).execute();
    }

    /**
     * One claim at a time over every process (a transaction-scoped advisory lock, taken before the
     * claim's query so that its snapshot sees every lease committed before): the in-flight counts the
     * query reads cannot change under it, so no webhook ever has two deliveries in flight, nor an
     * organisation more than its share. The claim is one query and one update, so the lock is held
     * for a few milliseconds, never during an attempt.
     */
    @Override
    public Optional<DueDelivery> claim(Instant now, Duration lease, int inFlightPerOrganisation) {
        handle.createQuery("SELECT pg_advisory_xact_lock(:key)").bind("key", CLAIM_LOCK).mapTo(String.class).one();
        Optional<DueDelivery> due = handle.createQuery("SELECT w.*, " + EVENT_COLUMNS + ", " + DELIVERY_COLUMNS
                        + " FROM webhook_deliveries d JOIN outbox_events e ON e.id = d.event_id "
                        + "JOIN webhooks w ON w.id = d.webhook_id "
                        + "WHERE d.status = 'scheduled' AND d.next_attempt_at <= :now "
                        + "AND w.status = 'active' AND w.deleted_at IS NULL "
                        + "AND NOT EXISTS (SELECT 1 FROM webhook_deliveries busy WHERE busy.webhook_id = d.webhook_id "
                        + "  AND busy.lease_id IS NOT NULL AND busy.lease_until > :now) "
                        + "AND (SELECT count(*) FROM webhook_deliveries flying JOIN webhooks fw ON fw.id = flying.webhook_id "
                        + "  WHERE flying.lease_id IS NOT NULL AND flying.lease_until > :now AND fw.org_id = w.org_id) "
                        + "  < :inFlight "
                        + "AND NOT EXISTS (SELECT 1 FROM webhook_deliveries earlier "
                        + "  WHERE earlier.webhook_id = d.webhook_id AND earlier.wallet_id = d.wallet_id "
                        + "  AND earlier.seq < d.seq AND earlier.status <> 'delivered') "
                        + "ORDER BY d.next_attempt_at, d.seq LIMIT 1")
                .bind("now", Rows.timestamp(now))
                .bind("inFlight", inFlightPerOrganisation)
                .map((rs, ctx) -> new DueDelivery(DELIVERY.map(rs, ctx), JdbiWebhooks.ROW.map(rs, ctx),
                        EVENT.map(rs, ctx), UUID.randomUUID().toString()))
                .findOne();
        due.ifPresent(claimed -> handle.createUpdate("UPDATE webhook_deliveries SET lease_id = :lease, "
                        + "lease_until = :until WHERE event_id = :event AND webhook_id = :webhook")
                .bind("lease", claimed.lease())
                .bind("until", Rows.timestamp(now.plus(lease)))
                .bind("event", claimed.delivery().eventId().value())
                .bind("webhook", claimed.delivery().webhookId().value())
                .execute());
        return due;
    }

    @Override
    public boolean settle(Delivery delivery, String lease) {
        return bind(handle.createUpdate("UPDATE webhook_deliveries SET status = :status, attempts = :attempts, "
                        + "schedule_start = :start, next_attempt_at = :next, lease_id = NULL, lease_until = NULL "
                        + "WHERE event_id = :event AND webhook_id = :webhook AND lease_id = :lease"), delivery)
                .bind("lease", lease).execute() == 1;
    }

    @Override
    public void update(Delivery delivery) {
        bind(handle.createUpdate("UPDATE webhook_deliveries SET status = :status, attempts = :attempts, "
                        + "schedule_start = :start, next_attempt_at = :next WHERE event_id = :event AND webhook_id = :webhook"),
                delivery).execute();
    }

    @Override
    public List<Delivery> exhausted(WebhookId webhookId) {
        return handle.createQuery("SELECT " + DELIVERY_COLUMNS + " FROM webhook_deliveries d "
                        + "WHERE d.webhook_id = :webhook AND d.status = 'exhausted'")
                .bind("webhook", webhookId.value()).map(DELIVERY).list();
    }

    private static Update bind(Update statement, Delivery delivery) {
        return statement
                .bind("event", delivery.eventId().value())
                .bind("webhook", delivery.webhookId().value())
                .bind("status", delivery.status().wireName())
                .bind("attempts", delivery.attemptsMade())
                .bind("start", Rows.timestamp(delivery.scheduleStart()))
                .bind("next", Rows.timestamp(delivery.nextAttemptAt()));
    }
}
