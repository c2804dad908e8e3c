package com.agentwallet.client;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * Every item of a list endpoint, newest first, fetching the next page (by {@code next_cursor}) only
 * when the items read so far run out. Each iteration starts again from the first page.
 */
public final class Pages implements Iterable<JsonNode> {
    private final Transport transport;
    private final String path;
    private final Map<String, ?> query;

    Pages(Transport transport, String path, Map<String, ?> query) {
        this.transport = transport;
        this.path = path;
        this.query = Map.copyOf(query);
    }

    @Override
    public Iterator<JsonNode> iterator() {
        return new Iterator<>() {
            private final Deque<JsonNode> buffered = new ArrayDeque<>();
            private String cursor;
            private boolean more = true;

            @Override
            public boolean hasNext() {
                while (buffered.isEmpty() && more) {
                    Map<String, Object> page = new LinkedHashMap<>(query);
                    if (cursor != null) {
                        page.put("cursor", cursor);
                    }
                    JsonNode list = transport.json(Transport.Call.get(path, page));
                    list.path("data").forEach(buffered::add);
                    JsonNode next = list.path("next_cursor");
                    cursor = next.isTextual() ? next.asText() : null;
                    more = list.path("has_more").asBoolean(false) && cursor != null;
                }
                return !buffered.isEmpty();
            }

            @Override
            public JsonNode next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                return buffered.removeFirst();
            }
        };
    }

    public Stream<JsonNode> stream() {
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(iterator(), Spliterator.ORDERED), false);
    }
}
