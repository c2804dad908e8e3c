package com.agentwallet.adapters.http.auth;

import com.agentwallet.adapters.http.Edge;
import com.agentwallet.adapters.http.error.ApiException;
import com.agentwallet.core.auth.ApiKey;
import com.agentwallet.core.auth.ApiKeyService;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.SecurityContext;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * {@code Authorization: Bearer sk_...} on every request. A missing, unknown or revoked key is a 401
 * (and counts against the client address's bucket); a valid one makes the caller its
 * organisation and role, and takes a token from the organisation's bucket.
 */
@PreMatching
@Priority(Priorities.AUTHENTICATION)
public final class ApiKeyAuthentication implements ContainerRequestFilter {
    private static final String BEARER = "Bearer ";

    private final ApiKeyService keys;
    private final Edge edge;

    public ApiKeyAuthentication(ApiKeyService keys, Edge edge) {
        this.keys = requireNonNull(keys, "keys is null");
        this.edge = requireNonNull(edge, "edge is null");
    }

    @Override
    public void filter(ContainerRequestContext request) {
        String header = request.getHeaderString(HttpHeaders.AUTHORIZATION);
        Optional<ApiKey> key = header != null && header.startsWith(BEARER)
                ? keys.authenticate(header.substring(BEARER.length()).trim())
                : Optional.empty();
        if (key.isEmpty()) {
            edge.limitByAddress(request);
            throw ApiException.of(401, "authentication_failed", header == null
                    ? "No API key: send 'Authorization: Bearer sk_...'"
                    : "The API key is malformed, unknown or revoked");
        }
        Caller caller = Caller.of(key.get());
        edge.limitByOrg(request, caller.orgId());
        boolean secure = request.getSecurityContext().isSecure();
        request.setSecurityContext(new SecurityContext() {
            @Override
            public Caller getUserPrincipal() {
                return caller;
            }

            @Override
            public boolean isUserInRole(String role) {
                return caller.role().wireName().equals(role);
            }

            @Override
            public boolean isSecure() {
                return secure;
            }

            @Override
            public String getAuthenticationScheme() {
                return "Bearer";
            }
        });
    }
}
