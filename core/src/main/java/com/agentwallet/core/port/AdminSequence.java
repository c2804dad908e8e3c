package com.agentwallet.core.port;

/**
 * The order of administrative writes to the ledger (a policy, a session key, a wallet's status):
 * each takes the next number, which the chain requires to be above the last one written to the same
 * account, so that a write landing late cannot roll a newer one back. Numbers are never given twice,
 * not even after a rollback, and increase across every server sharing the books.
 */
public interface AdminSequence {
    long next();
}
