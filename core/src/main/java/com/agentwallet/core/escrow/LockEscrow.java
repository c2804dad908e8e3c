package com.agentwallet.core.escrow;

import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.policy.PolicyRules;
import com.agentwallet.core.policy.SessionGrant;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Lock funds of {@code fromWallet} for another agent. {@code toWallet} is a wallet id of this
 * service (any organisation) or a ledger address; {@code expectedProof}, when given, is the only
 * proof that releases the funds.
 */
public record LockEscrow(OrgId orgId, WalletId fromWallet, String toWallet, Usdc amount, String taskDescription,
                         long timeoutSeconds, Optional<String> expectedProof, Optional<SessionGrant> session) {
    public LockEscrow {
        requireNonNull(orgId, "orgId is null");
        requireNonNull(fromWallet, "fromWallet is null");
        ValidationException.check(PolicyRules.isRecipient(toWallet), "to_wallet",
                "'to_wallet' must be a wallet id or a ledger address");
        requireNonNull(amount, "amount is null");
        ValidationException.check(!amount.isZero(), "amount", "'amount' must be greater than zero");
        Escrow.requireTaskDescription(taskDescription);
        Escrow.requireTimeout(timeoutSeconds);
        requireNonNull(expectedProof, "expectedProof is null");
        expectedProof.ifPresent(proof -> Proof.requireHash(proof, "expected_proof"));
        requireNonNull(session, "session is null");
    }
}
