package com.agentwallet.core.policy;

import com.agentwallet.core.common.FieldUpdate;
import com.agentwallet.core.money.Usdc;

import java.time.Instant;
import java.util.List;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * A partial change of a policy: PATCH bodies and the overrides of a clone. Each field is kept,
 * set, or (for optional fields) cleared; the result is validated as a whole.
 */
public record PolicyPatch(
        FieldUpdate<String> name,
        FieldUpdate<Usdc> maxPerTx,
        FieldUpdate<Usdc> maxPerDay,
        FieldUpdate<Usdc> maxPerMonth,
        FieldUpdate<Integer> velocityCap,
        FieldUpdate<List<String>> allowedRecipients,
        FieldUpdate<Set<String>> blockedCategories,
        FieldUpdate<Instant> expiry,
        FieldUpdate<Usdc> requireCoSign,
        FieldUpdate<String> coSigner) {

    public static final PolicyPatch NONE = new PolicyPatch(FieldUpdate.keep(), FieldUpdate.keep(),
            FieldUpdate.keep(), FieldUpdate.keep(), FieldUpdate.keep(), FieldUpdate.keep(), FieldUpdate.keep(),
            FieldUpdate.keep(), FieldUpdate.keep(), FieldUpdate.keep());

    public PolicyPatch {
        requireNonNull(name, "name is null");
        requireNonNull(maxPerTx, "maxPerTx is null");
        requireNonNull(maxPerDay, "maxPerDay is null");
        requireNonNull(maxPerMonth, "maxPerMonth is null");
        requireNonNull(velocityCap, "velocityCap is null");
        requireNonNull(allowedRecipients, "allowedRecipients is null");
        requireNonNull(blockedCategories, "blockedCategories is null");
        requireNonNull(expiry, "expiry is null");
        requireNonNull(requireCoSign, "requireCoSign is null");
        requireNonNull(coSigner, "coSigner is null");
    }

    public String applyToName(String current) {
        return Policy.requireName(name.applyToRequired(current, "name"));
    }

    public PolicyRules applyTo(PolicyRules current) {
        return new PolicyRules(
                maxPerTx.applyTo(current.maxPerTx()),
                maxPerDay.applyTo(current.maxPerDay()),
                maxPerMonth.applyTo(current.maxPerMonth()),
                velocityCap.applyTo(current.velocityCap()),
                allowedRecipients.applyToRequired(current.allowedRecipients(), "allowed_recipients"),
                blockedCategories.applyToRequired(current.blockedCategories(), "blocked_categories"),
                expiry.applyTo(current.expiry()),
                requireCoSign.applyTo(current.requireCoSign()),
                coSigner.applyTo(current.coSigner()));
    }

    public PolicyPatch withName(String newName) {
        return new PolicyPatch(FieldUpdate.set(newName), maxPerTx, maxPerDay, maxPerMonth, velocityCap,
                allowedRecipients, blockedCategories, expiry, requireCoSign, coSigner);
    }
}
