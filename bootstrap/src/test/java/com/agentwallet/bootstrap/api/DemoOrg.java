package com.agentwallet.bootstrap.api;

import com.agentwallet.core.auth.Role;

/** A demo organisation of {@code demo-credentials.json}: its id, one API key per role, its operator's co-signing key. */
public record DemoOrg(String id, String ownerKey, String adminKey, String operatorKey, String viewerKey,
                      String coSignerSecretKey) {

    public String key(Role role) {
        return switch (role) {
            case OWNER -> ownerKey;
            case ADMIN -> adminKey;
            case OPERATOR -> operatorKey;
            case VIEWER -> viewerKey;
        };
    }
}
