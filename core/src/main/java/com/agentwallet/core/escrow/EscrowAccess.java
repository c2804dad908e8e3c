package com.agentwallet.core.escrow;

import com.agentwallet.core.auth.Requester;
import com.agentwallet.core.auth.Role;
import com.agentwallet.core.common.Rejection;
import com.agentwallet.core.id.OrgId;

import java.util.Optional;

/**
 * Who may do what to an escrow. Its parties are the sending wallet and its organisation, and the
 * receiving wallet and its organisation when the escrow pays a wallet of this service (of any
 * organisation). Both parties read it. The receiving side (its agent or its organisation) or the
 * sending organisation completes it; only the sending side (its agent or its organisation)
 * disputes it, and only the sending organisation resolves a dispute. To anyone else the escrow
 * does not exist.
 */
final class EscrowAccess {

    enum Action {
        READ(Role.VIEWER, ""),
        COMPLETE(Role.ADMIN, "Only the receiving side completes an escrow: the receiving wallet's agent or "
                + "organisation, or the sending organisation with an API key"),
        DISPUTE(Role.ADMIN, "Only the sending side disputes an escrow: the sending wallet's agent, or its "
                + "organisation with an API key"),
        RESOLVE(Role.OPERATOR, "Only the sending organisation resolves a disputed escrow, with an API key");

        /** The lowest API-key role, of a side that may, that would do. */
        private final Role lowest;
        private final String refusal;

        Action(Role lowest, String refusal) {
            this.lowest = lowest;
            this.refusal = refusal;
        }
    }

    private EscrowAccess() {
    }

    /**
     * Nothing when {@code requester} may do {@code action} to {@code escrow}, whose receiving wallet
     * belongs to {@code receiverOrg} (empty when it pays a bare ledger address); otherwise why not.
     */
    static Optional<Rejection> check(Requester requester, Escrow escrow, Optional<OrgId> receiverOrg, Action action) {
        boolean agent = requester instanceof Requester.Agent;
        boolean sender;
        boolean receiver;
        if (requester instanceof Requester.Agent wallet) {
            sender = escrow.orgId().equals(wallet.orgId()) && escrow.fromWallet().equals(wallet.walletId());
            receiver = escrow.receiverWallet().equals(Optional.of(wallet.walletId()));
        } else {
            sender = escrow.orgId().equals(requester.orgId());
            receiver = receiverOrg.equals(Optional.of(requester.orgId()));
        }
        if (!sender && !receiver) {
            return Optional.of(new Rejection.NotFound("escrow", escrow.id().value()));
        }
        boolean allowed = switch (action) {
            case READ -> true;
            case COMPLETE -> receiver || sender && !agent;
            case DISPUTE -> sender;
            case RESOLVE -> sender && !agent;
        };
        return allowed ? Optional.empty() : Optional.of(new Rejection.Forbidden(action.lowest, action.refusal));
    }
}
