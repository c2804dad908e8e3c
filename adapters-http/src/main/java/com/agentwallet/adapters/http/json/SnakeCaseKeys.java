package com.agentwallet.adapters.http.json;

import com.agentwallet.adapters.http.error.ApiException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.ext.ReaderInterceptor;
import jakarta.ws.rs.ext.ReaderInterceptorContext;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * Request bodies accept the spec's camelCase names beside the wire's snake_case: before binding,
 * every object key is rewritten to snake_case ({@code maxPerTx} to {@code max_per_tx}). Sending one
 * field under both spellings is a validation error, not a silent pick. An empty body binds to
 * null: each endpoint decides whether it needs one.
 */
public final class SnakeCaseKeys implements ReaderInterceptor {
    /** The request property naming the top-level fields the body sent: how PATCH tells "left out" from "null". */
    public static final String FIELDS_PROPERTY = "agentwallet.body_fields";

    private final ObjectMapper mapper;

    public SnakeCaseKeys(ObjectMapper mapper) {
        this.mapper = requireNonNull(mapper, "mapper is null");
    }

    @Override
    public Object aroundReadFrom(ReaderInterceptorContext context) throws IOException {
        if (!MediaType.APPLICATION_JSON_TYPE.isCompatible(context.getMediaType())) {
            return context.proceed();
        }
        byte[] body = context.getInputStream().readAllBytes();
        if (body.length == 0) {
            return null;
        }
        JsonNode tree;
        try {
            tree = mapper.readTree(body);
        } catch (JsonProcessingException e) {
            throw ApiException.validation("body", "The request body is not valid JSON: " + e.getOriginalMessage());
        }
        JsonNode normalised = normalise(tree, "");
        Set<String> fields = new HashSet<>();
        normalised.fieldNames().forEachRemaining(fields::add);
        context.setProperty(FIELDS_PROPERTY, Set.copyOf(fields));
        context.setInputStream(new ByteArrayInputStream(mapper.writeValueAsBytes(normalised)));
        return context.proceed();
    }

    static JsonNode normalise(JsonNode node, String path) {
        if (node instanceof ObjectNode object) {
            ObjectNode renamed = object.objectNode();
            List<Map.Entry<String, JsonNode>> fields = new ArrayList<>();
            object.fields().forEachRemaining(fields::add);
            for (Map.Entry<String, JsonNode> field : fields) {
                String name = snakeCase(field.getKey());
                String fieldPath = path.isEmpty() ? name : path + "." + name;
                if (renamed.has(name)) {
                    throw ApiException.validation(fieldPath, "The field '" + fieldPath
                            + "' is given twice (in camelCase and in snake_case)");
                }
                renamed.set(name, normalise(field.getValue(), fieldPath));
            }
            return renamed;
        }
        if (node instanceof ArrayNode array) {
            ArrayNode renamed = array.arrayNode();
            for (int i = 0; i < array.size(); i++) {
                renamed.add(normalise(array.get(i), path + "[" + i + "]"));
            }
            return renamed;
        }
        return node;
    }

    /** {@code walletId} to {@code wallet_id}; a name without capitals is left as it is. */
    public static String snakeCase(String name) {
        StringBuilder out = new StringBuilder(name.length() + 4);
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (Character.isUpperCase(c)) {
                if (i > 0) {
                    out.append('_');
                }
                out.append(Character.toLowerCase(c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
