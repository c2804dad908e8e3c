package com.agentwallet.adapters.http.resource;

import com.agentwallet.adapters.http.auth.Caller;
import com.agentwallet.adapters.http.error.ApiException;
import com.agentwallet.core.crypto.Hashing;
import com.agentwallet.core.idempotency.RequestKey;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Response;

import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The {@code Idempotency-Key} header of the creating requests. Two requests are the same for a key
 * when they have the same path and the same body as parsed (its fields in their declared order, and
 * which of them were sent, since a field sent as null may mean something else than one left out), so
 * neither key order nor spacing in the JSON makes a retry look like another request.
 */
final class IdempotencyKeyHeader {
    static final String NAME = "Idempotency-Key";
    private static final ObjectMapper CANONICAL = new ObjectMapper();

    private IdempotencyKeyHeader() {
    }

    /** The request's key, or none when it sent no header. */
    static RequestKey of(Caller caller, ContainerRequestContext request, Object body) {
        String key = request.getHeaderString(NAME);
        if (key == null) {
            return RequestKey.none();
        }
        return RequestKey.of(caller.orgId(), key, fingerprint(request.getUriInfo().getPath(),
                new TreeSet<>(Bodies.sent(request)), body), NAME);
    }

    /**
     * The key of a payment: the header or the body's {@code idempotency_key}, which must agree when
     * both are sent.
     */
    static Optional<String> ofPayment(ContainerRequestContext request, String inBody) {
        String header = request.getHeaderString(NAME);
        if (header != null && inBody != null && !header.equals(inBody)) {
            throw ApiException.validation("idempotency_key",
                    "'idempotency_key' and the Idempotency-Key header differ; send one of them, or the same key in both");
        }
        return Optional.ofNullable(header != null ? header : inBody);
    }

    /** 200 with {@code entity}, marked {@code Idempotent-Replayed: true} when the key's first use answered it. */
    static Response answer(RequestKey key, Object entity) {
        return answer(key, Response.ok(entity));
    }

    /** {@code response}, marked {@code Idempotent-Replayed: true} when the key's first use answered it. */
    static Response answer(RequestKey key, Response.ResponseBuilder response) {
        return (key.replayed() ? response.header(PaymentResource.IDEMPOTENT_REPLAYED, "true") : response).build();
    }

    private static String fingerprint(String path, Set<String> sent, Object body) {
        try {
            return Hashing.sha256Hex(path + "\n" + String.join(",", sent) + "\n" + CANONICAL.writeValueAsString(body));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a parsed request body could not be written back as JSON", e);
        }
    }
}
