package com.agentwallet.core.wallet;

import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.PolicyId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.ledger.LedgerAddress;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.policy.SpendSummary;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * An agent's wallet: its balance as the service's books hold it, its rolling spend totals, and the
 * version of its session token (rotation bumps it, revoking older tokens at once).
 */
public record Wallet(
        WalletId id,
        OrgId orgId,
        String agentId,
        String label,
        PolicyId policyId,
        List<String> tags,
        WalletStatus status,
        LedgerAddress address,
        Usdc balance,
        SpendSummary spend,
        long sessionVersion,
        Optional<AutoTopup> autoTopup,
        Instant createdAt,
        Instant updatedAt) {

    public static final Pattern AGENT_ID = Pattern.compile("^[A-Za-z0-9_.:@-]{1,128}$");
    public static final Pattern TAG = Pattern.compile("^[A-Za-z0-9_.:-]{1,64}$");
    public static final int MAX_TAGS = 20;
    public static final int MAX_LABEL_LENGTH = 200;
    /** The session version a wallet is opened with, that of its first token. */
    public static final long FIRST_SESSION_VERSION = 0;

    public Wallet {
        requireNonNull(id, "id is null");
        requireNonNull(orgId, "orgId is null");
        requireAgentId(agentId);
        requireLabel(label);
        requireNonNull(policyId, "policyId is null");
        tags = requireTags(tags);
        requireNonNull(status, "status is null");
        requireNonNull(address, "address is null");
        requireNonNull(balance, "balance is null");
        requireNonNull(spend, "spend is null");
        requireNonNull(autoTopup, "autoTopup is null");
        requireNonNull(createdAt, "createdAt is null");
        requireNonNull(updatedAt, "updatedAt is null");
    }

    public static String requireAgentId(String agentId) {
        ValidationException.check(agentId != null && AGENT_ID.matcher(agentId).matches(), "agent_id",
                "'agent_id' must be 1 to 128 letters, digits or _ . : @ -");
        return agentId;
    }

    public static String requireLabel(String label) {
        ValidationException.check(label != null && label.length() <= MAX_LABEL_LENGTH, "label",
                "'label' must be at most " + MAX_LABEL_LENGTH + " characters");
        return label;
    }

    public static List<String> requireTags(List<String> tags) {
        ValidationException.check(tags != null && tags.size() <= MAX_TAGS, "tags", "at most " + MAX_TAGS + " tags");
        for (String tag : tags) {
            ValidationException.check(tag != null && TAG.matcher(tag).matches(), "tags",
                    "tags are 1 to 64 letters, digits or _ . : -");
        }
        return List.copyOf(tags.stream().distinct().toList());
    }

    public Wallet withBalance(Usdc newBalance, Instant now) {
        return new Wallet(id, orgId, agentId, label, policyId, tags, status, address, newBalance, spend,
                sessionVersion, autoTopup, createdAt, now);
    }

    public Wallet withSpend(SpendSummary newSpend) {
        return new Wallet(id, orgId, agentId, label, policyId, tags, status, address, balance, newSpend,
                sessionVersion, autoTopup, createdAt, updatedAt);
    }

    public Wallet withStatus(WalletStatus newStatus, Instant now) {
        return new Wallet(id, orgId, agentId, label, policyId, tags, newStatus, address, balance, spend,
                sessionVersion, autoTopup, createdAt, now);
    }

    public Wallet withDetails(String newLabel, PolicyId newPolicyId, Instant now) {
        return new Wallet(id, orgId, agentId, newLabel, newPolicyId, tags, status, address, balance, spend,
                sessionVersion, autoTopup, createdAt, now);
    }

    public Wallet withAutoTopup(Optional<AutoTopup> rule, Instant now) {
        return new Wallet(id, orgId, agentId, label, policyId, tags, status, address, balance, spend,
                sessionVersion, rule, createdAt, now);
    }

    public Wallet withNextSessionVersion(Instant now) {
        return new Wallet(id, orgId, agentId, label, policyId, tags, status, address, balance, spend,
                sessionVersion + 1, autoTopup, createdAt, now);
    }
}
