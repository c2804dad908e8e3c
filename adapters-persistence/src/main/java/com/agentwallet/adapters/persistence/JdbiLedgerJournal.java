package com.agentwallet.adapters.persistence;

import com.agentwallet.core.ledger.LedgerOutcome;
import com.agentwallet.core.port.LedgerJournal;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.Update;

import java.util.Optional;
import java.util.function.Function;

import static com.agentwallet.adapters.persistence.JdbiStorage.failingAsUnavailable;

/**
 * The ledger plugin's journal in PostgreSQL ({@code ledger_attempts}, {@code ledger_outcomes}), shared
 * by every server process. Each write is one statement, committed before it returns (the attempt
 * before its transaction is sent); the first row of an operation stays, and a later writer reads it
 * back instead.
 */
final class JdbiLedgerJournal implements LedgerJournal {
    private static final RowMapper<Attempt> ATTEMPT = (rs, ctx) -> new Attempt(rs.getString("signature"),
            rs.getString("detail"));
    private static final RowMapper<LedgerOutcome> OUTCOME = (rs, ctx) -> "confirmed".equals(rs.getString("outcome"))
            ? new LedgerOutcome.Confirmed(rs.getString("signature"), rs.getLong("slot"))
            : new LedgerOutcome.Rejected(rs.getString("code"), rs.getString("message"));

    private final Jdbi jdbi;

    JdbiLedgerJournal(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    @Override
    public Attempt attempted(String operationId, Attempt attempt) {
        return first("ledger_attempts", ATTEMPT, operationId, attempt, handle -> handle.createUpdate(
                        "INSERT INTO ledger_attempts (operation_id, signature, detail) "
                                + "VALUES (:op, :signature, :detail) ON CONFLICT (operation_id) DO NOTHING")
                .bind("signature", attempt.signature()).bind("detail", attempt.detail()));
    }

    @Override
    public Optional<Attempt> attempt(String operationId) {
        return recorded("ledger_attempts", ATTEMPT, operationId);
    }

    @Override
    public LedgerOutcome settled(String operationId, LedgerOutcome outcome) {
        Optional<LedgerOutcome.Confirmed> confirmed = Optional.of(outcome)
                .filter(LedgerOutcome.Confirmed.class::isInstance).map(LedgerOutcome.Confirmed.class::cast);
        Optional<LedgerOutcome.Rejected> rejected = Optional.of(outcome)
                .filter(LedgerOutcome.Rejected.class::isInstance).map(LedgerOutcome.Rejected.class::cast);
        if (confirmed.isEmpty() && rejected.isEmpty()) {
            throw new IllegalArgumentException("only a final outcome is recorded, not " + outcome);
        }
        return first("ledger_outcomes", OUTCOME, operationId, outcome, handle -> handle.createUpdate(
                        "INSERT INTO ledger_outcomes (operation_id, outcome, signature, slot, code, message) "
                                + "VALUES (:op, :outcome, :signature, :slot, :code, :message) "
                                + "ON CONFLICT (operation_id) DO NOTHING")
                .bind("outcome", confirmed.isPresent() ? "confirmed" : "rejected")
                .bind("signature", confirmed.map(LedgerOutcome.Confirmed::signature).orElse(null))
                .bind("slot", confirmed.map(LedgerOutcome.Confirmed::slot).orElse(null))
                .bind("code", rejected.map(LedgerOutcome.Rejected::code).orElse(null))
                .bind("message", rejected.map(LedgerOutcome.Rejected::message).orElse(null)));
    }

    @Override
    public Optional<LedgerOutcome> outcome(String operationId) {
        return recorded("ledger_outcomes", OUTCOME, operationId);
    }

    /**
     * Runs {@code insert} of {@code mine}, which does nothing when the operation has a row in
     * {@code table}; answers {@code mine} if it was inserted, else the row recorded first.
     */
    private <T> T first(String table, RowMapper<T> reader, String operationId, T mine, Function<Handle, Update> insert) {
        return failingAsUnavailable(() -> jdbi.withHandle(handle ->
                insert.apply(handle).bind("op", operationId).execute() == 1 ? mine
                        : select(handle, table, reader, operationId).orElseThrow()));
    }

    private <T> Optional<T> recorded(String table, RowMapper<T> reader, String operationId) {
        return failingAsUnavailable(() -> jdbi.withHandle(handle -> select(handle, table, reader, operationId)));
    }

    private static <T> Optional<T> select(Handle handle, String table, RowMapper<T> reader, String operationId) {
        return handle.createQuery("SELECT * FROM " + table + " WHERE operation_id = :op")
                .bind("op", operationId).map(reader).findOne();
    }
}
