package com.agentwallet.bench.delivery;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class StatementTimesTest {
    @Test
    void aStatementIsKnownByItsVerbAndFirstTable() {
        assertThat(StatementTimes.label("INSERT INTO outbox_events (id, org_id)\n  VALUES (:id, :org)"))
                .isEqualTo("INSERT outbox_events");
        assertThat(StatementTimes.label("UPDATE webhook_deliveries SET status = :status WHERE id = :id"))
                .isEqualTo("UPDATE webhook_deliveries");
        assertThat(StatementTimes.label("DELETE FROM idempotency_keys WHERE created_at < :before"))
                .isEqualTo("DELETE idempotency_keys");
        assertThat(StatementTimes.label("SELECT d.* FROM webhook_deliveries d WHERE due_at <= :now "
                + "ORDER BY due_at LIMIT :limit FOR UPDATE SKIP LOCKED"))
                .isEqualTo("SELECT webhook_deliveries" + StatementTimes.CLAIM);
        assertThat(StatementTimes.label("SELECT 1")).isEqualTo("SELECT 1");
        assertThat(StatementTimes.label("WITH w0 AS (INSERT INTO spend_entries SELECT * FROM unnest(:a)) SELECT 1 "
                + "FROM w0, w1, w2, w3"))
                .isEqualTo("WITH w0 AS (INSERT INTO spend_entries SELECT ...");
    }
}
