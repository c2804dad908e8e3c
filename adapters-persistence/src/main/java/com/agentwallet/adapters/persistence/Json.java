package com.agentwallet.adapters.persistence;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.util.List;
import java.util.Map;

/** JSON columns (event bodies, audit diffs): plain maps, lists, strings, numbers and booleans. */
final class Json {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private Json() {
    }

    static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not serialisable as JSON: " + value, e);
        }
    }

    static List<Map<String, Object>> readListOfMaps(String json) {
        return read(json, new TypeReference<>() {
        });
    }

    static Map<String, Object> readMap(String json) {
        return read(json, new TypeReference<>() {
        });
    }

    private static <T> T read(String json, TypeReference<T> type) {
        try {
            return MAPPER.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored JSON is unreadable: " + json, e);
        }
    }
}
