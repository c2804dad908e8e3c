package com.agentwallet.core.port;

/**
 * The ledger did not confirm an administrative instruction (opening a wallet, writing a policy,
 * changing a wallet's status). Thrown inside the database transaction, so the change is not kept;
 * the request can be retried, and the instruction is idempotent.
 */
public final class LedgerUnavailableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public LedgerUnavailableException(String message) {
        super(message);
    }
}
