package com.agentwallet.adapters.http.error;

import com.agentwallet.core.common.Rejection;
import com.agentwallet.core.common.Result;
import com.agentwallet.core.policy.ViolationRule;
import com.agentwallet.edge.error.ErrorDocs;
import com.agentwallet.edge.error.ErrorJson;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * The one place that decides how a refusal looks on the wire: each named rejection of the core
 * gets its status and code here, and every error answer gets the contract's body.
 */
public final class ErrorResponses {
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

    /** The contract's status, code and body fields of each kind of refusal (docs/API.md, "Errors"). */
    public static ApiException of(Rejection rejection) {
        return rejection.match(TO_API_EXCEPTION);
    }

    private static final Rejection.Cases<ApiException> TO_API_EXCEPTION = new Rejection.Cases<>() {
        @Override
        public ApiException notFound(Rejection.NotFound rejection) {
            return ApiException.of(404, "not_found", rejection.message());
        }

        @Override
        public ApiException invalidState(Rejection.InvalidState rejection) {
            return ApiException.of(409, "invalid_state", rejection.message());
        }

        @Override
        public ApiException alreadyExists(Rejection.AlreadyExists rejection) {
            return ApiException.of(409, "already_exists", rejection.message());
        }

        @Override
        public ApiException idempotencyConflict(Rejection.IdempotencyConflict rejection) {
            return ApiException.of(409, "idempotency_conflict", rejection.message());
        }

        /** A bad session token is an authentication failure of its own, though it is checked like any rule. */
        @Override
        public ApiException policyViolated(Rejection.PolicyViolated rejection) {
            boolean session = rejection.violation().rule() == ViolationRule.SESSION_TOKEN;
            return ApiException.violation(session ? 401 : 422, session ? "session_token_invalid" : "policy_violation",
                    rejection.message(), rejection.violation());
        }

        @Override
        public ApiException insufficientFunds(Rejection.InsufficientFunds rejection) {
            return ApiException.of(422, "insufficient_funds", rejection.message());
        }

        @Override
        public ApiException proofMismatch(Rejection.ProofMismatch rejection) {
            return ApiException.of(422, "proof_mismatch", rejection.message());
        }

        @Override
        public ApiException sameCredential(Rejection.SameCredential rejection) {
            return ApiException.of(403, "same_credential", rejection.message());
        }

        @Override
        public ApiException forbidden(Rejection.Forbidden rejection) {
            return ApiException.forbidden(rejection.required(), rejection.message());
        }

        @Override
        public ApiException invalidInput(Rejection.InvalidInput rejection) {
            return ApiException.validation(rejection.param(), rejection.message());
        }

        @Override
        public ApiException signInRefused(Rejection.SignInRefused rejection) {
            return ApiException.of(401, "authentication_failed", rejection.message());
        }

        @Override
        public ApiException accountLocked(Rejection.AccountLocked rejection) {
            return ApiException.of(429, "rate_limit_exceeded", rejection.message());
        }
    };

    /**
     * The contract's body of an error, its {@code docs} link made by {@code docs}, without its request
     * id (which the response filter stamps on).
     */
    public static ErrorJson body(ApiException error, ErrorDocs docs) {
        return new ErrorJson(new ErrorJson.Detail(error.code(), error.getMessage(), docs.link(error.code()), null,
                error.param().orElse(null), error.requiredRole().map(role -> role.wireName()).orElse(null),
                error.violation().map(ErrorJson.ViolationJson::of).orElse(null)));
    }

    public static Response response(ApiException error, ErrorDocs docs) {
        ErrorJson body = body(error, docs);
        Response.ResponseBuilder response = Response.status(error.status()).type(MediaType.APPLICATION_JSON_TYPE)
                .entity(body);
        if (error.status() == 503) {
            response.header("Retry-After", RETRY_UNAVAILABLE_AFTER_SECONDS);
        }
        return response.build();
    }
}
