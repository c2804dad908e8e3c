package com.agentwallet.adapters.http.error;

import com.agentwallet.core.policy.Violation;
import com.fasterxml.jackson.annotation.JsonInclude;

/** The error body of the contract; the request id is stamped on by the response filter. */
public record ErrorJson(Detail error) {

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Detail(String code, String message, String docs, String requestId, String param, String requiredRole,
                         ViolationJson violation) {
    }

    public record ViolationJson(String rule, String limit, String attempted) {
        public static ViolationJson of(Violation violation) {
            return new ViolationJson(violation.rule().wireName(), violation.limit(), violation.attempted());
        }
    }

    public ErrorJson withRequestId(String requestId) {
        return new ErrorJson(new Detail(error.code, error.message, error.docs, requestId, error.param, error.requiredRole,
                error.violation));
    }
}
