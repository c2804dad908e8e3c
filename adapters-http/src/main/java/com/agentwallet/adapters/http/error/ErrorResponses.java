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

    public static Response response(ApiException error) {
        ErrorJson body = new ErrorJson(new ErrorJson.Detail(error.code(), error.getMessage(), DOCS + error.code(), null,
                error.param().orElse(null), error.requiredRole().map(role -> role.wireName()).orElse(null),
                error.violation().map(ErrorJson.ViolationJson::of).orElse(null)));
        return Response.status(error.status()).type(MediaType.APPLICATION_JSON_TYPE).entity(body).build();
    }
}
