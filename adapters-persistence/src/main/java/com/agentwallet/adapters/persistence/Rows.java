package com.agentwallet.adapters.persistence;

import com.agentwallet.core.money.Usdc;

import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/** Reading columns into domain values; SQL NULL becomes an empty Optional. */
final class Rows {

    private Rows() {
    }

    static Instant instant(ResultSet rs, String column) throws SQLException {
        return rs.getTimestamp(column).toInstant();
    }

    static Optional<Instant> optionalInstant(ResultSet rs, String column) throws SQLException {
        Timestamp value = rs.getTimestamp(column);
        return value == null ? Optional.empty() : Optional.of(value.toInstant());
    }

    static Usdc usdc(ResultSet rs, String column) throws SQLException {
        return Usdc.ofMicros(rs.getLong(column));
    }

    static Optional<Usdc> optionalUsdc(ResultSet rs, String column) throws SQLException {
        long micros = rs.getLong(column);
        return rs.wasNull() ? Optional.empty() : Optional.of(Usdc.ofMicros(micros));
    }

    static Optional<Long> optionalLong(ResultSet rs, String column) throws SQLException {
        long value = rs.getLong(column);
        return rs.wasNull() ? Optional.empty() : Optional.of(value);
    }

    static Optional<Integer> optionalInt(ResultSet rs, String column) throws SQLException {
        int value = rs.getInt(column);
        return rs.wasNull() ? Optional.empty() : Optional.of(value);
    }

    static Optional<String> optionalString(ResultSet rs, String column) throws SQLException {
        return Optional.ofNullable(rs.getString(column));
    }

    static List<String> strings(ResultSet rs, String column) throws SQLException {
        Array array = rs.getArray(column);
        return array == null ? List.of() : Arrays.asList((String[]) array.getArray());
    }

    /** A bindable value for an optional amount: its micros, or null. */
    static Long micros(Optional<Usdc> amount) {
        return amount.map(Usdc::micros).orElse(null);
    }

    static Timestamp timestamp(Instant instant) {
        return Timestamp.from(instant);
    }

    static Timestamp timestamp(Optional<Instant> instant) {
        return instant.map(Timestamp::from).orElse(null);
    }

    /**
     * The insert of a row written whole, its columns named in two lists (those it keeps, and those
     * {@link #updateByIdAndOrg} changes), each value a positional parameter in that order.
     */
    static String insertWhole(String table, String fixed, String changing) {
        return "INSERT INTO " + table + " (" + fixed + ", " + changing + ") VALUES ("
                + placeholders(columns(fixed) + columns(changing)) + ")";
    }

    /** The update of a row's {@code changing} columns, then its {@code id} and {@code org_id}, by position. */
    static String updateByIdAndOrg(String table, String changing) {
        return "UPDATE " + table + " SET (" + changing + ") = (" + placeholders(columns(changing))
                + ") WHERE id = ? AND org_id = ?";
    }

    /**
     * The update of many rows' {@code changing} columns by their {@code id} and {@code org_id}, from
     * {@link #valuesAs} of {@code rows} rows, each with the values {@link #updateByIdAndOrg} takes
     * ({@code types} their SQL types, in that order); the table is {@code t}.
     */
    static String updateManyByIdAndOrg(String table, String changing, List<String> types, int rows) {
        return "UPDATE " + table + " AS t SET (" + changing + ") = ("
                + Arrays.stream(changing.split(", ")).map(column -> "v." + column).collect(Collectors.joining(", "))
                + ") FROM " + valuesAs(types, changing + ", id, org_id", rows) + " WHERE t.id = v.id AND t.org_id = v.org_id";
    }

    /**
     * {@code rows} rows of positional parameters, each cast to its SQL type in {@code types}, as a
     * table {@code v} with {@code columns}: a list of rows outside an insert takes no type from a column.
     */
    static String valuesAs(List<String> types, String columns, int rows) {
        String row = types.stream().map(type -> "CAST(? AS " + type + ")").collect(Collectors.joining(", ", "(", ")"));
        return "(VALUES " + String.join(", ", Collections.nCopies(rows, row)) + ") AS v (" + columns + ")";
    }

    /** The values of statements of one shape, one after another: of their rows in one statement. */
    static Object[] flat(Collection<Object[]> rows) {
        return rows.stream().flatMap(Arrays::stream).toArray();
    }

    private static int columns(String names) {
        return names.split(",").length;
    }

    private static String placeholders(int n) {
        return String.join(", ", Collections.nCopies(n, "?"));
    }

    /** The values of one statement made of two parts, in order. */
    static Object[] concat(Object[] first, Object[] second) {
        Object[] both = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }
}
