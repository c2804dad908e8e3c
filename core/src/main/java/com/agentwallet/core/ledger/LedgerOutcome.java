package com.agentwallet.core.ledger;

import static java.util.Objects.requireNonNull;

/** What the ledger said about a submitted instruction. */
public sealed interface LedgerOutcome {

    /** Executed and confirmed at {@code slot}. */
    record Confirmed(String signature, long slot) implements LedgerOutcome {
        public Confirmed {
            requireNonNull(signature, "signature is null");
        }
    }

    /** Definitely not executed: the program refused it ({@code code} names why); nothing moved. */
    record Rejected(String code, String message) implements LedgerOutcome {
        /**
         * Refused before sending: the recipient holds no token account of the ledger's USDC mint. None
         * is opened for it, since each would cost the service's fee payer the account's rent.
         */
        public static final String RECIPIENT_ACCOUNT_MISSING = "recipient_account_missing";

        public Rejected {
            requireNonNull(code, "code is null");
            requireNonNull(message, "message is null");
        }
    }

    /**
     * Not known yet: submitted but unconfirmed, or the ledger was unreachable. It may still land,
     * so the money stays where it is held and the operation is resubmitted (idempotently) later.
     */
    record Unknown(String reason) implements LedgerOutcome {
        public Unknown {
            requireNonNull(reason, "reason is null");
        }
    }
}
