package com.agentwallet.adapters.persistence;

import com.agentwallet.core.common.Cursor;
import com.agentwallet.core.common.Page;
import com.agentwallet.core.common.PageRequest;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.Query;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Keyset pagination of an organisation's rows, newest first by {@code (created_at, id)}: the cursor
 * carries the sort key of the last row of the previous page, so pages stay right while rows are
 * added or removed, and each page is one index range scan.
 */
final class Listing {

    private Listing() {
    }

    /**
     * One page of {@code table}'s rows of {@code orgId} matching {@code filter} (an SQL condition over
     * the table's columns, its parameters bound by {@code binder}).
     */
    static <T> Page<T> page(Handle handle, String table, String orgId, String filter, Consumer<Query> binder,
                            PageRequest request, RowMapper<T> mapper, Function<T, Instant> time,
                            Function<T, String> id) {
        return pageWithin(handle, table, List.of("org_id = :org"), filter,
                query -> binder.accept(query.bind("org", orgId)), request, mapper, time, id);
    }

    /**
     * One page of {@code table}'s rows in any of the {@code scopes} matching {@code filter} (SQL
     * conditions over the table's columns, the parameters of all bound by {@code binder}). Each
     * scope is read as an arm of its own, in the order of an index that starts with its columns,
     * and the arms are merged: an {@code OR} of them would read and sort every row in scope.
     */
    static <T> Page<T> pageWithin(Handle handle, String table, List<String> scopes, String filter,
                                  Consumer<Query> binder, PageRequest request, RowMapper<T> mapper,
                                  Function<T, Instant> time, Function<T, String> id) {
        Optional<Cursor> cursor = request.cursor().map(Cursor::decode);
        String order = " ORDER BY created_at DESC, id DESC LIMIT :limit";
        List<String> arms = scopes.stream().map(scope -> "SELECT * FROM " + table + " WHERE " + scope + " AND ("
                + filter + ")" + (cursor.isPresent() ? " AND (created_at, id) < (:cursorAt, :cursorId)" : "")
                + order).toList();
        String sql = arms.size() == 1 ? arms.get(0)
                : "SELECT * FROM (" + arms.stream().map(arm -> "(" + arm + ")").collect(Collectors.joining(" UNION "))
                + ") AS arms" + order;
        Query query = handle.createQuery(sql).bind("limit", request.limit() + 1);
        cursor.ifPresent(c -> query.bind("cursorAt", Rows.timestamp(c.at())).bind("cursorId", c.id()));
        binder.accept(query);
        return pageOf(query.map(mapper).list(), request, time, id);
    }

    /** The page of {@code rows}, which were read with one row more than a page holds to learn whether more follow. */
    static <T> Page<T> pageOf(List<T> rows, PageRequest request, Function<T, Instant> time, Function<T, String> id) {
        boolean more = rows.size() > request.limit();
        List<T> data = more ? rows.subList(0, request.limit()) : rows;
        T last = more ? data.get(data.size() - 1) : null;
        return new Page<>(data, more,
                more ? Optional.of(new Cursor(time.apply(last), id.apply(last)).encode()) : Optional.empty());
    }
}
