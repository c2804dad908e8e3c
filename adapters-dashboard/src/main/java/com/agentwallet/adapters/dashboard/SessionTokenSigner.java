package com.agentwallet.adapters.dashboard;

import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.policy.SessionGrant;

/**
 * Signs a wallet's session grant as the token its agent presents to /v1: the same signer the API's
 * wallet routes use, so a token the dashboard shows works there at once.
 */
@FunctionalInterface
public interface SessionTokenSigner {
    String sign(OrgId orgId, SessionGrant grant);
}
