package com.agentwallet.client;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Sends one API call, retrying it on a network failure, a 5xx or a 429, and turns error bodies into
 * typed exceptions. Retrying any call is safe: a creating call carries an {@code Idempotency-Key} made
 * once per call, so the server answers a retry with what the first attempt made, and a state change
 * moves its state machine at most once, so a retry of one that took effect is a 409 {@code invalid_state}.
 */
record Transport(HttpClient http, URI baseUri, String credential, Duration timeout, int maxRetries) {
    static final ObjectMapper JSON = new ObjectMapper().registerModule(new SimpleModule()
            .addSerializer(BigDecimal.class, new PlainAmountSerializer()));

    private static final Duration BASE_DELAY = Duration.ofMillis(500);
    private static final Duration MAX_DELAY = Duration.ofSeconds(8);

    /** One API call; {@code body} is serialised with Jackson (null for none). */
    record Call(String method, String path, Map<String, ?> query, Object body, Map<String, String> headers) {
        static Call get(String path, Map<String, ?> query) {
            return new Call("GET", path, query, null, Map.of());
        }

        static Call write(String method, String path, Object body) {
            return new Call(method, path, Map.of(), body, Map.of());
        }

        /**
         * A POST that makes something, under the caller's {@code idempotencyKey} or, when null, a new
         * one; the call is built once and every retry sends it as it is, so all attempts share the key.
         */
        static Call create(String path, Object body, String idempotencyKey) {
            String key = idempotencyKey != null ? idempotencyKey : UUID.randomUUID().toString();
            return write("POST", path, body).withHeader("Idempotency-Key", key);
        }

        /** {@link #create(String, Object, String)} with the key taken out of {@code params}' {@code idempotencyKey}. */
        static Call create(String path, Map<String, ?> params) {
            if (params == null) {
                return create(path, null, null);
            }
            Map<String, Object> body = new LinkedHashMap<>(params);
            Object key = body.remove("idempotencyKey");
            return create(path, body, key == null ? null : key.toString());
        }

        Call withHeader(String name, String value) {
            Map<String, String> more = new LinkedHashMap<>(headers);
            more.put(name, value);
            return new Call(method, path, query, body, more);
        }
    }

    JsonNode json(Call call) {
        byte[] body = send(call).body();
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            throw new AgentWalletException("invalid_response", "the server's answer is not JSON", e);
        }
    }

    HttpResponse<byte[]> send(Call call) {
        HttpRequest request = build(call);
        for (int attempt = 0; ; attempt++) {
            HttpResponse<byte[]> response;
            try {
                response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
            } catch (IOException e) {
                if (attempt >= maxRetries) {
                    throw new AgentWalletException("network_error", call.method() + " " + call.path() + ": " + e, e);
                }
                pause(backoff(attempt));
                continue;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AgentWalletException("network_error", "interrupted", e);
            }
            int status = response.statusCode();
            if (status < 300) {
                return response;
            }
            Optional<Duration> retryAfter = retryAfter(response);
            boolean retriable = status == 429 || status >= 500;
            if (!retriable || attempt >= maxRetries) {
                throw Errors.of(response, retryAfter.orElse(null));
            }
            pause(retryAfter.isPresent() ? retryAfter.get() : backoff(attempt));
        }
    }

    private HttpRequest build(Call call) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(uri(call.path(), call.query()))
                .timeout(timeout)
                .header("Accept", "application/json")
                .header("Authorization", "Bearer " + credential);
        call.headers().forEach(builder::header);
        if (call.body() == null) {
            builder.method(call.method(), HttpRequest.BodyPublishers.noBody());
        } else {
            byte[] bytes;
            try {
                bytes = JSON.writeValueAsBytes(call.body());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            builder.header("Content-Type", "application/json")
                    .method(call.method(), HttpRequest.BodyPublishers.ofByteArray(bytes));
        }
        return builder.build();
    }

    private URI uri(String path, Map<String, ?> query) {
        StringJoiner params = new StringJoiner("&", "?", "").setEmptyValue("");
        query.forEach((name, value) -> {
            if (value != null) {
                params.add(encode(name) + "=" + encode(Amounts.wire(value)));
            }
        });
        String base = baseUri.toString().replaceAll("/+$", "");
        return URI.create(base + path + params);
    }

    static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    /** Full jitter: a uniform wait between zero and the exponential bound, so clients that failed together spread out. */
    private static Duration backoff(int attempt) {
        long bound = Math.min(MAX_DELAY.toMillis(), BASE_DELAY.toMillis() << Math.min(attempt, 20));
        return Duration.ofMillis(ThreadLocalRandom.current().nextLong(bound + 1));
    }

    private static Optional<Duration> retryAfter(HttpResponse<?> response) {
        return response.headers().firstValue("Retry-After").flatMap(value -> {
            try {
                return Optional.of(Duration.ofSeconds(Math.max(0, Long.parseLong(value.trim()))));
            } catch (NumberFormatException e) {
                return Optional.empty();
            }
        });
    }

    private static void pause(Duration delay) {
        try {
            Thread.sleep(delay.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AgentWalletException("network_error", "interrupted while waiting to retry", e);
        }
    }

    /** Amounts go out as JSON strings in plain notation: the API refuses JSON numbers and exponents. */
    private static final class PlainAmountSerializer extends StdSerializer<BigDecimal> {
        private static final long serialVersionUID = 1L;

        PlainAmountSerializer() {
            super(BigDecimal.class);
        }

        @Override
        public void serialize(BigDecimal value, JsonGenerator gen, SerializerProvider provider) throws IOException {
            gen.writeString(value.toPlainString());
        }
    }
}
