package com.agentwallet.adapters.http.auth;

import com.agentwallet.adapters.http.error.ApiException;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.policy.SessionGrant;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.DynamicFeature;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.FeatureContext;

import java.util.function.BiPredicate;

import static java.util.Objects.requireNonNull;

/**
 * Enforces {@link RequiresRole} and {@link AgentToken} on each endpoint, after authentication. An
 * endpoint with neither {@code RequiresRole} nor {@link Public} is a programming error caught at
 * start, so no endpoint of ours is ever open by omission (Jersey's own, such as WADL, are switched
 * off by the server); one without {@code AgentToken} is closed to agents.
 */
public final class RoleCheck implements DynamicFeature {
    private final BiPredicate<OrgId, SessionGrant> liveSession;

    /** {@code liveSession} tells whether a verified token's wallet still accepts it (not rotated, not expired). */
    public RoleCheck(BiPredicate<OrgId, SessionGrant> liveSession) {
        this.liveSession = requireNonNull(liveSession, "liveSession is null");
    }

    @Override
    public void configure(ResourceInfo resource, FeatureContext context) {
        RequiresRole required = resource.getResourceMethod().getAnnotation(RequiresRole.class);
        if (required == null) {
            if (!resource.getResourceClass().getPackageName().startsWith("com.agentwallet")
                    || resource.getResourceMethod().isAnnotationPresent(Public.class)) {
                return;
            }
            throw new IllegalStateException("Endpoint without @RequiresRole or @Public: " + resource.getResourceMethod());
        }
        context.register(new Filter(required, resource.getResourceMethod().getAnnotation(AgentToken.class),
                liveSession), Priorities.AUTHORIZATION);
    }

    @Priority(Priorities.AUTHORIZATION)
    private record Filter(RequiresRole required, AgentToken agentToken, BiPredicate<OrgId, SessionGrant> liveSession)
            implements ContainerRequestFilter {
        @Override
        public void filter(ContainerRequestContext request) {
            Caller caller = Caller.of(request.getSecurityContext());
            if (!(caller instanceof Caller.Agent agent)) {
                caller.require(required.value());
                return;
            }
            if (agentToken == null) {
                throw ApiException.forbiddenToAgents(required.value());
            }
            if (!agentToken.checkedByPolicy() && !liveSession.test(agent.orgId(), agent.grant())) {
                throw ApiException.of(401, "authentication_failed",
                        "The session token was rotated or has expired; ask the wallet's owner for a new one");
            }
        }
    }
}
