package com.agentwallet.adapters.persistence;

import org.jdbi.v3.core.Jdbi;

import java.time.Instant;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * What waits in the database, over every server that shares it, for the metrics: payments waiting for
 * their co-signature, transactions booked and not yet settled on the ledger, export jobs queued and
 * being generated. One statement; each part reads at most {@code cap} entries of its partial index,
 * so a count above the cap reads as the cap.
 */
public final class PostgresQueues {
    private static final String WAITING = "WITH holds AS ("
            + "SELECT created_at FROM transactions WHERE status = 'pending_co_sign' "
            + "ORDER BY co_sign_expires_at LIMIT :cap), "
            + "unsettled AS (SELECT updated_at FROM transactions WHERE status = 'pending' "
            + "ORDER BY updated_at LIMIT :cap), "
            + "exports AS (SELECT lease_until FROM export_jobs WHERE status = 'pending' ORDER BY created_at LIMIT :cap) "
            + "SELECT (SELECT count(*) FROM holds) AS holds, (SELECT min(created_at) FROM holds) AS oldest_hold, "
            + "(SELECT count(*) FROM unsettled) AS unsettled, "
            + "(SELECT min(updated_at) FROM unsettled) AS oldest_unsettled, "
            + "(SELECT count(*) FROM exports WHERE lease_until IS NULL OR lease_until <= :now) AS exports_queued, "
            + "(SELECT count(*) FROM exports WHERE lease_until > :now) AS exports_generating";

    private final Jdbi jdbi;

    /**
     * {@code holds} payments wait for their co-signature, the oldest made at {@code oldestHold};
     * {@code unsettled} transactions wait for the ledger, the oldest since it was booked for it at
     * {@code oldestUnsettled}; export jobs wait for a generator ({@code exportsQueued}) or are being
     * written by one under its lease ({@code exportsGenerating}).
     */
    public record Waiting(long holds, Optional<Instant> oldestHold, long unsettled, Optional<Instant> oldestUnsettled,
                          long exportsQueued, long exportsGenerating) {
        public Waiting {
            requireNonNull(oldestHold, "oldestHold is null");
            requireNonNull(oldestUnsettled, "oldestUnsettled is null");
        }
    }

    public PostgresQueues(Jdbi jdbi) {
        this.jdbi = requireNonNull(jdbi, "jdbi is null");
    }

    /** What waits at {@code now}, each count up to {@code cap}. */
    public Waiting waiting(Instant now, int cap) {
        return jdbi.withHandle(handle -> handle.createQuery(WAITING)
                .bind("now", Rows.timestamp(now))
                .bind("cap", cap)
                .map((rs, ctx) -> new Waiting(rs.getLong("holds"), Rows.optionalInstant(rs, "oldest_hold"),
                        rs.getLong("unsettled"), Rows.optionalInstant(rs, "oldest_unsettled"),
                        rs.getLong("exports_queued"), rs.getLong("exports_generating")))
                .one());
    }
}
