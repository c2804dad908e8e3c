package com.agentwallet.core.ledger;

import com.agentwallet.core.id.EscrowId;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.PolicyId;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.policy.PolicyRules;
import com.agentwallet.core.wallet.WalletStatus;

import java.time.Instant;
import java.util.Optional;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * One instruction to the on-chain wallet program. Each carries an {@code operationId}: submitting
 * the same operation again returns the first outcome and never moves money twice, which is what
 * makes crash recovery a plain resubmission.
 */
public sealed interface LedgerInstruction {

    String operationId();

    /** An administrative write's sequence: positive, as the program reads it as unsigned. */
    private static void requirePositive(long sequence) {
        if (sequence <= 0) {
            throw new IllegalArgumentException("an administrative write's sequence is positive: " + sequence);
        }
    }

    /** Creates the wallet account and its token account at the wallet's program-derived address. */
    record OpenWallet(String operationId, LedgerAddress wallet, OrgId orgId, String agentId, PolicyId policy)
            implements LedgerInstruction {
        public OpenWallet {
            requireNonNull(operationId, "operationId is null");
            requireNonNull(wallet, "wallet is null");
            requireNonNull(orgId, "orgId is null");
            requireNonNull(agentId, "agentId is null");
            requireNonNull(policy, "policy is null");
        }
    }

    /**
     * Writes the chain's copy of a policy; categories arrive resolved to the recipients they block.
     * {@code sequence} is the write's {@link com.agentwallet.core.port.AdminSequence} number.
     */
    record WritePolicy(String operationId, OrgId orgId, PolicyId policy, long sequence, PolicyRules rules,
                       Set<String> blockedRecipients) implements LedgerInstruction {
        public WritePolicy {
            requireNonNull(operationId, "operationId is null");
            requireNonNull(orgId, "orgId is null");
            requireNonNull(policy, "policy is null");
            requireNonNull(rules, "rules is null");
            blockedRecipients = Set.copyOf(blockedRecipients);
            requirePositive(sequence);
        }
    }

    /**
     * Writes the public key of the wallet's session {@code version} on chain, valid until
     * {@code expiresAt}: the key that must sign the wallet's payments and escrow locks. A new version
     * replaces the old key at once, which is how rotating the session token revokes it on chain too.
     * {@code sequence} is the write's {@link com.agentwallet.core.port.AdminSequence} number.
     */
    record SetSessionKey(String operationId, LedgerAddress wallet, long version, Instant expiresAt, long sequence)
            implements LedgerInstruction {
        public SetSessionKey {
            requireNonNull(operationId, "operationId is null");
            requireNonNull(wallet, "wallet is null");
            requireNonNull(expiresAt, "expiresAt is null");
            if (version < 0) {
                throw new IllegalArgumentException("a session version is not negative: " + version);
            }
            requirePositive(sequence);
        }
    }

    /**
     * Sets a wallet's status and attached policy on chain; {@code sequence} is the write's
     * {@link com.agentwallet.core.port.AdminSequence} number.
     */
    record UpdateWallet(String operationId, LedgerAddress wallet, WalletStatus status, PolicyId policy, long sequence)
            implements LedgerInstruction {
        public UpdateWallet {
            requireNonNull(operationId, "operationId is null");
            requireNonNull(wallet, "wallet is null");
            requireNonNull(status, "status is null");
            requirePositive(sequence);
            requireNonNull(policy, "policy is null");
        }
    }

    /** New USDC arrives in the organisation's treasury (a deposit; simulator mode and operator tooling). */
    record Deposit(String operationId, OrgId orgId, Usdc amount) implements LedgerInstruction {
        public Deposit {
            requireNonNull(operationId, "operationId is null");
            requireNonNull(orgId, "orgId is null");
            requireNonNull(amount, "amount is null");
        }
    }

