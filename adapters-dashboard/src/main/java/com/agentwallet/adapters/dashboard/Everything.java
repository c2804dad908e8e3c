package com.agentwallet.adapters.dashboard;

import com.agentwallet.core.common.Page;
import com.agentwallet.core.common.PageRequest;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * A paged list read page after page into one, for a page's choices (the policies of a select, the
 * wallets a funding form offers): bounded, so that an organisation with very many of them costs a
 * fixed number of reads.
 */
final class Everything {
    /** The most items read; beyond it a page offers the first ones, newest first. */
    static final int LIMIT = 1_000;

    private Everything() {
    }

    static <T> List<T> of(Function<PageRequest, Page<T>> read) {
        List<T> all = new ArrayList<>();
        Optional<String> cursor = Optional.empty();
        do {
            Page<T> page = read.apply(new PageRequest(PageRequest.MAX_LIMIT, cursor));
            all.addAll(page.data());
            cursor = page.nextCursor();
        } while (cursor.isPresent() && all.size() < LIMIT);
        return all.size() > LIMIT ? List.copyOf(all.subList(0, LIMIT)) : all;
    }
}
