package com.agentwallet.bootstrap.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.Optional;

/**
 * An answer of the API: status, headers, the raw body and (when it is JSON) the parsed one. Every
 * answer is made here, and each is first checked against the OpenAPI document ({@link OpenApiContract}).
 */
public record ApiResponse(int status, HttpResponseHeaders headers, String raw, JsonNode json) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Header access without the JDK type in the record's shape. */
    public record HttpResponseHeaders(java.net.http.HttpHeaders headers) {
        public Optional<String> first(String name) {
            return headers.firstValue(name);
        }
    }

    static ApiResponse of(HttpResponse<String> response) {
        String target = response.request().uri().getRawPath()
                + (response.request().uri().getRawQuery() == null ? "" : "?" + response.request().uri().getRawQuery());
        return of(response.request().method(), target, response.statusCode(), response.headers(), response.body());
    }

    /**
     * The answer to {@code method target} (the request line's method and path), read some other way
     * too (off a raw socket), its body parsed when it is JSON.
     */
    static ApiResponse of(String method, String target, int status, java.net.http.HttpHeaders headers, String body) {
        OpenApiContract.SERVED.check(method, target, status, headers, body);
        JsonNode json;
        try {
            json = body.isEmpty() ? MissingNode.getInstance() : JSON.readTree(body);
        } catch (IOException e) {
            json = MissingNode.getInstance();
        }
        return new ApiResponse(status, new HttpResponseHeaders(headers), body, json);
    }

    public Optional<String> header(String name) {
        return headers.first(name);
    }

    /** A top-level text field of the body. */
    public String text(String field) {
        return json.path(field).asText();
    }

    /** The {@code error.code} of an error body. */
    public String errorCode() {
        return json.path("error").path("code").asText();
    }

    @Override
    public String toString() {
        return status + " " + raw;
    }
}
