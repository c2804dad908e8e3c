package com.agentwallet.adapters.persistence;

import com.agentwallet.core.alert.AlertingEvent;
import com.agentwallet.core.event.EventType;
import com.agentwallet.core.event.OutboxEvent;
import com.agentwallet.core.id.EventId;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.TxId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.idempotency.KeyedRequest;
import com.agentwallet.core.payment.IdempotencyRecord;
import com.agentwallet.core.payment.TransactionStatus;
import com.agentwallet.core.port.EventOutbox;
import com.agentwallet.core.port.IdempotencyStore;
import com.agentwallet.core.port.RecipientCategoryStore;
import com.agentwallet.core.port.RequestKeyStore;
import org.jdbi.v3.core.Handle;

import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The stores with a handful of statements each: recipient categories, idempotency keys, the outbox. */
final class JdbiSmallStores {

    private JdbiSmallStores() {
    }

    static final class Categories implements RecipientCategoryStore {
        private final Handle handle;

        Categories(Handle handle) {
            this.handle = handle;
        }

        @Override
        public Optional<String> categoryOf(OrgId orgId, String recipient) {
            return handle.createQuery("SELECT category FROM recipient_categories WHERE org_id = :org AND recipient = :recipient")
                    .bind("org", orgId.value()).bind("recipient", recipient).mapTo(String.class).findOne();
        }

        @Override
        public void put(OrgId orgId, String recipient, String category) {
            handle.createUpdate("INSERT INTO recipient_categories (org_id, recipient, category) VALUES (:org, :recipient, "
                            + ":category) ON CONFLICT (org_id, recipient) DO UPDATE SET category = EXCLUDED.category")
                    .bind("org", orgId.value()).bind("recipient", recipient).bind("category", category).execute();
        }

        @Override
        public Set<String> recipientsIn(OrgId orgId, Set<String> categories) {
            if (categories.isEmpty()) {
                return Set.of();
            }
            return new HashSet<>(handle.createQuery("SELECT recipient FROM recipient_categories WHERE org_id = :org "
                            + "AND category = ANY(:categories)")
                    .bind("org", orgId.value())
                    .bindArray("categories", String.class, List.copyOf(categories))
                    .mapTo(String.class).list());
        }
    }

    static final class Idempotency implements IdempotencyStore {
        private static final String FIND = "SELECT * FROM idempotency_keys WHERE org_id = ? AND key = ?";
        private static final String FIND_ALL = "SELECT * FROM idempotency_keys WHERE org_id = ? AND key = ANY(?)";
        /** The answer kept with a key. */
        private record Answered(OrgId orgId, String key, IdempotencyRecord.Answer answer) {
        }

        private static final Columns<Answered> ANSWER = Columns.<Answered>of()
                .and("answer_status", Columns.Type.TEXT, row -> row.answer().status().wireName())
                .and("answer_signature", Columns.Type.TEXT, row -> row.answer().signature().orElse(null))
                .and("answer_slot", Columns.Type.BIGINT, row -> row.answer().slot().orElse(null))
                .and("answer_co_signature", Columns.Type.TEXT, row -> row.answer().coSignature().orElse(null))
                .and("answer_failure_reason", Columns.Type.TEXT, row -> row.answer().failureReason().orElse(null))
                .and("answer_updated_at", Columns.Type.TIMESTAMPTZ, row -> Rows.timestamp(row.answer().updatedAt()));
        private static final Pipeline.Kind<IdempotencyRecord> INSERT = Columns.<IdempotencyRecord>of()
                .and("org_id", Columns.Type.TEXT, record -> record.orgId().value())
                .and("key", Columns.Type.TEXT, IdempotencyRecord::key)
                .and("fingerprint", Columns.Type.TEXT, IdempotencyRecord::fingerprint)
                .and("tx_id", Columns.Type.TEXT, record -> record.txId().value())
                .and("created_at", Columns.Type.TIMESTAMPTZ, record -> Rows.timestamp(record.createdAt()))
                .and(ANSWER.ofPart(record -> record.answer()
                        .map(answer -> new Answered(record.orgId(), record.key(), answer)).orElse(null)))
                .insertInto("idempotency_keys", "");
        /** The first answer kept stays: of two kept in one statement too. */
        private static final Pipeline.Kind<Answered> KEEP_ANSWER = ANSWER.update("idempotency_keys",
                Columns.<Answered>of().and("org_id", Columns.Type.TEXT, row -> row.orgId().value())
                        .and("key", Columns.Type.TEXT, Answered::key), "t.answer_status IS NULL", false);
        private static final Pipeline.RowReader<IdempotencyRecord> READ = rs -> {
            Optional<IdempotencyRecord.Answer> answer = Rows.optionalString(rs, "answer_status").isEmpty()
                    ? Optional.empty()
                    : Optional.of(new IdempotencyRecord.Answer(
                            TransactionStatus.fromWire(rs.getString("answer_status"), "answer_status"),
                            Rows.optionalString(rs, "answer_signature"), Rows.optionalLong(rs, "answer_slot"),
                            Rows.optionalString(rs, "answer_co_signature"),
                            Rows.optionalString(rs, "answer_failure_reason"), Rows.instant(rs, "answer_updated_at")));
            return new IdempotencyRecord(new OrgId(rs.getString("org_id")), rs.getString("key"),
                    rs.getString("fingerprint"), new TxId(rs.getString("tx_id")), Rows.instant(rs, "created_at"),
                    answer);
        };

