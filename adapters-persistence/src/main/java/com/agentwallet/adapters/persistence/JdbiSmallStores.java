package com.agentwallet.adapters.persistence;

import com.agentwallet.core.event.OutboxEvent;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.TxId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.payment.IdempotencyRecord;
import com.agentwallet.core.payment.RecordedResponse;
import com.agentwallet.core.port.EventOutbox;
import com.agentwallet.core.port.IdempotencyStore;
import com.agentwallet.core.port.RecipientCategoryStore;
import org.jdbi.v3.core.Handle;

import java.time.Instant;
import java.util.HashSet;
import java.util.List;
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
        private final Handle handle;

        Idempotency(Handle handle) {
            this.handle = handle;
        }

        /** A transaction-scoped advisory lock on the key's hash: held until commit or rollback. */
        @Override
        public void lock(OrgId orgId, String key) {
            handle.createQuery("SELECT 1 FROM (SELECT pg_advisory_xact_lock(hashtextextended(:key, 0))) AS held")
                    .bind("key", orgId.value() + "/" + key).mapTo(Integer.class).one();
        }

        @Override
        public Optional<IdempotencyRecord> find(OrgId orgId, String key) {
            return handle.createQuery("SELECT * FROM idempotency_keys WHERE org_id = :org AND key = :key")
                    .bind("org", orgId.value()).bind("key", key)
                    .map((rs, ctx) -> {
                        String body = rs.getString("response_body");
                        Optional<RecordedResponse> response = Rows.optionalInt(rs, "response_status")
                                .map(status -> new RecordedResponse(status, body));
                        return new IdempotencyRecord(new OrgId(rs.getString("org_id")), rs.getString("key"),
                                rs.getString("fingerprint"), new TxId(rs.getString("tx_id")),
                                Rows.instant(rs, "created_at"), response);
                    })
                    .findOne();
        }

        @Override
        public void insert(IdempotencyRecord record) {
            handle.createUpdate("INSERT INTO idempotency_keys (org_id, key, fingerprint, tx_id, created_at, "
                            + "response_status, response_body) VALUES (:org, :key, :fingerprint, :tx, :at, :status, :body)")
                    .bind("org", record.orgId().value())
                    .bind("key", record.key())
                    .bind("fingerprint", record.fingerprint())
                    .bind("tx", record.txId().value())
                    .bind("at", Rows.timestamp(record.createdAt()))
                    .bind("status", record.response().map(RecordedResponse::status).orElse(null))
                    .bind("body", record.response().map(RecordedResponse::body).orElse(null))
                    .execute();
        }

        /** Sets the response only while none is set: of two concurrent recordings, the first to commit stays. */
        @Override
        public boolean recordResponse(OrgId orgId, String key, RecordedResponse response) {
            return handle.createUpdate("UPDATE idempotency_keys SET response_status = :status, response_body = :body "
                            + "WHERE org_id = :org AND key = :key AND response_status IS NULL")
                    .bind("org", orgId.value()).bind("key", key)
                    .bind("status", response.status()).bind("body", response.body())
                    .execute() == 1;
        }

        @Override
        public void delete(OrgId orgId, String key) {
            handle.createUpdate("DELETE FROM idempotency_keys WHERE org_id = :org AND key = :key")
                    .bind("org", orgId.value()).bind("key", key).execute();
        }

        /** Oldest first, through the age index; rows a request is replacing right now are left to it. */
        @Override
        public int deleteCreatedBefore(Instant cutoff, int limit) {
            return handle.createUpdate("DELETE FROM idempotency_keys WHERE (org_id, key) IN ("
                            + "SELECT org_id, key FROM idempotency_keys WHERE created_at < :cutoff "
                            + "ORDER BY created_at LIMIT :limit FOR UPDATE SKIP LOCKED)")
                    .bind("cutoff", Rows.timestamp(cutoff)).bind("limit", limit).execute();
        }
    }

    static final class Outbox implements EventOutbox {
        private final Handle handle;

        Outbox(Handle handle) {
            this.handle = handle;
        }

        @Override
        public void append(OutboxEvent event) {
            handle.createUpdate("INSERT INTO outbox_events (id, org_id, type, wallet_id, body, created_at) "
                            + "VALUES (:id, :org, :type, :wallet, CAST(:body AS jsonb), :at)")
                    .bind("id", event.id().value())
                    .bind("org", event.event().orgId().value())
                    .bind("type", event.event().type().wireName())
                    .bind("wallet", event.event().walletId().map(WalletId::value).orElse(null))
                    .bind("body", Json.write(event.body()))
                    .bind("at", Rows.timestamp(event.createdAt()))
                    .execute();
        }
    }
}
