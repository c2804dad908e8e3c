package com.agentwallet.core.policy;

import com.agentwallet.core.common.Timestamps;
import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.crypto.Ed25519;
import com.agentwallet.core.money.Usdc;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * The limits of a spending policy. An absent cap means "no cap"; an empty recipient list means
 * "any recipient". Bounded in size, because the on-chain program keeps a copy in a fixed account.
 */
public record PolicyRules(
        Optional<Usdc> maxPerTx,
        Optional<Usdc> maxPerDay,
        Optional<Usdc> maxPerMonth,
        Optional<Integer> velocityCap,
        List<String> allowedRecipients,
        Set<String> blockedCategories,
        Optional<Instant> expiry,
        Optional<Usdc> requireCoSign,
        Optional<String> coSigner) {

    public static final int MAX_ALLOWED_RECIPIENTS = 32;
    public static final int MAX_BLOCKED_CATEGORIES = 16;
    public static final int MAX_RECIPIENT_LENGTH = 64;
    public static final int MAX_VELOCITY_CAP = 1_000_000;
    public static final Pattern CATEGORY = Pattern.compile("^[a-z0-9][a-z0-9_.-]{0,63}$");

    public static final PolicyRules NONE = new PolicyRules(Optional.empty(), Optional.empty(), Optional.empty(),
            Optional.empty(), List.of(), Set.of(), Optional.empty(), Optional.empty(), Optional.empty());

    public PolicyRules {
        requireNonNull(maxPerTx, "maxPerTx is null");
        requireNonNull(maxPerDay, "maxPerDay is null");
        requireNonNull(maxPerMonth, "maxPerMonth is null");
        requireNonNull(velocityCap, "velocityCap is null");
        requireNonNull(expiry, "expiry is null");
        requireNonNull(requireCoSign, "requireCoSign is null");
        requireNonNull(coSigner, "coSigner is null");
        allowedRecipients = List.copyOf(new LinkedHashSet<>(allowedRecipients));
        blockedCategories = Set.copyOf(blockedCategories);

        velocityCap.ifPresent(cap -> ValidationException.check(cap >= 0 && cap <= MAX_VELOCITY_CAP,
                "velocity_cap", "'velocity_cap' must be between 0 and " + MAX_VELOCITY_CAP));
        ValidationException.check(allowedRecipients.size() <= MAX_ALLOWED_RECIPIENTS, "allowed_recipients",
                "'allowed_recipients' holds at most " + MAX_ALLOWED_RECIPIENTS + " recipients");
        for (String recipient : allowedRecipients) {
            ValidationException.check(isRecipient(recipient), "allowed_recipients",
                    "'allowed_recipients' entries must be 1 to " + MAX_RECIPIENT_LENGTH + " printable characters");
        }
        ValidationException.check(blockedCategories.size() <= MAX_BLOCKED_CATEGORIES, "blocked_categories",
                "'blocked_categories' holds at most " + MAX_BLOCKED_CATEGORIES + " categories");
        for (String category : blockedCategories) {
            ValidationException.check(CATEGORY.matcher(category).matches(), "blocked_categories",
                    "category names are lowercase letters, digits, '_', '.' and '-' (at most 64)");
        }
        ValidationException.check(requireCoSign.isEmpty() || coSigner.isPresent(), "co_signer",
                "'co_signer' is required when 'require_co_sign' is set");
        coSigner.ifPresent(key -> ValidationException.check(Ed25519.isPublicKey(key), "co_signer",
                "'co_signer' must be a base58 Ed25519 public key"));
    }

    /** Whether a text can be a recipient: what a ledger address or a wallet reference can look like. */
    public static boolean isRecipient(String recipient) {
        if (recipient == null || recipient.isEmpty() || recipient.length() > MAX_RECIPIENT_LENGTH) {
            return false;
        }
        return recipient.chars().allMatch(c -> c > 0x20 && c < 0x7f);
    }

    public boolean isExpiredAt(Instant now) {
        return expiry.isPresent() && !now.isBefore(expiry.get());
    }

    /**
     * The rules as wire-named fields with wire-formatted values, in a fixed order: the one place
     * that says how a policy reads, used for audit diffs and event payloads alike.
     */
    public Map<String, Object> fields() {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("max_per_tx", maxPerTx.map(Usdc::toString).orElse(null));
        fields.put("max_per_day", maxPerDay.map(Usdc::toString).orElse(null));
        fields.put("max_per_month", maxPerMonth.map(Usdc::toString).orElse(null));
        fields.put("velocity_cap", velocityCap.orElse(null));
        fields.put("allowed_recipients", allowedRecipients);
        fields.put("blocked_categories", new ArrayList<>(new TreeSet<>(blockedCategories)));
        fields.put("expiry", expiry.map(Timestamps::format).orElse(null));
        fields.put("require_co_sign", requireCoSign.map(Usdc::toString).orElse(null));
        fields.put("co_signer", coSigner.orElse(null));
        return fields;
    }
}
