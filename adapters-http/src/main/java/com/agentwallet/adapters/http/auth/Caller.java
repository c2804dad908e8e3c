package com.agentwallet.adapters.http.auth;

import com.agentwallet.adapters.http.error.ApiException;
import com.agentwallet.core.auth.ApiKey;
import com.agentwallet.core.auth.Role;
import com.agentwallet.core.common.Actor;
import com.agentwallet.core.id.ApiKeyId;
import com.agentwallet.core.id.OrgId;
import jakarta.ws.rs.core.SecurityContext;

import java.security.Principal;

import static java.util.Objects.requireNonNull;

/** Who is calling: the API key, its organisation and its role. Every resource acts inside that organisation. */
public record Caller(ApiKeyId keyId, OrgId orgId, Role role) implements Principal {
    public Caller {
        requireNonNull(keyId, "keyId is null");
        requireNonNull(orgId, "orgId is null");
        requireNonNull(role, "role is null");
    }

    public static Caller of(ApiKey key) {
        return new Caller(key.id(), key.orgId(), key.role());
    }

    public static Caller of(SecurityContext context) {
        return (Caller) context.getUserPrincipal();
    }

    /** Refuses with 403 naming the lowest role that would do, unless this key's role covers it. */
    public void require(Role required) {
        if (!role.covers(required)) {
            throw ApiException.forbidden(required);
        }
    }

    /** How the audit log names this caller. */
    public Actor actor() {
        return new Actor(keyId.value());
    }

    @Override
    public String getName() {
        return keyId.value();
    }
}
