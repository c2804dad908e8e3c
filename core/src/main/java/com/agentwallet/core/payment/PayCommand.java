package com.agentwallet.core.payment;

import com.agentwallet.core.common.Actor;
import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.crypto.Hashing;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.idempotency.RequestKey;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.policy.PaymentCheck;
import com.agentwallet.core.policy.PolicyRules;
import com.agentwallet.core.policy.SessionGrant;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A payment request. {@code coSignIntent} asks for the co-sign flow even below the policy's
 * threshold; {@code session} is the verified session token, if one was presented; {@code initiator}
 * is the credential making the request, which may not later co-sign it.
 */
public record PayCommand(OrgId orgId, WalletId walletId, String to, Usdc amount, Optional<String> memo,
                         Optional<String> idempotencyKey, boolean coSignIntent, Optional<SessionGrant> session,
                         Optional<Actor> initiator) {
    public PayCommand {
        requireNonNull(orgId, "orgId is null");
        requireNonNull(walletId, "walletId is null");
        ValidationException.check(PolicyRules.isRecipient(to), "to",
                "'to' must be a recipient address of 1 to " + PolicyRules.MAX_RECIPIENT_LENGTH + " printable characters");
        requireNonNull(amount, "amount is null");
        ValidationException.check(!amount.isZero(), "amount", "'amount' must be greater than zero");
        requireNonNull(memo, "memo is null");
        memo.ifPresent(text -> ValidationException.check(text.length() <= Transaction.MAX_MEMO_LENGTH, "memo",
                "'memo' must be at most " + Transaction.MAX_MEMO_LENGTH + " characters"));
        requireNonNull(idempotencyKey, "idempotencyKey is null");
        idempotencyKey.ifPresent(key -> RequestKey.requireValid(key, "idempotency_key"));
        requireNonNull(session, "session is null");
        requireNonNull(initiator, "initiator is null");
    }

    public PaymentCheck.Kind kind() {
        return coSignIntent ? PaymentCheck.Kind.PAYMENT_WITH_CO_SIGN_INTENT : PaymentCheck.Kind.PAYMENT;
    }

    /** What makes two requests "the same" for an idempotency key: everything but the key and the token. */
    public String fingerprint() {
        return Hashing.sha256Hex(String.join("\u0000", walletId.value(), to, Long.toString(amount.micros()),
                memo.orElse("\u0001"), Boolean.toString(coSignIntent)));
    }
}
