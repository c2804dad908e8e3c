package com.agentwallet.core.escrow;

import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.id.EscrowId;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.TxId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.money.Usdc;

import java.time.Instant;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Funds of one wallet locked for another agent until a completion proof releases them, or a
 * timeout or dispute resolution refunds them. {@code toWallet} is what the sender named (a wallet
 * id or a ledger address); {@code receiver} is the ledger address the funds go to, and
 * {@code receiverWallet} the service's wallet behind it, if any (of any organisation).
 */
public record Escrow(
        EscrowId id,
        OrgId orgId,
        WalletId fromWallet,
        String toWallet,
        String receiver,
        Optional<WalletId> receiverWallet,
        Usdc amount,
        String taskDescription,
        long timeoutSeconds,
        Instant timeoutAt,
        Optional<String> expectedProof,
        EscrowStatus status,
        Optional<String> proof,
        Optional<Dispute> dispute,
        TxId lockTx,
        Optional<TxId> settleTx,
        Optional<String> settleReason,
        Instant createdAt,
        Instant updatedAt) {

    public static final long MIN_TIMEOUT_SECONDS = 1;
    public static final long MAX_TIMEOUT_SECONDS = 90L * 24 * 3600;
    public static final int MAX_TASK_DESCRIPTION_LENGTH = 2000;

    public Escrow {
        requireNonNull(id, "id is null");
        requireNonNull(orgId, "orgId is null");
        requireNonNull(fromWallet, "fromWallet is null");
        requireNonNull(toWallet, "toWallet is null");
        requireNonNull(receiver, "receiver is null");
        requireNonNull(receiverWallet, "receiverWallet is null");
        requireNonNull(amount, "amount is null");
        requireTaskDescription(taskDescription);
        requireTimeout(timeoutSeconds);
        requireNonNull(timeoutAt, "timeoutAt is null");
        requireNonNull(expectedProof, "expectedProof is null");
        requireNonNull(status, "status is null");
        requireNonNull(proof, "proof is null");
        requireNonNull(dispute, "dispute is null");
        requireNonNull(lockTx, "lockTx is null");
        requireNonNull(settleTx, "settleTx is null");
        requireNonNull(settleReason, "settleReason is null");
        requireNonNull(createdAt, "createdAt is null");
        requireNonNull(updatedAt, "updatedAt is null");
    }

    public static String requireTaskDescription(String description) {
        ValidationException.check(description != null && description.length() <= MAX_TASK_DESCRIPTION_LENGTH,
                "task_description", "'task_description' must be at most " + MAX_TASK_DESCRIPTION_LENGTH + " characters");
        return description;
    }

    public static long requireTimeout(long seconds) {
        ValidationException.check(seconds >= MIN_TIMEOUT_SECONDS && seconds <= MAX_TIMEOUT_SECONDS, "timeout_seconds",
                "'timeout_seconds' must be between " + MIN_TIMEOUT_SECONDS + " and " + MAX_TIMEOUT_SECONDS);
        return seconds;
    }

    Escrow settled(EscrowStatus next, Optional<String> newProof, String reason, Instant now) {
        return new Escrow(id, orgId, fromWallet, toWallet, receiver, receiverWallet, amount, taskDescription,
                timeoutSeconds, timeoutAt, expectedProof, next, newProof, dispute, lockTx, settleTx,
                Optional.of(reason), createdAt, now);
    }

    Escrow disputed(Dispute newDispute, Instant now) {
        return new Escrow(id, orgId, fromWallet, toWallet, receiver, receiverWallet, amount, taskDescription,
                timeoutSeconds, timeoutAt, expectedProof, EscrowStatus.DISPUTED, proof, Optional.of(newDispute),
                lockTx, settleTx, settleReason, createdAt, now);
    }

    /** Locked again, without the proof and payout of a release the ledger refused. */
    Escrow reopened(Instant now) {
        return new Escrow(id, orgId, fromWallet, toWallet, receiver, receiverWallet, amount, taskDescription,
                timeoutSeconds, timeoutAt, expectedProof, EscrowStatus.LOCKED, Optional.empty(), dispute, lockTx,
                Optional.empty(), Optional.empty(), createdAt, now);
    }

    public Escrow withSettleTx(TxId tx) {
        return new Escrow(id, orgId, fromWallet, toWallet, receiver, receiverWallet, amount, taskDescription,
                timeoutSeconds, timeoutAt, expectedProof, status, proof, dispute, lockTx, Optional.of(tx),
                settleReason, createdAt, updatedAt);
    }
}
