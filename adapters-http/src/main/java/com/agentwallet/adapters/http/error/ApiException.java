package com.agentwallet.adapters.http.error;

import com.agentwallet.core.auth.Role;
import com.agentwallet.core.policy.Violation;
import com.agentwallet.edge.error.ErrorCatalogue;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * An error answer of the contract: the status, the code, a message for people and, where the
 * contract asks for them, the parameter at fault, the role that would do, or the policy violation.
 * Thrown by resources and filters; {@link ErrorResponses} turns it into the response body. Its code
 * must be one of {@link ErrorCatalogue}, which the error docs page is made of.
 */
public final class ApiException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int status;
    private final String code;
    private final transient Optional<String> param;
    private final transient Optional<Role> requiredRole;
    private final transient Optional<Violation> violation;

    private ApiException(int status, String code, String message, Optional<String> param, Optional<Role> requiredRole,
                         Optional<Violation> violation) {
        super(requireNonNull(message, "message is null"), null, false, false);
        this.status = status;
        this.code = ErrorCatalogue.require(requireNonNull(code, "code is null"));
        this.param = requireNonNull(param, "param is null");
        this.requiredRole = requireNonNull(requiredRole, "requiredRole is null");
        this.violation = requireNonNull(violation, "violation is null");
    }

    public static ApiException of(int status, String code, String message) {
        return new ApiException(status, code, message, Optional.empty(), Optional.empty(), Optional.empty());
    }

    public static ApiException validation(String param, String message) {
        return new ApiException(400, "validation_error", message, Optional.of(param), Optional.empty(), Optional.empty());
    }

    public static ApiException forbidden(Role requiredRole) {
        return new ApiException(403, "insufficient_permissions", "This API key's role cannot do this; it needs the role '"
                + requiredRole.wireName() + "' or above", Optional.empty(), Optional.of(requiredRole), Optional.empty());
    }

    /**
     * A 403 for a party to a resource that may not do this to it, naming the lowest API-key role, of
     * a side that may, that would.
     */
    public static ApiException forbidden(Role requiredRole, String message) {
        return new ApiException(403, "insufficient_permissions", message, Optional.empty(), Optional.of(requiredRole),
                Optional.empty());
    }

    /** A 403 for a session token on an endpoint only API keys may call, naming the lowest key role that would do. */
    public static ApiException forbiddenToAgents(Role requiredRole) {
        return forbidden(requiredRole, "A session token only reads its own wallet and pays from it; this needs an "
                + "API key with the role '" + requiredRole.wireName() + "' or above");
    }

    /** A 404 for a path no endpoint serves. */
    public static ApiException noSuchEndpoint() {
        return of(404, "not_found", "No such endpoint");
    }

    /** A failure on our side, answered with {@code status} (a 5xx) and no detail beyond the request id. */
    public static ApiException internalError(int status) {
        return of(status, "internal_error", "Something went wrong on our side; the request id helps us find it");
    }

    /** A 503: the service could not complete the request for now; the answer carries {@code Retry-After}. */
    public static ApiException unavailable(String message) {
        return of(503, "service_unavailable", message);
    }

    public static ApiException violation(int status, String code, String message, Violation violation) {
        return new ApiException(status, code, message, Optional.empty(), Optional.empty(), Optional.of(violation));
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }

    public Optional<String> param() {
        return param;
    }

    public Optional<Role> requiredRole() {
        return requiredRole;
    }

    public Optional<Violation> violation() {
        return violation;
    }
}
