package com.agentwallet.adapters.persistence;

import org.jdbi.v3.core.Jdbi;

import java.time.Instant;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The webhook deliveries due and not yet delivered, for the health check: how many (up to a cap, so
 * that the count reads no more than that many entries of the due index) and since when the oldest has
 * been due. Those of a paused or deleted webhook wait on purpose and are not counted.
 */
public final class PostgresWebhookBacklog {
    private static final String DUE = "SELECT count(*) AS due, min(next_attempt_at) AS oldest FROM ("
            + "SELECT d.next_attempt_at FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id "
            + "WHERE d.status = 'scheduled' AND d.next_attempt_at <= :now "
            + "AND w.status = 'active' AND w.deleted_at IS NULL "
            + "ORDER BY d.next_attempt_at LIMIT :cap) due";

    private final Jdbi jdbi;

    /** {@code count} due deliveries (at most the cap asked for), the oldest due since {@code oldest}. */
    public record Due(long count, Optional<Instant> oldest) {
    }

    public PostgresWebhookBacklog(Jdbi jdbi) {
        this.jdbi = requireNonNull(jdbi, "jdbi is null");
    }

    /** The deliveries due at {@code now}, counted up to {@code cap}. */
    public Due due(Instant now, int cap) {
        return jdbi.withHandle(handle -> handle.createQuery(DUE)
                .bind("now", Rows.timestamp(now))
                .bind("cap", cap)
                .map((rs, ctx) -> new Due(rs.getLong("due"), Rows.optionalInstant(rs, "oldest")))
                .one());
    }
}
