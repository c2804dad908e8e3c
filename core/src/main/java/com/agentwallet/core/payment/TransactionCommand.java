package com.agentwallet.core.payment;

import static java.util.Objects.requireNonNull;

/** What can happen to a transaction after it was created. */
public sealed interface TransactionCommand {

    /** The operator's co-signature arrived (already verified against the co-signer's key). */
    record CoSigned(String signature) implements TransactionCommand {
        public CoSigned {
            requireNonNull(signature, "signature is null");
        }
    }

    /** The operator declined to co-sign. */
    record Reject(String reason) implements TransactionCommand {
        public Reject {
            requireNonNull(reason, "reason is null");
        }
    }

    /** The co-sign approval window is checked against the clock. */
    record ExpireCoSign() implements TransactionCommand {
    }

    /** The ledger confirmed the transaction. */
    record Confirm(String signature, long slot) implements TransactionCommand {
        public Confirm {
            requireNonNull(signature, "signature is null");
        }
    }

    /** The ledger definitely did not execute it. */
    record Fail(String reason) implements TransactionCommand {
        public Fail {
            requireNonNull(reason, "reason is null");
        }
    }
}
