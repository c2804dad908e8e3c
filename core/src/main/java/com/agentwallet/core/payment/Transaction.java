package com.agentwallet.core.payment;

import com.agentwallet.core.id.EscrowId;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.TxId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.policy.SpendEntry;
import com.agentwallet.core.policy.Violation;

import java.time.Instant;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * One movement of money, or one blocked attempt at a payment. {@code recipient} is where the money
 * goes: the payee of a payment, the wallet's address for funding and refunds, the organisation
 * treasury for withdrawals, the escrow for locks, the receiver for releases.
 */
public record Transaction(
        TxId id,
        OrgId orgId,
        WalletId walletId,
        TransactionType type,
        TransactionStatus status,
        Usdc amount,
        String recipient,
        Optional<String> memo,
        boolean policyTriggered,
        Optional<Violation> violation,
        Optional<String> signature,
        Optional<Long> slot,
        Optional<CoSign> coSign,
        Optional<EscrowId> escrowId,
        Optional<String> failureReason,
        Instant createdAt,
        Instant updatedAt) {

    public static final int MAX_MEMO_LENGTH = 500;

    public Transaction {
        requireNonNull(id, "id is null");
        requireNonNull(orgId, "orgId is null");
        requireNonNull(walletId, "walletId is null");
        requireNonNull(type, "type is null");
        requireNonNull(status, "status is null");
        requireNonNull(amount, "amount is null");
        requireNonNull(recipient, "recipient is null");
        requireNonNull(memo, "memo is null");
        requireNonNull(violation, "violation is null");
        requireNonNull(signature, "signature is null");
        requireNonNull(slot, "slot is null");
        requireNonNull(coSign, "coSign is null");
        requireNonNull(escrowId, "escrowId is null");
        requireNonNull(failureReason, "failureReason is null");
        requireNonNull(createdAt, "createdAt is null");
        requireNonNull(updatedAt, "updatedAt is null");
        if (status == TransactionStatus.BLOCKED != violation.isPresent()) {
            throw new IllegalArgumentException("a violation is present exactly on blocked transactions");
        }
    }

    /** A new transaction in {@code status}, before any ledger outcome. */
    public static Transaction open(TxId id, OrgId orgId, WalletId walletId, TransactionType type,
                                   TransactionStatus status, Usdc amount, String recipient, Instant now) {
        return new Transaction(id, orgId, walletId, type, status, amount, recipient, Optional.empty(), false,
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), now, now);
    }

    /** The spend this transaction counts as in the wallet's rolling windows. */
    public SpendEntry spendEntry() {
        return new SpendEntry(id, createdAt, amount);
    }

    public Transaction withStatus(TransactionStatus newStatus, Instant now) {
        return new Transaction(id, orgId, walletId, type, newStatus, amount, recipient, memo, policyTriggered,
                violation, signature, slot, coSign, escrowId, failureReason, createdAt, now);
    }

    public Transaction withMemo(Optional<String> newMemo) {
        return new Transaction(id, orgId, walletId, type, status, amount, recipient, newMemo, policyTriggered,
                violation, signature, slot, coSign, escrowId, failureReason, createdAt, updatedAt);
    }

    public Transaction withPolicyTriggered(boolean triggered) {
        return new Transaction(id, orgId, walletId, type, status, amount, recipient, memo, triggered,
                violation, signature, slot, coSign, escrowId, failureReason, createdAt, updatedAt);
    }

    public Transaction blockedBy(Violation newViolation) {
        return new Transaction(id, orgId, walletId, type, TransactionStatus.BLOCKED, amount, recipient, memo, true,
                Optional.of(newViolation), signature, slot, coSign, escrowId, failureReason, createdAt, updatedAt);
    }

    public Transaction withCoSign(CoSign newCoSign) {
        return new Transaction(id, orgId, walletId, type, status, amount, recipient, memo, policyTriggered,
                violation, signature, slot, Optional.of(newCoSign), escrowId, failureReason, createdAt, updatedAt);
    }

    public Transaction withEscrow(EscrowId escrow) {
        return new Transaction(id, orgId, walletId, type, status, amount, recipient, memo, policyTriggered,
                violation, signature, slot, coSign, Optional.of(escrow), failureReason, createdAt, updatedAt);
    }

    public Transaction confirmed(String newSignature, long newSlot, Instant now) {
        return new Transaction(id, orgId, walletId, type, TransactionStatus.CONFIRMED, amount, recipient, memo,
                policyTriggered, violation, Optional.of(newSignature), Optional.of(newSlot), coSign, escrowId,
                failureReason, createdAt, now);
    }

    public Transaction endedWithout(TransactionStatus ending, String reason, Instant now) {
        return new Transaction(id, orgId, walletId, type, ending, amount, recipient, memo, policyTriggered,
                violation, signature, slot, coSign, escrowId, Optional.of(reason), createdAt, now);
    }
}
