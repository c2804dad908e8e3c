package com.agentwallet.client;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Reads the contract's error body into the exception type a caller catches. */
final class Errors {
    private Errors() {
    }

    static AgentWalletException of(HttpResponse<byte[]> response, Duration retryAfter) {
        int status = response.statusCode();
        JsonNode error;
        try {
            error = Transport.JSON.readTree(response.body()).path("error");
        } catch (IOException e) {
            error = Transport.JSON.missingNode();
        }
        String code = text(error, "code", "http_" + status);
        String message = text(error, "message", "HTTP " + status);
        String requestId = text(error, "request_id", response.headers().firstValue("Request-Id").orElse(null));
        JsonNode violation = error.path("violation");
        if (violation.isObject()) {
            return new PolicyViolationException(code, message, requestId, status, new Violation(
                    text(violation, "rule", null), text(violation, "limit", null), text(violation, "attempted", null)));
        }
        return switch (status) {
            case 400 -> new InvalidRequestException(code, message, requestId, status, text(error, "param", null));
            case 401 -> new AuthenticationException(code, message, requestId, status);
            case 403 -> new PermissionException(code, message, requestId, status, text(error, "required_role", null));
            case 404 -> new NotFoundException(code, message, requestId, status);
            case 409 -> new ConflictException(code, message, requestId, status);
            case 429 -> new RateLimitException(code, message, requestId, status, retryAfter);
            default -> new AgentWalletException(code, message, requestId, status);
        };
    }

    private static String text(JsonNode node, String name, String fallback) {
        JsonNode value = node.path(name);
        return value.isValueNode() && !value.isNull() ? value.asText() : fallback;
    }
}
