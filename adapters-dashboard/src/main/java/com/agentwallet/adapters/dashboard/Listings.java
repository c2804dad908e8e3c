package com.agentwallet.adapters.dashboard;

import com.agentwallet.core.common.Page;
import com.agentwallet.core.common.PageRequest;
import com.agentwallet.core.common.WireNamed;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What the read-only lists (transactions, escrows, exports) share: their pages of the core's
 * lists, the links to the first and the next page keeping the filters, the filters' options, and
 * the optional values of a GET form.
 */
final class Listings {
    static final int PAGE_SIZE = PageRequest.DEFAULT_LIMIT;

    private static final Template PAGER = Template.load("pager.html");
    private static final Template LINK = Template.load("pager-link.html");
    private static final Template OPTION = Template.load("filter-option.html");
    private static final Template FACT = Template.load("fact.html");

    private Listings() {
    }

    /** The page after {@code cursor}, or the first. */
    static PageRequest request(String cursor) {
        return new PageRequest(PAGE_SIZE, present(cursor));
    }

    /** A form field's value, if the user gave one. */
    static Optional<String> present(String value) {
        return Optional.ofNullable(value).map(String::trim).filter(text -> !text.isEmpty());
    }

    /** {@code path} with the filters that have a value as its query. */
    static String link(String path, Map<String, String> filters) {
        String query = filters.entrySet().stream().filter(each -> !each.getValue().isEmpty())
                .map(each -> each.getKey() + "=" + URLEncoder.encode(each.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        return query.isEmpty() ? path : path + "?" + query;
    }

    /**
     * Links to the first page (when this is not it) and to the next (when there is one), keeping
     * {@code filters}; {@code what} names the list for the navigation's label.
     */
    static Html pager(Page<?> page, boolean first, String path, Map<String, String> filters, String what) {
        Html firstLink = first ? Html.EMPTY : LINK.render(Map.of("href", link(path, filters), "label", "First page"));
        Html next = page.nextCursor().map(cursor -> {
            Map<String, String> withCursor = new LinkedHashMap<>(filters);
            withCursor.put("cursor", cursor);
            return LINK.render(Map.of("href", link(path, withCursor), "label", "Next page"));
        }).orElse(Html.EMPTY);
        return first && page.nextCursor().isEmpty() ? Html.EMPTY
                : PAGER.render(Map.of("what", what, "links", Html.join(List.of(firstLink, next))));
    }

    /** "Any" and every constant of {@code type} by its wire name, {@code selected} chosen. */
    static <E extends Enum<E> & WireNamed> Html options(Class<E> type, Optional<E> selected) {
        Html any = OPTION.render(Map.of("value", "", "label", "any",
                "selected", new Html(selected.isEmpty() ? " selected" : "")));
        return Html.join(Stream.concat(Stream.of(any),
                Arrays.stream(type.getEnumConstants()).map(constant -> OPTION.render(Map.of(
                        "value", constant.wireName(), "label", constant.wireName(),
                        "selected", new Html(selected.equals(Optional.of(constant)) ? " selected" : "")))))
                .toList());
    }

    /** The filter's constant of {@code type}, if one is chosen; an unknown name is a 400 naming {@code param}. */
    static <E extends Enum<E> & WireNamed> Optional<E> chosen(Class<E> type, String value, String param) {
        return present(value).map(name -> WireNamed.parse(type, name, param));
    }

    /** One term of a detail page's description list. */
    static Html fact(String term, Html value) {
        return FACT.render(Map.of("term", term, "value", value));
    }
}