        private final Handle handle;
        private final Pipeline pipeline;
        /**
         * The keys this transaction holds locked, with their records as read right after locking or
         * as it wrote them since: nobody else writes a locked key's record before the lock goes at
         * commit (but to forget it once expired, which a replay of it does as well). So a locked key's
         * lookup travels with the statements after the lock, in the same round trip.
         */
        private final Map<Map.Entry<OrgId, String>, LockedKey> locked = new HashMap<>();

        Idempotency(Handle handle, Pipeline pipeline) {
            this.handle = handle;
            this.pipeline = pipeline;
        }

        /** {@link #lockAll} of the one key. */
        @Override
        public void lock(OrgId orgId, String key) {
            lockAll(orgId, List.of(key));
        }

        /**
         * A transaction-scoped advisory lock on each key's hash, in the order of the keys, held until
         * commit or rollback; then the keys' records are read. Both statements are held back for the
         * next statement waited for. The rest of the transaction, which books payments, is planned
         * once per connection ({@link Pipeline#planOnce}).
         */
        @Override
        public void lockAll(OrgId orgId, Collection<String> keys) {
            List<String> sorted = keys.stream().distinct().sorted().toList();
            if (sorted.isEmpty()) {
                return;
            }
            pipeline.planOnce();
            pipeline.send("SELECT pg_advisory_xact_lock(hashtextextended(k, 0)) FROM unnest(CAST(? AS text[])) AS k",
                    sorted.stream().map(key -> orgId.value() + "/" + key).toList());
            Map<String, LockedKey> held = new HashMap<>();
            sorted.forEach(key -> {
                LockedKey one = new LockedKey();
                held.put(key, one);
                locked.put(Map.entry(orgId, key), one);
            });
            pipeline.prefetch(FIND_ALL, READ, rows -> {
                Map<String, IdempotencyRecord> byKey = new HashMap<>();
                rows.forEach(row -> byKey.put(row.key(), row));
                held.forEach((key, one) -> one.read(Optional.ofNullable(byKey.get(key))));
            }, orgId.value(), sorted);
        }

        @Override
        public Optional<IdempotencyRecord> find(OrgId orgId, String key) {
            LockedKey held = locked.get(Map.entry(orgId, key));
            if (held == null) {
                return pipeline.one(FIND, READ, orgId.value(), key);
            }
            if (!held.known) {
                pipeline.flush();
            }
            return held.record;
        }

        /** Held back until the next statement waited for (see {@link Pipeline}). */
        @Override
        public void insert(IdempotencyRecord record) {
            pipeline.send(INSERT, record);
            wrote(record.orgId(), record.key(), Optional.of(record));
        }

        /**
         * Held back until the next statement waited for (see {@link Pipeline}). Sets the answer only
         * while none is set: of two concurrent ones, the first to commit stays. Afterwards the key's
         * record is read again when asked for.
         */
        @Override
        public void keepAnswer(OrgId orgId, String key, IdempotencyRecord.Answer answer) {
            locked.remove(Map.entry(orgId, key));
            pipeline.send(KEEP_ANSWER, new Answered(orgId, key, answer));
        }

        /** Held back until the next statement waited for (see {@link Pipeline}). */
        @Override
        public void delete(OrgId orgId, String key) {
            pipeline.send("DELETE FROM idempotency_keys WHERE org_id = ? AND key = ?", orgId.value(), key);
            wrote(orgId, key, Optional.empty());
        }

        private void wrote(OrgId orgId, String key, Optional<IdempotencyRecord> record) {
            LockedKey held = locked.get(Map.entry(orgId, key));
            if (held != null) {
                held.record = record;
                held.known = true;
            }
        }

        /** Oldest first, through the age index; rows a request is replacing right now are left to it. */
        @Override
        public int deleteCreatedBefore(Instant cutoff, int limit) {
            locked.clear();
            return handle.createUpdate("DELETE FROM idempotency_keys WHERE (org_id, key) IN ("
                            + "SELECT org_id, key FROM idempotency_keys WHERE created_at < :cutoff "
                            + "ORDER BY created_at LIMIT :limit FOR UPDATE SKIP LOCKED)")
                    .bind("cutoff", Rows.timestamp(cutoff)).bind("limit", limit).execute();
        }
    }

