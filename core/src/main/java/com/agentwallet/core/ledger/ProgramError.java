package com.agentwallet.core.ledger;

import com.agentwallet.core.common.WireNamed;
import com.agentwallet.core.policy.ViolationRule;

import java.util.Arrays;
import java.util.Optional;

/**
 * The on-chain wallet program's custom error codes. Codes 1 to 9 are the policy checks and carry
 * the same names as the core's violation rules; the simulator and the real program return the same
 * code for the same failure, and {@link LedgerOutcome.Rejected#code()} is the wire name.
 */
public enum ProgramError implements WireNamed {
    SESSION_TOKEN(1),
    MAX_PER_TX(2),
    ALLOWED_RECIPIENTS(3),
    BLOCKED_CATEGORY(4),
    MAX_PER_DAY(5),
    MAX_PER_MONTH(6),
    VELOCITY_CAP(7),
    POLICY_EXPIRED(8),
    REQUIRE_CO_SIGN(9),
    CO_SIGNATURE_INVALID(10),
    WALLET_NOT_ACTIVE(11),
    INSUFFICIENT_FUNDS(12),
    ACCOUNT_NOT_FOUND(13),
    ACCOUNT_MISMATCH(14),
    ESCROW_NOT_OPEN(15),
    PROOF_MISMATCH(16),
    ESCROW_NOT_DUE(17),
    INVALID_ARGUMENT(18),
    ESCROW_DISPUTED(19),
    /** A release or dispute that reached the program at or after the escrow's deadline: only a refund is left. */
    ESCROW_EXPIRED(20),
    /**
     * An administrative write whose sequence is not above the last one written to its policy or
     * wallet: a newer write is already on chain, so this one would roll it back.
     */
    STALE_WRITE(21);

    private final int code;

    ProgramError(int code) {
        this.code = code;
    }

    /** The program's custom error number (Solana's {@code ProgramError::Custom}). */
    public int code() {
        return code;
    }

    public static Optional<ProgramError> ofCode(int code) {
        return Arrays.stream(values()).filter(e -> e.code == code).findFirst();
    }

    /** The program error of a policy check. */
    public static ProgramError of(ViolationRule rule) {
        return valueOf(rule.name());
    }

    /** The violation rule this error reports, for codes 1 to 9. */
    public Optional<ViolationRule> rule() {
        return Arrays.stream(ViolationRule.values()).filter(r -> r.name().equals(name())).findFirst();
    }

    public LedgerOutcome.Rejected rejected(String message) {
        return new LedgerOutcome.Rejected(wireName(), message);
    }
}
