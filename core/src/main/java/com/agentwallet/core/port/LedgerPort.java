package com.agentwallet.core.port;

import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.ledger.LedgerAccount;
import com.agentwallet.core.ledger.LedgerAddress;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.ledger.LedgerOutcome;
import com.agentwallet.core.money.Usdc;

/**
 * The ledger and the on-chain wallet program. Implementations are plugins (the simulator, Solana)
 * chosen by configuration. Every submission is idempotent by its operation id.
 */
public interface LedgerPort {

    /** The wallet's program-derived address; deterministic in the organisation and agent ids. */
    LedgerAddress walletAddress(OrgId orgId, String agentId);

    /** Submits one instruction and waits for it to confirm, up to the adapter's timeout. */
    LedgerOutcome submit(LedgerInstruction instruction);

    /** The exact bytes an operator signs to co-sign {@code payment} (the serialised ledger message). */
    byte[] coSignMessage(LedgerInstruction.Pay payment);

    /**
     * The co-signed payment of {@code operationId}, whose message was asked for, ends without being
     * submitted (the operator rejected it, or it expired): what its message set aside on the ledger
     * can go. Best effort: the payment has ended whatever happens here.
     */
    void coSignAbandoned(String operationId);

    /** The ledger's current slot. */
    long currentSlot();

    /** What the ledger holds in an account; zero for an account that does not exist. */
    Usdc balance(LedgerAccount account);
}
