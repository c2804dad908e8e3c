package com.agentwallet.core.common;

import com.agentwallet.core.auth.Role;
import com.agentwallet.core.policy.Violation;

import java.time.Duration;
import java.time.Instant;

import static java.util.Objects.requireNonNull;

/**
 * Why a request was refused, by name. The driving adapters decide how each kind looks to their
 * callers (the HTTP adapter's error codes and statuses). A refused request changed nothing, except
 * that a policy violation is recorded as a {@code blocked} transaction (the contract asks for that).
 */
public sealed interface Rejection {

    String message();

    /** Answers {@code cases}' method for this kind of rejection. */
    <R> R match(Cases<R> cases);

    /**
     * One method per kind of rejection: what an adapter implements to answer every kind. Java 17 has
     * no pattern switch over a sealed type, so this is how the compiler names a kind an adapter forgot.
     */
    interface Cases<R> {
        R notFound(NotFound rejection);

        R invalidState(InvalidState rejection);

        R alreadyExists(AlreadyExists rejection);

        R idempotencyConflict(IdempotencyConflict rejection);

        R policyViolated(PolicyViolated rejection);

        R insufficientFunds(InsufficientFunds rejection);

        R proofMismatch(ProofMismatch rejection);

        R sameCredential(SameCredential rejection);

        R forbidden(Forbidden rejection);

        R invalidInput(InvalidInput rejection);

        R signInRefused(SignInRefused rejection);

        R accountLocked(AccountLocked rejection);
    }

    record NotFound(String resource, String id) implements Rejection {
        public NotFound {
            requireNonNull(resource, "resource is null");
            requireNonNull(id, "id is null");
        }

        @Override
        public String message() {
            return "No such " + resource + ": '" + id + "'";
        }

        @Override
        public <R> R match(Cases<R> cases) {
            return cases.notFound(this);
        }
    }

    record InvalidState(String message) implements Rejection {
        public InvalidState {
            requireNonNull(message, "message is null");
        }

        @Override
        public <R> R match(Cases<R> cases) {
            return cases.invalidState(this);
        }
    }

    record AlreadyExists(String message) implements Rejection {
        public AlreadyExists {
            requireNonNull(message, "message is null");
        }

        @Override
        public <R> R match(Cases<R> cases) {
            return cases.alreadyExists(this);
        }
    }

    record IdempotencyConflict(String key) implements Rejection {
        public IdempotencyConflict {
            requireNonNull(key, "key is null");
        }

        @Override
        public String message() {
            return "Idempotency key '" + key + "' was already used with a different request";
        }

        @Override
        public <R> R match(Cases<R> cases) {
            return cases.idempotencyConflict(this);
        }
    }

    /** A failed check of the enforcement order, the session-token check included. */
    record PolicyViolated(Violation violation) implements Rejection {
        public PolicyViolated {
            requireNonNull(violation, "violation is null");
        }

        @Override
        public String message() {
            return violation.describe();
        }

        @Override
        public <R> R match(Cases<R> cases) {
            return cases.policyViolated(this);
        }
    }

    record InsufficientFunds(String message) implements Rejection {
        public InsufficientFunds {
            requireNonNull(message, "message is null");
        }

        @Override
        public <R> R match(Cases<R> cases) {
            return cases.insufficientFunds(this);
        }
    }

    record ProofMismatch() implements Rejection {
        @Override
        public String message() {
            return "The proof does not match the escrow's expected proof; nothing was released";
        }

        @Override
        public <R> R match(Cases<R> cases) {
            return cases.proofMismatch(this);
        }
    }

    /** A co-signature or rejection by the very credential that made the payment: two credentials must agree. */
    record SameCredential() implements Rejection {
        @Override
        public String message() {
            return "The credential that made this payment cannot co-sign or reject it; use another operator's key";
        }

        @Override
        public <R> R match(Cases<R> cases) {
            return cases.sameCredential(this);
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
        public <R> R match(Cases<R> cases) {
            return cases.forbidden(this);
        }
    }

    /** Input that only turns out to be wrong against stored state, such as a co-signature by the wrong key. */
    record InvalidInput(String param, String message) implements Rejection {
        public InvalidInput {
            requireNonNull(param, "param is null");
            requireNonNull(message, "message is null");
        }

        @Override
        public <R> R match(Cases<R> cases) {
            return cases.invalidInput(this);
        }
    }

    /**
     * A dashboard sign-in with an unknown email or a wrong password: the same refusal for both, so that
     * it tells no one which emails have accounts. {@code slowDown} is how long to wait before answering.
     */
    record SignInRefused(Duration slowDown) implements Rejection {
        public SignInRefused {
            requireNonNull(slowDown, "slowDown is null");
        }

        @Override
        public String message() {
            return "Wrong email or password";
        }

        @Override
        public <R> R match(Cases<R> cases) {
            return cases.signInRefused(this);
        }
    }

    /** A dashboard sign-in to an account locked after repeated failures, even with the right password. */
    record AccountLocked(Instant until, Duration slowDown) implements Rejection {
        public AccountLocked {
            requireNonNull(until, "until is null");
            requireNonNull(slowDown, "slowDown is null");
        }

        @Override
        public String message() {
            return "Too many failed sign-ins: the account is locked; try again after " + until;
        }

        @Override
        public <R> R match(Cases<R> cases) {
            return cases.accountLocked(this);
        }
    }
}
