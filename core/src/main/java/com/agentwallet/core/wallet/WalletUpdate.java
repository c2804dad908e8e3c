package com.agentwallet.core.wallet;

import com.agentwallet.core.common.FieldUpdate;
import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.id.PolicyId;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/** A PATCH of a wallet: label, policy and status ({@code active} or {@code frozen}; archiving is DELETE). */
public record WalletUpdate(FieldUpdate<String> label, FieldUpdate<PolicyId> policyId, Optional<WalletStatus> status) {
    public WalletUpdate {
        requireNonNull(label, "label is null");
        requireNonNull(policyId, "policyId is null");
        requireNonNull(status, "status is null");
        ValidationException.check(status.isEmpty() || status.get() != WalletStatus.ARCHIVED, "status",
                "'status' must be active or frozen; archive a wallet with DELETE");
    }

    /** Whether the update touches only the status: the part an operator may change. */
    public boolean onlyStatus() {
        return label.isKeep() && policyId.isKeep();
    }
}
