package com.agentwallet.adapters.persistence;

import com.agentwallet.core.money.Usdc;

import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

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

    /** The values of one statement made of two parts, in order. */
    static Object[] concat(Object[] first, Object[] second) {
        Object[] both = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }
}
