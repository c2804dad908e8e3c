package com.agentwallet.core.auth;

import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.WalletId;

import static java.util.Objects.requireNonNull;

/**
 * On whose behalf a request acts: an organisation, through one of its API keys, or one agent,
 * through its wallet's session token, which reaches only what that wallet is a party to.
 */
public sealed interface Requester {

    OrgId orgId();

    /** The organisation itself, as one of its API keys acts for it. */
    static Requester of(OrgId orgId) {
        return new Organisation(orgId);
    }

    record Organisation(OrgId orgId) implements Requester {
        public Organisation {
            requireNonNull(orgId, "orgId is null");
        }
    }

    record Agent(OrgId orgId, WalletId walletId) implements Requester {
        public Agent {
            requireNonNull(orgId, "orgId is null");
            requireNonNull(walletId, "walletId is null");
        }
    }
}
