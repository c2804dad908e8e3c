package com.agentwallet.adapters.http.auth;

import com.agentwallet.adapters.http.Edge;
import com.agentwallet.adapters.http.error.ApiException;
import com.agentwallet.adapters.http.resource.OpenApiResource;
import com.agentwallet.core.auth.ApiKeyService;
import com.agentwallet.edge.session.SessionTokens;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.SecurityContext;

import java.util.Optional;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * {@code Authorization: Bearer <credential>} on every request: an API key ({@code sk_...}), which
 * makes the caller its organisation and role, or an agent's session token (a JWT), which makes the
 * caller that agent, for its wallet only. A missing, unknown, revoked, malformed or forged
 * credential is a 401 (and counts against the client address's bucket); a valid one takes a token
 * from its organisation's bucket. The {@link Public} paths read no credential at all and draw from the
 * client address's bucket, like any request no credential vouches for.
 */
@PreMatching
@Priority(Priorities.AUTHENTICATION)
public final class BearerAuthentication implements ContainerRequestFilter {
    private static final String BEARER = "Bearer ";
    private static final String API_KEY_PREFIX = "sk_";
    private static final Set<String> PUBLIC_PATHS = Set.of(OpenApiResource.PATH);

    private final ApiKeyService keys;
    private final SessionTokens sessionTokens;
    private final Edge edge;

    public BearerAuthentication(ApiKeyService keys, SessionTokens sessionTokens, Edge edge) {
        this.keys = requireNonNull(keys, "keys is null");
        this.sessionTokens = requireNonNull(sessionTokens, "sessionTokens is null");
        this.edge = requireNonNull(edge, "edge is null");
    }

    @Override
    public void filter(ContainerRequestContext request) {
        if (PUBLIC_PATHS.contains(request.getUriInfo().getPath())) {
            edge.limitByAddress(request);
            return;
        }
        String header = request.getHeaderString(HttpHeaders.AUTHORIZATION);
        Optional<Caller> caller;
        try {
            caller = header != null && header.startsWith(BEARER)
                    ? authenticate(header.substring(BEARER.length()).trim())
                    : Optional.empty();
        } catch (RuntimeException e) {
            // a key not yet in memory is read from the database; when that fails (a 503), the answer
            // still carries rate-limit headers, of the address's bucket, as every answer does
            edge.limitByAddress(request);
            throw e;
        }
        if (caller.isEmpty()) {
            edge.limitByAddress(request);
            throw ApiException.of(401, "authentication_failed", header == null
                    ? "No credential: send 'Authorization: Bearer sk_...' (an API key) or an agent's session token"
                    : "The API key or session token is malformed, unknown, revoked or forged");
        }
        edge.limitByOrg(request, caller.get().orgId());
        boolean secure = request.getSecurityContext().isSecure();
        request.setSecurityContext(new CallerContext(caller.get(), secure));
    }

    private Optional<Caller> authenticate(String credential) {
        if (credential.startsWith(API_KEY_PREFIX)) {
            return keys.authenticate(credential).map(Caller.Key::of);
        }
        return sessionTokens.verify(credential).map(token -> new Caller.Agent(token.orgId(), token.grant()));
    }

    private record CallerContext(Caller caller, boolean secure) implements SecurityContext {
        @Override
        public Caller getUserPrincipal() {
            return caller;
        }

        @Override
        public boolean isUserInRole(String role) {
            return caller instanceof Caller.Key key && key.role().wireName().equals(role);
        }

        @Override
        public boolean isSecure() {
            return secure;
        }

        @Override
        public String getAuthenticationScheme() {
            return "Bearer";
        }
    }
}
