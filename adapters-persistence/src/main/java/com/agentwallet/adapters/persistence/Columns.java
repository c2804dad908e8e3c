package com.agentwallet.adapters.persistence;

import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Columns of a table written from a value of type {@code T}, each with its name, its SQL type and
 * how its value is had: one list, so that a name, its type and its value cannot fall out of step.
 * The writes of the payment's path are made from it ({@link #insertInto}, {@link #update}): one row
 * as a plain statement; several, held back together by the {@link Pipeline}, as one statement
 * over {@code unnest} of one array a column.
 */
final class Columns<T> {
    /** One column: a value of {@link Kind}'s Java type, or null. */
    private record Column<T>(String name, Type type, Function<T, Object> value) {
        /** The column of the rows {@code v} unnested, as this column's type. */
        String unnested() {
            return type == Type.TEXT_ARRAY ? "CAST(v." + name + " AS text[])" : "v." + name;
        }

        /** The parameter of one value: a JSON document is sent as text. */
        String placeholder() {
            return type == Type.JSONB ? "CAST(? AS jsonb)" : "?";
        }
    }

    /** SQL types of columns, each with the type of the array its values go in to be unnested. */
    enum Type {
        TEXT("text"), BIGINT("bigint"), INTEGER("integer"), BOOLEAN("boolean"), TIMESTAMPTZ("timestamptz"),
        /** A list of texts; unnested as a text each, the list written as an array literal. */
        TEXT_ARRAY("text"),
        /** A JSON document as text. */
        JSONB("jsonb");

        private final String element;

        Type(String element) {
            this.element = element;
        }
    }

    private final List<Column<T>> columns;

    private Columns(List<Column<T>> columns) {
        this.columns = List.copyOf(columns);
    }

    static <T> Columns<T> of() {
        return new Columns<>(List.of());
    }

    /** These columns and one more, {@code value} of {@code type}'s Java type: see {@link Pipeline#bind}. */
    Columns<T> and(String name, Type type, Function<T, Object> value) {
        List<Column<T>> more = new ArrayList<>(columns);
        more.add(new Column<>(name, type, value));
        return new Columns<>(more);
    }

    /** These columns, of the part of a {@code U} that {@code part} gives; each null where it gives null. */
    <U> Columns<U> ofPart(Function<U, T> part) {
        return new Columns<>(columns.stream().<Column<U>>map(column -> new Column<>(column.name(), column.type(),
                whole -> Optional.ofNullable(part.apply(whole)).map(column.value()).orElse(null))).toList());
    }

    Columns<T> and(Columns<T> others) {
        return new Columns<>(Stream.concat(columns.stream(), others.columns.stream()).toList());
    }

    /** The names, in order, separated by commas. */
    String names() {
        return columns.stream().map(Column::name).collect(Collectors.joining(", "));
    }

    /** The values of a row, in order. */
    Object[] values(T row) {
        return columns.stream().map(column -> column.value().apply(row)).toArray();
    }

    /**
     * The insert of rows into {@code table} (one statement for any number, with {@code suffix} such as
     * an {@code ON CONFLICT} clause).
     */
    Pipeline.Kind<T> insertInto(String table, String suffix) {
        String head = "INSERT INTO " + table + " (" + names() + ") ";
        return new Pipeline.Kind<>(table, rows -> rows.size() == 1
                ? new Pipeline.Sql(head + "VALUES (" + placeholders() + ")" + suffix, values(rows.get(0)))
                : new Pipeline.Sql(head + "SELECT " + columns.stream().map(Column::unnested)
                        .collect(Collectors.joining(", ")) + " FROM " + unnest() + suffix, arrays(rows)));
    }

    /**
     * The update of these columns of {@code table}'s rows found by {@code key}, where {@code condition}
     * holds of the row as it is ({@code t} is the table; {@code "TRUE"} for every row). Of the rows
     * of one key written together, the last one counts when {@code lastCounts}, else the first.
     */
    Pipeline.Kind<T> update(String table, Columns<T> key, String condition, boolean lastCounts) {
        String set = columns.stream().map(Column::name).collect(Collectors.joining(", "));
        return new Pipeline.Kind<>(table, written -> {
            List<T> rows = onePerKey(written, key, lastCounts);
            if (rows.size() == 1) {
                return new Pipeline.Sql("UPDATE " + table + " AS t SET " + columns.stream()
                        .map(column -> column.name() + " = " + column.placeholder()).collect(Collectors.joining(", "))
                        + " WHERE " + key.columns.stream().map(column -> "t." + column.name() + " = ?")
                        .collect(Collectors.joining(" AND ")) + " AND " + condition,
                        Rows.concat(values(rows.get(0)), key.values(rows.get(0))));
            }
            Columns<T> both = and(key);
            return new Pipeline.Sql("UPDATE " + table + " AS t SET (" + set + ") = (" + columns.stream()
                    .map(Column::unnested).collect(Collectors.joining(", ")) + ") FROM " + both.unnest() + " WHERE "
                    + key.columns.stream().map(column -> "t." + column.name() + " = v." + column.name())
                    .collect(Collectors.joining(" AND ")) + " AND " + condition, both.arrays(rows));
        });
    }

    /** {@code unnest} of one array parameter a column, as the rows {@code v} with these columns' names. */
    String unnest() {
        return "unnest(" + columns.stream().map(column -> "CAST(? AS " + column.type().element + "[])")
                .collect(Collectors.joining(", ")) + ") AS v (" + names() + ")";
    }

    /** The parameters of {@link #unnest}: one array a column, of the rows' values in order. */
    Object[] arrays(Collection<T> rows) {
        return columns.stream().map(column -> new Pipeline.SqlArray(column.type().element, rows.stream()
                .map(row -> unnestable(column.type(), column.value().apply(row))).toArray())).toArray();
    }

    /** A value as an element of its column's array: a time as ISO-8601, a list of texts as an array literal. */
    private static Object unnestable(Type type, Object value) {
        if (value == null) {
            return null;
        }
        return switch (type) {
            case TIMESTAMPTZ -> ((Timestamp) value).toInstant().toString();
            case TEXT_ARRAY -> ((List<?>) value).stream()
                    .map(text -> '"' + text.toString().replace("\\", "\\\\").replace("\"", "\\\"") + '"')
                    .collect(Collectors.joining(",", "{", "}"));
            case TEXT, BIGINT, INTEGER, BOOLEAN, JSONB -> value;
        };
    }

    private String placeholders() {
        return columns.stream().map(Column::placeholder).collect(Collectors.joining(", "));
    }

    private static <T> List<T> onePerKey(List<T> rows, Columns<T> key, boolean lastCounts) {
        Map<List<Object>, T> byKey = new LinkedHashMap<>();
        for (T row : rows) {
            List<Object> id = List.of(key.values(row));
            if (lastCounts) {
                byKey.remove(id);
                byKey.put(id, row);
            } else {
                byKey.putIfAbsent(id, row);
            }
        }
        return List.copyOf(byKey.values());
    }
}
