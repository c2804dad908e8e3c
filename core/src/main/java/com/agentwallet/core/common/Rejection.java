package com.agentwallet.core.common;

import com.agentwallet.core.auth.Role;
import com.agentwallet.core.policy.Violation;

import static java.util.Objects.requireNonNull;

/**
 * Why a request was refused, by name. Each kind maps to one error code of the contract; the HTTP
 * adapter owns the mapping to status codes. A refused request changed nothing, except that a
 * policy violation is recorded as a {@code blocked} transaction (the contract asks for that).
 */
public sealed interface Rejection {

    /** The contract's error code. */
    String code();

    String message();

    record NotFound(String resource, String id) implements Rejection {
        public NotFound {
            requireNonNull(resource, "resource is null");
            requireNonNull(id, "id is null");
        }

        @Override
        public String code() {
            return "not_found";
        }

        @Override
        public String message() {
            return "No such " + resource + ": '" + id + "'";
        }
    }

    record InvalidState(String message) implements Rejection {
        public InvalidState {
            requireNonNull(message, "message is null");
        }

        @Override
        public String code() {
            return "invalid_state";
        }
    }

    record AlreadyExists(String message) implements Rejection {
        public AlreadyExists {
            requireNonNull(message, "message is null");
        }

        @Override
        public String code() {
            return "already_exists";
        }
    }

    record IdempotencyConflict(String key) implements Rejection {
        public IdempotencyConflict {
            requireNonNull(key, "key is null");
        }

        @Override
        public String code() {
            return "idempotency_conflict";
        }

        @Override
        public String message() {
            return "Idempotency key '" + key + "' was already used with a different request";
        }
    }

    /** A failed check of the enforcement order; the session-token check has a code of its own. */
    record PolicyViolated(Violation violation) implements Rejection {
        public PolicyViolated {
            requireNonNull(violation, "violation is null");
        }

        @Override
        public String code() {
            return violation.rule().errorCode();
        }

        @Override
        public String message() {
            return violation.describe();
        }
    }

    record InsufficientFunds(String message) implements Rejection {
        public InsufficientFunds {
            requireNonNull(message, "message is null");
        }

        @Override
        public String code() {
            return "insufficient_funds";
        }
    }

    record ProofMismatch() implements Rejection {
        @Override
        public String code() {
            return "proof_mismatch";
        }

        @Override
        public String message() {
            return "The proof does not match the escrow's expected proof; nothing was released";
        }
    }

    /** A co-signature or rejection by the very credential that made the payment: two credentials must agree. */
    record SameCredential() implements Rejection {
        @Override
        public String code() {
            return "same_credential";
        }

        @Override
        public String message() {
            return "The credential that made this payment cannot co-sign or reject it; use another operator's key";
        }
    }

    /**
     * A party to the resource that may not do this to it, such as an agent disputing an escrow it
     * receives; {@code required} is the lowest API-key role, of the side that may, that would do.
     */
    record Forbidden(Role required, String message) implements Rejection {
        public Forbidden {
            requireNonNull(required, "required is null");
            requireNonNull(message, "message is null");
        }

        @Override
        public String code() {
            return "insufficient_permissions";
        }
    }

    /** Input that only turns out to be wrong against stored state, such as a co-signature by the wrong key. */
    record InvalidInput(String param, String message) implements Rejection {
        public InvalidInput {
            requireNonNull(param, "param is null");
            requireNonNull(message, "message is null");
        }

        @Override
        public String code() {
            return "validation_error";
        }
    }
}
