package com.agentwallet.adapters.http.error;

import com.agentwallet.core.common.Rejection;
import com.agentwallet.core.common.Result;
import com.agentwallet.core.policy.ViolationRule;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * The one place that decides how a refusal looks on the wire: each named rejection of the core
 * gets its status and code here, and every error answer gets the contract's body.
 */
public final class ErrorResponses {
    public static final String DOCS = "https://github.com/agent-wallet/agent-wallet/blob/main/docs/API.md#";
    /** Seconds a client waits before retrying a 503: a pool replaces a broken connection within one. */
    static final int RETRY_UNAVAILABLE_AFTER_SECONDS = 1;

    private ErrorResponses() {
    }

    /** The value of a use case's result, or the refusal thrown as the contract's error. */
    public static <T> T orThrow(Result<T> result) {
        if (result instanceof Result.Refused<T> refused) {
            throw of(refused.rejection());
        }
        return result.value();
    }

    public static ApiException of(Rejection rejection) {
        if (rejection instanceof Rejection.PolicyViolated violated) {
            boolean session = violated.violation().rule() == ViolationRule.SESSION_TOKEN;
            return ApiException.violation(session ? 401 : 422, violated.code(), violated.message(), violated.violation());
        }
        if (rejection instanceof Rejection.InvalidInput input) {
            return ApiException.validation(input.param(), input.message());
        }
        if (rejection instanceof Rejection.Forbidden forbidden) {
            return ApiException.forbidden(forbidden.required(), forbidden.message());
        }
        return ApiException.of(statusOf(rejection), rejection.code(), rejection.message());
    }

    private static int statusOf(Rejection rejection) {
        if (rejection instanceof Rejection.NotFound) {
            return 404;
        }
        if (rejection instanceof Rejection.SameCredential) {
            return 403;
        }
        if (rejection instanceof Rejection.InsufficientFunds || rejection instanceof Rejection.ProofMismatch) {
            return 422;
        }
        return 409;
    }

    /** The contract's body of an error, without its request id (which the response filter stamps on). */
    public static ErrorJson body(ApiException error) {
        return new ErrorJson(new ErrorJson.Detail(error.code(), error.getMessage(), DOCS + error.code(), null,
                error.param().orElse(null), error.requiredRole().map(role -> role.wireName()).orElse(null),
                error.violation().map(ErrorJson.ViolationJson::of).orElse(null)));
    }

    public static Response response(ApiException error) {
        ErrorJson body = body(error);
        Response.ResponseBuilder response = Response.status(error.status()).type(MediaType.APPLICATION_JSON_TYPE)
                .entity(body);
        if (error.status() == 503) {
            response.header("Retry-After", RETRY_UNAVAILABLE_AFTER_SECONDS);
        }
        return response.build();
    }
}
