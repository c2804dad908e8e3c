package com.agentwallet.core.policy;

import com.agentwallet.core.common.Actor;
import com.agentwallet.core.id.OrgId;

import static java.util.Objects.requireNonNull;

public record CreatePolicy(OrgId orgId, String name, PolicyRules rules, Actor actor) {
    public CreatePolicy {
        requireNonNull(orgId, "orgId is null");
        Policy.requireName(name);
        requireNonNull(rules, "rules is null");
        requireNonNull(actor, "actor is null");
    }
}
