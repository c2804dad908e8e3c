package com.agentwallet.edge.error;

import com.agentwallet.core.policy.Violation;
import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * The error body of the contract, the same for every door into the service (/v1 and /mcp); the
 * request id is stamped on by whoever answers.
 */
public record ErrorJson(Detail error) {
    /** An error with only a code and a message, such as a refused credential; {@code docs} makes its link. */
    public static ErrorJson of(ErrorDocs docs, String code, String message, String requestId) {
        return new ErrorJson(new Detail(code, message, docs.link(code), requestId, null, null, null));
    }

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
