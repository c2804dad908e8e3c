package com.agentwallet.core.auth;

import com.agentwallet.core.common.WireNamed;

/** The role ladder: each role may do everything the roles below it may. */
public enum Role implements WireNamed {
    VIEWER, OPERATOR, ADMIN, OWNER;

    /** Whether this role is at least {@code required}. */
    public boolean covers(Role required) {
        return compareTo(required) >= 0;
    }

    public static Role fromWire(String name, String param) {
        return WireNamed.parse(Role.class, name, param);
    }
}
