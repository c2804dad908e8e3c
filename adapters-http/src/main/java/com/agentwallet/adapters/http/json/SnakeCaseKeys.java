package com.agentwallet.adapters.http.json;

import com.agentwallet.adapters.http.error.ApiException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.ext.ReaderInterceptor;
import jakarta.ws.rs.ext.ReaderInterceptorContext;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
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
 * null: each endpoint decides whether it needs one. Numbers pass the rewrite exactly as sent: a
 * fraction is read as a decimal, not a double, so {@code 1e400} stays a number (a double would be
 * written back as the string "Infinity") and {@code 3.0} stays a fraction. The body must be UTF-8:
 * it is decoded strictly first, because Jackson would take some invalid sequences (the overlong
 * {@code C0 AE}) for characters (a '.'). A body whose keys are all snake_case already goes on as it
 * was sent, not written again.
 */
public final class SnakeCaseKeys implements ReaderInterceptor {
    /** The request property naming the top-level fields the body sent: how PATCH tells "left out" from "null". */
    public static final String FIELDS_PROPERTY = "agentwallet.body_fields";
    /** Bytes of a body read at a time. */
    private static final int CHUNK = 512;

    private final ObjectMapper mapper;
    private final ObjectReader exactNumbers;

    public SnakeCaseKeys(ObjectMapper mapper) {
        this.mapper = requireNonNull(mapper, "mapper is null");
        this.exactNumbers = mapper.reader(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .without(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES);
    }

    @Override
    public Object aroundReadFrom(ReaderInterceptorContext context) throws IOException {
        if (!MediaType.APPLICATION_JSON_TYPE.isCompatible(context.getMediaType())) {
            return context.proceed();
        }
        byte[] body = readBody(context.getInputStream());
        if (body.length == 0) {
            return null;
        }
        JsonNode sent = read(body);
        JsonNode normalised = normalise(sent, "");
        Set<String> fields = new HashSet<>();
        normalised.fieldNames().forEachRemaining(fields::add);
        context.setProperty(FIELDS_PROPERTY, Set.copyOf(fields));
        context.setInputStream(new ByteArrayInputStream(normalised.equals(sent) ? body
                : mapper.writeValueAsBytes(normalised)));
        return context.proceed();
    }

    /**
     * The body's bytes, read {@link #CHUNK} at a time: request bodies are small, and
     * {@code readAllBytes} takes 8 KiB for any.
     */
    private static byte[] readBody(InputStream in) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream(CHUNK);
        byte[] chunk = new byte[CHUNK];
        for (int read = in.read(chunk); read != -1; read = in.read(chunk)) {
            body.write(chunk, 0, read);
        }
        return body.toByteArray();
    }

    /** The body's JSON, its numbers exact; a body that is not UTF-8 or not JSON is a 400 naming {@code body}. */
    JsonNode read(byte[] body) {
        try {
            return exactNumbers.readTree(utf8(body));
        } catch (JsonProcessingException e) {
            throw ApiException.validation("body", "The request body is not valid JSON: " + e.getOriginalMessage());
        }
    }

    private static String utf8(byte[] body) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(body)).toString();
        } catch (CharacterCodingException e) {
            throw ApiException.validation("body", "The request body is not valid UTF-8");
        }
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
