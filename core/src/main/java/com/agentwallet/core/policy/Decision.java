package com.agentwallet.core.policy;

import static java.util.Objects.requireNonNull;

/** The policy engine's answer for one payment attempt. */
public sealed interface Decision {

    /** Every check passed and no co-signature is needed. */
    record Allowed() implements Decision {
        @Override
        public String wireName() {
            return "allowed";
        }
    }

    /** Every check passed; the payment waits for the operator's co-signature. */
    record NeedsCoSign(String coSigner) implements Decision {
        public NeedsCoSign {
            requireNonNull(coSigner, "coSigner is null");
        }

        @Override
        public String wireName() {
            return "needs_co_sign";
        }
    }

    /** A check failed; the first failure in enforcement order. */
    record Blocked(Violation violation) implements Decision {
        public Blocked {
            requireNonNull(violation, "violation is null");
        }

        @Override
        public String wireName() {
            return "blocked";
        }
    }

    /** The wire name used by dry runs. */
    String wireName();
}
