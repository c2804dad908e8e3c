package com.agentwallet.adapters.mcp;

import com.agentwallet.core.auth.Requester;
import com.agentwallet.core.common.Actor;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.policy.SessionGrant;

import static java.util.Objects.requireNonNull;

/**
 * The agent behind an MCP request: its wallet's live session token, verified by {@link AgentGate},
 * and the origin it reached us at (for links it is given, such as the dashboard's co-sign inbox).
 * Every tool acts on this wallet only.
 */
public record Agent(OrgId orgId, SessionGrant grant, String origin) {
    public Agent {
        requireNonNull(orgId, "orgId is null");
        requireNonNull(grant, "grant is null");
        requireNonNull(origin, "origin is null");
    }

    public WalletId walletId() {
        return grant.walletId();
    }

    /** As the escrow use cases see it: the agent of its wallet. */
    public Requester requester() {
        return new Requester.Agent(orgId, walletId());
    }

    /** How audit trails name it, as /v1 does an agent: by its wallet's id. */
    public Actor actor() {
        return new Actor(walletId().value());
    }
}
