package com.agentwallet.core.policy;

import com.agentwallet.core.common.Actor;
import com.agentwallet.core.common.WireNamed;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.PolicyId;

import java.time.Instant;
import java.util.List;

import static java.util.Objects.requireNonNull;

/** One change in a policy's history: who, when, what kind of change, and the fields that changed. */
public record PolicyAuditEntry(
        PolicyId policyId,
        OrgId orgId,
        long version,
        Action action,
        Actor actor,
        Instant at,
        List<FieldChange> changes) {

    public enum Action implements WireNamed {
        CREATED, UPDATED, DELETED
    }

    public PolicyAuditEntry {
        requireNonNull(policyId, "policyId is null");
        requireNonNull(orgId, "orgId is null");
        requireNonNull(action, "action is null");
        requireNonNull(actor, "actor is null");
        requireNonNull(at, "at is null");
        changes = List.copyOf(changes);
    }
}
