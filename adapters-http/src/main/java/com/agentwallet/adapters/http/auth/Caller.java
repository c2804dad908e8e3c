package com.agentwallet.adapters.http.auth;

import com.agentwallet.adapters.http.error.ApiException;
import com.agentwallet.adapters.http.error.ErrorResponses;
import com.agentwallet.core.auth.ApiKey;
import com.agentwallet.core.auth.Requester;
import com.agentwallet.core.auth.Role;
import com.agentwallet.core.common.Actor;
import com.agentwallet.core.common.Rejection;
import com.agentwallet.core.id.ApiKeyId;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.policy.SessionGrant;
import jakarta.ws.rs.core.SecurityContext;

import java.security.Principal;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Who is calling: an API key of an organisation, with its role, or an agent, with its wallet's
 * session token. Every resource acts inside the caller's organisation; an agent, only for its wallet.
 */
public sealed interface Caller extends Principal {

    OrgId orgId();

    /** How audit trails name this caller: its API key's id, or its wallet's id. */
    Actor actor();

    /** On whose behalf the use cases act. */
    Requester requester();

    /** Refuses with 403 naming the lowest role that would do, unless this caller is a key whose role covers it. */
    void require(Role required);

    /**
     * The wallet a request names, when this caller may act for it: any wallet of the organisation
     * for a key, and only its own for an agent, to which every other wallet does not exist (404).
     */
    WalletId own(WalletId requested);

    static Caller of(SecurityContext context) {
        return (Caller) context.getUserPrincipal();
    }

    /** An organisation's API key. */
    record Key(ApiKeyId keyId, OrgId orgId, Role role) implements Caller {
        public Key {
            requireNonNull(keyId, "keyId is null");
            requireNonNull(orgId, "orgId is null");
            requireNonNull(role, "role is null");
        }

        public static Key of(ApiKey key) {
            return new Key(key.id(), key.orgId(), key.role());
        }

        @Override
        public Actor actor() {
            return new Actor(keyId.value());
        }

        @Override
        public Requester requester() {
            return Requester.of(orgId);
        }

        @Override
        public void require(Role required) {
            if (!role.covers(required)) {
                throw ApiException.forbidden(required);
            }
        }

        @Override
        public WalletId own(WalletId requested) {
            return requested;
        }

        @Override
        public String getName() {
            return keyId.value();
        }
    }

    /**
     * An agent, by its wallet's session token, whose signature verified. Whether the token is still
     * live (not rotated, not expired) is checked against the wallet before the endpoint runs, or,
     * for a payment, by the policy's first check.
     */
    record Agent(OrgId orgId, SessionGrant grant) implements Caller {
        public Agent {
            requireNonNull(orgId, "orgId is null");
            requireNonNull(grant, "grant is null");
        }

        public WalletId walletId() {
            return grant.walletId();
        }

        @Override
        public Actor actor() {
            return new Actor(walletId().value());
        }

        @Override
        public Requester requester() {
            return new Requester.Agent(orgId, walletId());
        }

        @Override
        public void require(Role required) {
            throw ApiException.forbiddenToAgents(required);
        }

        @Override
        public WalletId own(WalletId requested) {
            if (!requested.equals(walletId())) {
                throw ErrorResponses.of(new Rejection.NotFound("wallet", requested.value()));
            }
            return requested;
        }

        /** The wallet a request names, or the agent's own when it names none. */
        public WalletId ownOr(Optional<WalletId> requested) {
            return own(requested.orElse(walletId()));
        }

        @Override
        public String getName() {
            return walletId().value();
        }
    }
}