    /**
     * Creating requests' keys, through the pipeline: the insert that claims a key waits (for a
     * concurrent first use of it to end, too); what follows it is held back like any write.
     */
    static final class RequestKeys implements RequestKeyStore {
        private static final Pipeline.RowReader<KeyedRequest> READ = rs -> new KeyedRequest(
                new OrgId(rs.getString("org_id")), rs.getString("key"), rs.getString("fingerprint"),
                Rows.optionalString(rs, "subject"), Rows.instant(rs, "created_at"));
        private final Pipeline pipeline;

        RequestKeys(Pipeline pipeline) {
            this.pipeline = pipeline;
        }

        @Override
        public boolean insertIfAbsent(KeyedRequest record) {
            return pipeline.update("INSERT INTO request_keys (org_id, key, fingerprint, subject, created_at) "
                            + "VALUES (?, ?, ?, ?, ?) ON CONFLICT (org_id, key) DO NOTHING", record.orgId().value(),
                    record.key(), record.fingerprint(), record.subject().orElse(null),
                    Rows.timestamp(record.createdAt())) == 1;
        }

        @Override
        public Optional<KeyedRequest> find(OrgId orgId, String key) {
            return pipeline.one("SELECT * FROM request_keys WHERE org_id = ? AND key = ?", READ, orgId.value(), key);
        }

        @Override
        public void setSubject(OrgId orgId, String key, String subject) {
            pipeline.send("UPDATE request_keys SET subject = ? WHERE org_id = ? AND key = ?", subject, orgId.value(),
                    key);
        }

        @Override
        public void delete(OrgId orgId, String key) {
            pipeline.send("DELETE FROM request_keys WHERE org_id = ? AND key = ?", orgId.value(), key);
        }

        /** Oldest first, through the age index; keys a request holds right now are left to it. */
        @Override
        public int deleteCreatedBefore(Instant cutoff, int limit) {
            return pipeline.update("DELETE FROM request_keys WHERE (org_id, key) IN (SELECT org_id, key FROM "
                    + "request_keys WHERE created_at < ? ORDER BY created_at LIMIT ? FOR UPDATE SKIP LOCKED)",
                    Rows.timestamp(cutoff), limit);
        }
    }

    /** A locked key's record as this transaction knows it; unknown while its read is held back. */
    private static final class LockedKey {
        private Optional<IdempotencyRecord> record = Optional.empty();
        private boolean known;

        /** The read made after the lock; a write this transaction made since is newer. */
        void read(Optional<IdempotencyRecord> row) {
            if (!known) {
                record = row;
                known = true;
            }
        }
    }

    static final class Outbox implements EventOutbox {
        private static final Pipeline.Kind<OutboxEvent> APPEND = Columns.<OutboxEvent>of()
                .and("id", Columns.Type.TEXT, event -> event.id().value())
                .and("org_id", Columns.Type.TEXT, event -> event.event().orgId().value())
                .and("type", Columns.Type.TEXT, event -> event.event().type().wireName())
                .and("wallet_id", Columns.Type.TEXT, event -> event.event().walletId().map(WalletId::value).orElse(null))
                .and("body", Columns.Type.JSONB, event -> Json.write(EventJson.body(event)))
                .and("created_at", Columns.Type.TIMESTAMPTZ, event -> Rows.timestamp(event.createdAt()))
                .insertInto("outbox_events", "");
        private static final String RECENT_ALERTS = "SELECT id, type, body, created_at FROM outbox_events "
                + "WHERE org_id = ? AND type = ANY(?) AND created_at >= ? ORDER BY created_at DESC, seq DESC LIMIT ?";
        private static final List<String> ALERTING = AlertingEvent.TYPES.stream().map(EventType::wireName).sorted()
                .toList();

        private final Pipeline pipeline;

        Outbox(Pipeline pipeline) {
            this.pipeline = pipeline;
        }

        /** Held back until the next statement waited for (see {@link Pipeline}). */
        @Override
        public void append(OutboxEvent event) {
            pipeline.send(APPEND, event);
        }

        @Override
        public List<AlertingEvent> recentAlerts(OrgId orgId, Instant since, int limit) {
            return pipeline.list(RECENT_ALERTS, rs -> EventJson.alerting(new EventId(rs.getString("id")),
                    EventType.fromWire(rs.getString("type")).orElseThrow(), Json.readMap(rs.getString("body")),
                    Rows.instant(rs, "created_at")), orgId.value(), ALERTING, Rows.timestamp(since), limit);
        }
    }
}
