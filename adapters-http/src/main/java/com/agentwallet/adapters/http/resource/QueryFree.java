package com.agentwallet.adapters.http.resource;

import com.agentwallet.adapters.http.error.ApiException;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.DynamicFeature;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.FeatureContext;
import jakarta.ws.rs.core.UriInfo;

import java.util.Arrays;

/**
 * Unknown query parameters are refused everywhere, not only on lists: an endpoint whose method
 * reads no query (it takes no {@link UriInfo}, from which the lists read theirs through
 * {@link QueryParams}) answers any query parameter with a 400 naming it, after authentication and
 * the role check. A typo such as {@code POST /payments?dry_run=true} must not pay for real.
 */
public final class QueryFree implements DynamicFeature {

    @Override
    public void configure(ResourceInfo resource, FeatureContext context) {
        boolean readsQuery = Arrays.asList(resource.getResourceMethod().getParameterTypes()).contains(UriInfo.class);
        if (!readsQuery && resource.getResourceClass().getPackageName().startsWith("com.agentwallet")) {
            context.register(new Filter(), Priorities.USER);
        }
    }

    @Priority(Priorities.USER)
    private static final class Filter implements ContainerRequestFilter {
        @Override
        public void filter(ContainerRequestContext request) {
            request.getUriInfo().getQueryParameters().keySet().stream().findFirst().ifPresent(name -> {
                throw ApiException.validation(name, "Unknown query parameter '" + name + "'; this endpoint takes none");
            });
        }
    }
}
