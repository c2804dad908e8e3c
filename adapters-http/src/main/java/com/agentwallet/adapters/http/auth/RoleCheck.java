package com.agentwallet.adapters.http.auth;

import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.DynamicFeature;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.FeatureContext;

/**
 * Enforces {@link RequiresRole} on each endpoint, after authentication. An endpoint without the
 * annotation is a programming error caught at start, so no endpoint of ours is ever open by
 * omission (Jersey's own, such as WADL, are switched off by the server).
 */
public final class RoleCheck implements DynamicFeature {

    @Override
    public void configure(ResourceInfo resource, FeatureContext context) {
        RequiresRole required = resource.getResourceMethod().getAnnotation(RequiresRole.class);
        if (required == null) {
            if (!resource.getResourceClass().getPackageName().startsWith("com.agentwallet")) {
                return;
            }
            throw new IllegalStateException("Endpoint without @RequiresRole: " + resource.getResourceMethod());
        }
        context.register(new Filter(required), Priorities.AUTHORIZATION);
    }

    @Priority(Priorities.AUTHORIZATION)
    private record Filter(RequiresRole required) implements ContainerRequestFilter {
        @Override
        public void filter(ContainerRequestContext request) {
            Caller.of(request.getSecurityContext()).require(required.value());
        }
    }
}
