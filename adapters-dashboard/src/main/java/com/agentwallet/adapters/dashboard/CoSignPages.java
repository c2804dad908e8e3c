package com.agentwallet.adapters.dashboard;

import com.agentwallet.core.auth.Role;
import com.agentwallet.core.common.Rejection;
import com.agentwallet.core.common.Result;
import com.agentwallet.core.id.TxId;
import com.agentwallet.core.id.TypedId;
import com.agentwallet.core.payment.Transaction;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.net.URI;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The co-sign inbox at {@link Navigation#CO_SIGN_INBOX}, for operators and the roles above: the
 * payments awaiting a co-signature, and approving one (with the signature the page's script made
 * with the key loaded in the browser) or rejecting it.
 */
@Singleton
@Path("co-sign")
@Produces(MediaType.TEXT_HTML + ";charset=utf-8")
public final class CoSignPages {
    private static final String FORBIDDEN = "Forbidden: the co-sign inbox is for operators, admins and owners";
    private final DashboardSessions sessions;
    private final CoSignInbox inbox;

    @Inject
    public CoSignPages(DashboardSessions sessions, CoSignInbox inbox) {
        this.sessions = requireNonNull(sessions, "sessions is null");
        this.inbox = requireNonNull(inbox, "inbox is null");
    }

    /** The inbox; {@code done} names the payment just decided, whose status it reports as it is now. */
    @GET
    public Response inbox(@CookieParam(DashboardSessions.COOKIE) String cookie, @QueryParam("done") String done) {
        return Access.as(sessions, cookie, Role.OPERATOR, FORBIDDEN, user -> {
            Optional<Transaction> decided = txId(done).flatMap(id -> inbox.find(user.user(), id));
            return Response.ok(InboxPage.render(user, inbox.pending(user.user()), decided, Optional.empty()).markup())
                    .build();
        });
    }

    @POST
    @Path("{txId}/approve")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response approve(@CookieParam(DashboardSessions.COOKIE) String cookie, @PathParam("txId") String txId,
                            @FormParam("csrf_token") String csrfToken, @FormParam("signature") String signature) {
        return decide(cookie, csrfToken, txId, (user, id) -> signature == null || signature.isBlank()
                ? Result.refused(new Rejection.InvalidInput("signature",
                        "No signature: load the co-signer's secret key in the key panel, then approve"))
                : inbox.approve(user.user(), id, signature.trim()));
    }

    @POST
    @Path("{txId}/reject")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response reject(@CookieParam(DashboardSessions.COOKIE) String cookie, @PathParam("txId") String txId,
                           @FormParam("csrf_token") String csrfToken) {
        return decide(cookie, csrfToken, txId, (user, id) -> inbox.reject(user.user(), id));
    }

    private interface Decision {
        Result<Transaction> apply(SignedIn user, TxId txId);
    }

    /** A decision: 303 back to the inbox reporting it, or the inbox again with the core's refusal. */
    private Response decide(String cookie, String csrfToken, String txId, Decision decision) {
        return Access.as(sessions, cookie, Role.OPERATOR, FORBIDDEN, user -> {
            if (!Csrf.matches(user.csrfToken(), csrfToken)) {
                return DashboardPages.forbidden();
            }
            Optional<TxId> id = txId(txId);
            Result<Transaction> result = id.isPresent() ? decision.apply(user, id.get())
                    : Result.refused(new Rejection.NotFound("transaction", txId));
            if (result.isOk()) {
                return Response.seeOther(URI.create(Navigation.CO_SIGN_INBOX + "?done=" + result.value().id().value()))
                        .build();
            }
            // Shown with the user's badge as it is now: the refusal may be that another operator got there first.
            SignedIn now = sessions.find(cookie).orElse(user);
            return Response.status(Access.status(result.rejection()))
                    .entity(InboxPage.render(now, inbox.pending(now.user()), Optional.empty(),
                            Optional.of(result.rejection().message())).markup())
                    .build();
        });
    }


    private static Optional<TxId> txId(String value) {
        return TypedId.isWellFormed(value, TxId.PREFIX) ? Optional.of(new TxId(value)) : Optional.empty();
    }
}
