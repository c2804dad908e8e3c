package com.agentwallet.adapters.http.view;

import com.agentwallet.core.common.Page;

import java.util.List;
import java.util.function.Function;

/** A page of a list: {@code {"object":"list","data":[...],"has_more":bool,"next_cursor":string|null}}. */
public record ListJson<T>(String object, List<T> data, boolean hasMore, String nextCursor) {

    public static <D, T> ListJson<T> of(Page<D> page, Function<D, T> view) {
        return new ListJson<>("list", page.data().stream().map(view).toList(), page.hasMore(),
                page.nextCursor().orElse(null));
    }

    /** A whole list that is never paged, such as the wallets of one batch funding. */
    public static <D, T> ListJson<T> all(List<D> items, Function<D, T> view) {
        return new ListJson<>("list", items.stream().map(view).toList(), false, null);
    }
}
