package com.agentwallet.core.wallet;

import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.PolicyId;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/** Provision a wallet for an agent; the first session token lives {@code sessionTtl} (default 1 h). */
public record CreateWallet(OrgId orgId, String agentId, String label, PolicyId policyId, List<String> tags,
                           Optional<Duration> sessionTtl) {
    public CreateWallet {
        requireNonNull(orgId, "orgId is null");
        Wallet.requireAgentId(agentId);
        Wallet.requireLabel(label);
        requireNonNull(policyId, "policyId is null");
        tags = Wallet.requireTags(tags);
        requireNonNull(sessionTtl, "sessionTtl is null");
    }
}
