package com.agentwallet.adapters.persistence;

import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.JdbiException;
import org.jdbi.v3.core.statement.StatementContext;
import org.jdbi.v3.core.statement.StatementCustomizer;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The statements of one unit of work on the payment's path, sent to PostgreSQL in as few round trips
 * as their answers allow. A statement whose answer nobody waits for (a write, a lock) is held back
 * and goes with the next statement that is waited for, or when the unit of work ends: they travel
 * as one multi-statement request that PostgreSQL runs one after another, in the order they were
 * made, each with a snapshot of its own, as if sent one by one; the first that fails stops the rest
 * and the transaction fails whole. Any other statement of the unit of work (through Jdbi) sends
 * what is held back first, so every statement sees all that was made before it.
 *
 * <p>The last request of a transaction carries its {@code COMMIT} ({@link #commit}).
 *
 * <p>What changes is when a held-back write's failure is seen: at the next statement waited for,
 * or at the end of the unit of work, instead of at the call. Nothing of the core reads a write's
 * failure at the call; it fails the unit of work either way.
 */
final class Pipeline {
    /** Reads one row of a result. */
    @FunctionalInterface
    interface RowReader<T> {
        T read(ResultSet row) throws SQLException;
    }

    /** What happens with one statement's answer: its rows or its count. */
    private interface Answer {
        void rows(ResultSet rows) throws SQLException;

        void count(int count);
    }

    private static final Answer IGNORED = new Answer() {
        @Override
        public void rows(ResultSet rows) {
        }

        @Override
        public void count(int count) {
        }
    };

    /**
     * A kind of write to {@code table} of rows of type {@code T}, whose rows held back one after
     * another go as one statement made by {@code statementOf} (from the rows, in the order they were
     * held back; one or more), sent where the first of them was held back. Writes of kinds move ahead
     * of writes of other kinds, never of another kind on the same table (a row's whole update and an
     * increment of it must stay in order), nor of any statement that is not of a kind (a read, a
     * lock, a delete): such a statement ends the writes that join, and a write ends those of the
     * other kinds on its table. Moving a write ahead of writes to other tables is safe because a unit
     * of work writes a row before the rows that refer to it (each unit of work alike), so the first
     * write of each kind comes after the first of the kinds it refers to. Kinds are told apart by
     * identity: one constant each, made from the table's {@link Columns}.
     */
    record Kind<T>(String table, Function<List<T>, Sql> statementOf) {
    }

    /** A statement and its values, bound to its {@code ?} in order. */
    record Sql(String sql, Object... values) {
    }

    /** An array parameter: {@code elements} of the SQL type {@code elementType}, or nulls. */
    record SqlArray(String elementType, Object[] elements) {
    }

    private record Statement(String sql, Object[] values, Answer answer, Optional<Kind<?>> kind, Object row) {
        Statement(String sql, Object[] values, Answer answer) {
            this(sql, values, answer, Optional.empty(), null);
        }
    }

    /**
     * Has PostgreSQL plan each statement prepared on the connection once, for any values, for the rest
     * of the transaction, instead of again at each execution: see {@link #planOnce}.
     */
    static final String PLAN_ONCE = "SET LOCAL plan_cache_mode = force_generic_plan";

    private final Handle handle;
    private final List<Statement> held = new ArrayList<>();
    private boolean plannedOnce;

    /** Sends what is held back before any statement made through {@code handle}. */
    Pipeline(Handle handle) {
        this.handle = handle;
        handle.addCustomizer(new StatementCustomizer() {
            @Override
            public void beforeExecution(PreparedStatement stmt, StatementContext ctx) throws SQLException {
                flushing();
            }
        });
    }

    /**
     * The statements of the rest of this transaction are planned once per connection, for any values
     * ({@link #PLAN_ONCE}, held back, sent once per unit of work). The driver prepares a statement on
     * the server after a few executions; PostgreSQL would then plan it again at each execution
     * whenever a plan for the values at hand looks cheaper than one for any (a lock of one wallet by
     * {@code id = ANY(?)}, the read-ahead of spends), which on the payment's path cost more than a tenth
     * of its CPU in a profile under the service load benchmark. For the statements of a batch of
     * payments, which find their rows by key, the plan for any values is the same. Asked for by the
     * stores at the start of those batches.
     */
    void planOnce() {
        if (!plannedOnce) {
            plannedOnce = true;
            send(PLAN_ONCE);
        }
    }

    /** Holds back a statement whose answer is not needed; {@code values} bind its {@code ?} in order. */
    void send(String sql, Object... values) {
        held.add(new Statement(sql, values, IGNORED));
    }

    /**
     * Holds back a write of a {@link Kind} whose answer is not needed, to go in one statement with the
     * writes of its kind held back with it.
     */
    <T> void send(Kind<T> kind, T row) {
        held.add(new Statement(null, null, IGNORED, Optional.of(kind), row));
    }

    /**
     * Holds back a query whose rows go to {@code whenRead} once it has run: a read made ahead of the
     * statement that will need it.
     */
    <T> void prefetch(String sql, RowReader<T> reader, Consumer<List<T>> whenRead, Object... values) {
        List<T> rows = new ArrayList<>();
        held.add(new Statement(sql, values, new Answer() {
            @Override
            public void rows(ResultSet result) throws SQLException {
                rowsInto(reader, rows).rows(result);
                whenRead.accept(rows);
            }

            @Override
            public void count(int count) {
                throw new IllegalStateException("expected rows, got a count: " + sql);
            }
        }));
    }

    /** Runs a query, with everything held back before it, and answers its rows. */
    <T> List<T> list(String sql, RowReader<T> reader, Object... values) {
        List<T> rows = new ArrayList<>();
        run(new Statement(sql, values, rowsInto(reader, rows)));
        return rows;
    }

    /** {@link #list} of a query answering at most one row. */
    <T> Optional<T> one(String sql, RowReader<T> reader, Object... values) {
        List<T> rows = list(sql, reader, values);
        if (rows.size() > 1) {
            throw new IllegalStateException("expected at most one row, got " + rows.size() + ": " + sql);
        }
        return rows.stream().findFirst();
    }

    /** Runs a write, with everything held back before it, and answers how many rows it changed. */
    int update(String sql, Object... values) {
        int[] changed = {-1};
        run(new Statement(sql, values, new Answer() {
            @Override
            public void rows(ResultSet rows) {
                throw new IllegalStateException("expected a count, got rows: " + sql);
            }

            @Override
            public void count(int count) {
                changed[0] = count;
            }
        }));
        return changed[0];
    }

    /**
     * Commits the unit of work's transaction with what is held back, in one round trip. With nothing
     * held back there is nothing to save, and the transaction is left to commit as usual. The driver
     * sees that the server ended the transaction and does not commit it again.
     */
    void commit() {
        if (!held.isEmpty()) {
            send("COMMIT");
            flush();
        }
    }

    /** Sends what is held back, if anything. */
    void flush() {
        try {
            flushing();
        } catch (SQLException e) {
            throw new PipelineException(e);
        }
    }

    private void run(Statement last) {
        held.add(last);
        flush();
    }

    private void flushing() throws SQLException {
        if (held.isEmpty()) {
            return;
        }
        List<Statement> batch = combined(held);
        held.clear();
        Connection connection = handle.getConnection();
        String sql = batch.stream().map(Statement::sql).collect(Collectors.joining(";\n"));
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            int index = 1;
            for (Statement one : batch) {
                for (Object value : one.values()) {
                    bind(connection, statement, index++, value);
                }
            }
            boolean rows = statement.execute();
            for (Statement one : batch) {
                if (rows) {
                    try (ResultSet result = statement.getResultSet()) {
                        one.answer().rows(result);
                    }
                } else {
                    one.answer().count(statement.getUpdateCount());
                }
                rows = statement.getMoreResults();
            }
        }
    }

    /**
     * The statements to send for those held back: the writes of a {@link Kind} that can go together
     * (see there) as one statement where the first of them was.
     */
    private static List<Statement> combined(List<Statement> held) {
        List<List<Statement>> order = new ArrayList<>(held.size());
        Map<Kind<?>, List<Statement>> open = new IdentityHashMap<>();
        for (Statement one : held) {
            if (one.kind().isEmpty()) {
                open.clear();
                order.add(List.of(one));
            } else {
                Kind<?> kind = one.kind().get();
                open.keySet().removeIf(other -> other != kind && other.table().equals(kind.table()));
                open.computeIfAbsent(kind, k -> {
                    List<Statement> together = new ArrayList<>();
                    order.add(together);
                    return together;
                }).add(one);
            }
        }
        return order.stream().map(Pipeline::asOne).toList();
    }

    private static Statement asOne(List<Statement> together) {
        Optional<Kind<?>> kind = together.get(0).kind();
        if (kind.isEmpty()) {
            return together.get(0);
        }
        Sql one = statementOf(kind.get(), together.stream().map(Statement::row).toList());
        return new Statement(one.sql(), one.values(), IGNORED);
    }

    @SuppressWarnings("unchecked") // a kind's statements hold rows of its own type only: see send
    private static <T> Sql statementOf(Kind<T> kind, List<Object> rows) {
        return kind.statementOf().apply((List<T>) rows);
    }

    private static <T> Answer rowsInto(RowReader<T> reader, List<T> into) {
        return new Answer() {
            @Override
            public void rows(ResultSet rows) throws SQLException {
                while (rows.next()) {
                    into.add(reader.read(rows));
                }
            }

            @Override
            public void count(int count) {
                throw new IllegalStateException("expected rows, got a count");
            }
        };
    }

    /**
     * Binds a value with its SQL type, but for null. A time goes as {@code timestamptz}, the type of
     * every time column here: as a {@link Timestamp}, the driver sends it with no type (it cannot tell
     * {@code timestamp} from {@code timestamptz}). The driver has the server describe a statement with
     * a value of no type when it prepares it, and from then on sends a described statement whose rows
     * have no bounded size (any text column) only after a round trip of its own, lest the server's
     * answers fill its buffers: the requests of several statements were several round trips
     * (seen in the driver's traffic under load). So a statement answering rows binds no null.
     */
    private static void bind(Connection connection, PreparedStatement statement, int index, Object value)
            throws SQLException {
        if (value == null) {
            statement.setNull(index, Types.OTHER);
        } else if (value instanceof String text) {
            statement.setString(index, text);
        } else if (value instanceof Long number) {
            statement.setLong(index, number);
        } else if (value instanceof Integer number) {
            statement.setInt(index, number);
        } else if (value instanceof Boolean flag) {
            statement.setBoolean(index, flag);
        } else if (value instanceof Timestamp at) {
            statement.setObject(index, at.toInstant().atOffset(ZoneOffset.UTC));
        } else if (value instanceof List<?> texts) {
            statement.setArray(index, connection.createArrayOf("text", texts.toArray()));
        } else if (value instanceof SqlArray array) {
            statement.setArray(index, connection.createArrayOf(array.elementType(), array.elements()));
        } else {
            throw new IllegalArgumentException("no binding for " + value.getClass().getName());
        }
    }

    /**
     * A statement sent through the pipeline failed; its cause is the driver's exception. A Jdbi
     * exception, as the failure of any other statement of the books is.
     */
    static final class PipelineException extends JdbiException {
        PipelineException(SQLException cause) {
            super(cause.getMessage(), cause);
        }
    }
}