    /** Organisation treasury to wallet. */
    record Fund(String operationId, OrgId orgId, LedgerAddress wallet, Usdc amount) implements LedgerInstruction {
        public Fund {
            requireNonNull(operationId, "operationId is null");
            requireNonNull(orgId, "orgId is null");
            requireNonNull(wallet, "wallet is null");
            requireNonNull(amount, "amount is null");
        }
    }

    /** Wallet back to the organisation treasury. */
    record Withdraw(String operationId, OrgId orgId, LedgerAddress wallet, Usdc amount) implements LedgerInstruction {
        public Withdraw {
            requireNonNull(operationId, "operationId is null");
            requireNonNull(orgId, "orgId is null");
            requireNonNull(wallet, "wallet is null");
            requireNonNull(amount, "amount is null");
        }
    }

    /**
     * A payment, signed by the key of the wallet's session {@code sessionVersion} and checked by the
     * program against its copy of the policy; at or above the threshold with the co-signature.
     */
    record Pay(String operationId, LedgerAddress wallet, String recipient, Usdc amount, Instant requestedAt,
               long sessionVersion, Optional<String> coSignature) implements LedgerInstruction {
        public Pay {
            requireNonNull(operationId, "operationId is null");
            requireNonNull(wallet, "wallet is null");
            requireNonNull(recipient, "recipient is null");
            requireNonNull(amount, "amount is null");
            requireNonNull(requestedAt, "requestedAt is null");
            requireNonNull(coSignature, "coSignature is null");
        }

        public Pay withCoSignature(String signature) {
            return new Pay(operationId, wallet, recipient, amount, requestedAt, sessionVersion, Optional.of(signature));
        }
    }

    /** Moves funds from the wallet into the escrow's vault, signed by the key of the wallet's session. */
    record EscrowLock(String operationId, EscrowId escrow, LedgerAddress wallet, String receiver, Usdc amount,
                      Instant deadline, Optional<String> expectedProof, long sessionVersion)
            implements LedgerInstruction {
        public EscrowLock {
            requireNonNull(operationId, "operationId is null");
            requireNonNull(escrow, "escrow is null");
            requireNonNull(wallet, "wallet is null");
            requireNonNull(receiver, "receiver is null");
            requireNonNull(amount, "amount is null");
            requireNonNull(deadline, "deadline is null");
            requireNonNull(expectedProof, "expectedProof is null");
        }
    }

    /**
     * Moves the vault's funds to the receiver: with the completion proof, which must match the
     * escrow's expected proof when it has one; without one, as the organisation's resolution of a dispute.
     */
    record EscrowRelease(String operationId, EscrowId escrow, LedgerAddress wallet, String receiver, Usdc amount,
                         Optional<String> proof) implements LedgerInstruction {
        public EscrowRelease {
            requireNonNull(operationId, "operationId is null");
            requireNonNull(escrow, "escrow is null");
            requireNonNull(wallet, "wallet is null");
            requireNonNull(receiver, "receiver is null");
            requireNonNull(amount, "amount is null");
            requireNonNull(proof, "proof is null");
        }
    }

    /** Marks the escrow disputed on chain, which stops its timeout refund until a resolution. */
    record EscrowDispute(String operationId, EscrowId escrow, LedgerAddress wallet) implements LedgerInstruction {
        public EscrowDispute {
            requireNonNull(operationId, "operationId is null");
            requireNonNull(escrow, "escrow is null");
            requireNonNull(wallet, "wallet is null");
        }
    }

    /**
     * Moves the vault's funds back to the sending wallet: after the deadline, or at any time as the
     * organisation's resolution of a dispute ({@code resolution}).
     */
    record EscrowRefund(String operationId, EscrowId escrow, LedgerAddress wallet, Usdc amount, boolean resolution)
            implements LedgerInstruction {
        public EscrowRefund {
            requireNonNull(operationId, "operationId is null");
            requireNonNull(escrow, "escrow is null");
            requireNonNull(wallet, "wallet is null");
            requireNonNull(amount, "amount is null");
        }
    }
}
