package com.agentwallet.bootstrap.api;

import com.agentwallet.core.auth.Role;

import java.util.List;

/**
 * A demo organisation of {@code demo-credentials.json}: its id, one API key per role, its operator's
 * co-signing key and its dashboard users.
 */
public record DemoOrg(String id, String ownerKey, String adminKey, String operatorKey, String viewerKey,
                      String coSignerSecretKey, List<DashboardLogin> dashboardUsers) {

    /** A dashboard user's email, password and role. */
    public record DashboardLogin(String email, String password, Role role) {
    }

    public String key(Role role) {
        return switch (role) {
            case OWNER -> ownerKey;
            case ADMIN -> adminKey;
            case OPERATOR -> operatorKey;
            case VIEWER -> viewerKey;
        };
    }

    /** The dashboard user of {@code role}. */
    public DashboardLogin dashboardUser(Role role) {
        return dashboardUsers.stream().filter(user -> user.role() == role).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no demo dashboard user of role " + role));
    }
}
