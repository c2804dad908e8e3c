package com.agentwallet.core.common;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/** Walking every page of a list. */
public final class Pages {

    private Pages() {
    }

    /** Hands every item of every page to {@code each}, page by page. */
    public static <T> void forEach(Function<PageRequest, Page<T>> reader, Consumer<T> each) {
        Optional<String> cursor = Optional.empty();
        do {
            Page<T> page = reader.apply(new PageRequest(PageRequest.MAX_LIMIT, cursor));
            page.data().forEach(each);
            cursor = page.nextCursor();
        } while (cursor.isPresent());
    }

    public static <T> List<T> all(Function<PageRequest, Page<T>> reader) {
        List<T> items = new ArrayList<>();
        forEach(reader, items::add);
        return items;
    }
}
