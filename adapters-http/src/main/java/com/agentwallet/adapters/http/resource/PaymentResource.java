package com.agentwallet.adapters.http.resource;

import com.agentwallet.adapters.http.auth.AgentToken;
import com.agentwallet.adapters.http.auth.Caller;
import com.agentwallet.adapters.http.auth.RequiresRole;
import com.agentwallet.adapters.http.error.ApiException;
import com.agentwallet.adapters.http.error.ErrorResponses;
import com.agentwallet.adapters.http.view.TransactionJson;
import com.agentwallet.core.auth.Role;
import com.agentwallet.core.common.Rejection;
import com.agentwallet.core.id.TxId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.payment.PayCommand;
import com.agentwallet.core.payment.PaymentResult;
import com.agentwallet.core.payment.PaymentService;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.policy.Decision;
import com.agentwallet.core.policy.SessionGrant;
import com.agentwallet.edge.error.ErrorJson;
import com.agentwallet.edge.session.SessionTokens;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;

import java.util.Optional;

import static com.agentwallet.adapters.http.error.ErrorResponses.orThrow;
import static java.util.Objects.requireNonNull;

/**
 * {@code /payments}: pay from a wallet (with a session token, an optional idempotency key and an
 * optional dry run), read a payment, and the operator's co-sign or reject.
 */
@Path("/payments")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public final class PaymentResource {
    public static final String SESSION_TOKEN = "Session-Token";
    public static final String DRY_RUN = "Dry-Run";
    public static final String IDEMPOTENT_REPLAYED = "Idempotent-Replayed";

    private final PaymentService payments;
    private final SessionTokens sessionTokens;

    public PaymentResource(PaymentService payments, SessionTokens sessionTokens) {
        this.payments = requireNonNull(payments, "payments is null");
        this.sessionTokens = requireNonNull(sessionTokens, "sessionTokens is null");
    }

    public record PayJson(String walletId, String to, String amount, String currency, String memo,
                          String idempotencyKey, Boolean requireCoSign) {
    }

    public record CoSignJson(String signature) {
    }

    public record RejectJson(String reason) {
    }

    public record DecisionJson(String object, String decision, ErrorJson.ViolationJson violation) {
        static DecisionJson of(Decision decision) {
            if (decision instanceof Decision.Blocked blocked) {
                return new DecisionJson("payment_decision", "blocked", ErrorJson.ViolationJson.of(blocked.violation()));
            }
            return new DecisionJson("payment_decision",
                    decision instanceof Decision.NeedsCoSign ? "needs_co_sign" : "allowed", null);
        }
    }

    /**
     * Pays. A repeated idempotency key with the same request answers the first response again,
     * marked {@code Idempotent-Replayed: true}; with {@code Dry-Run: true} only the decision comes
     * back, and nothing is recorded, moved, announced or remembered. An agent pays from its own
     * wallet with its session token as its credential ({@code wallet_id} may be left out); an API
     * key pays on an agent's behalf with the agent's token in {@code Session-Token}.
     */
    @POST
    @RequiresRole(Role.ADMIN)
    @AgentToken(checkedByPolicy = true)
    public Response pay(@Context SecurityContext security, @Context ContainerRequestContext request,
                        @HeaderParam(SESSION_TOKEN) String sessionToken, @HeaderParam(DRY_RUN) String dryRun,
                        PayJson body) {
        Caller caller = Caller.of(security);
        Bodies.required(body);
        Currency.require(body.currency());
        PayCommand command = new PayCommand(caller.orgId(), payingWallet(caller, body.walletId(), "wallet_id"),
                Bodies.required(body.to(), "to"),
                Bodies.positiveAmount(body.amount(), "amount"), Optional.ofNullable(body.memo()),
                IdempotencyKeyHeader.ofPayment(request, body.idempotencyKey()),
                Boolean.TRUE.equals(body.requireCoSign()),
                session(caller, sessionToken), Optional.of(caller.actor()));
        if (isDryRun(dryRun)) {
            return Response.ok(DecisionJson.of(orThrow(payments.decide(command)))).build();
        }
        PaymentResult result = orThrow(payments.pay(command));
        Response.ResponseBuilder response = Response.ok(TransactionJson.of(result.transaction()));
        return (result.replayed() ? response.header(IDEMPOTENT_REPLAYED, "true") : response).build();
    }

    @GET
    @Path("/{id}")
    @RequiresRole(Role.VIEWER)
    @AgentToken
    public TransactionJson get(@Context SecurityContext security, @PathParam("id") String id) {
        return read(payments, Caller.of(security), id);
    }

    /**
     * The session token a payment or escrow lock is checked with: an agent's own credential, or the
     * {@code Session-Token} header an API key sends on an agent's behalf.
     */
    Optional<SessionGrant> session(Caller caller, String header) {
        return caller instanceof Caller.Agent agent ? Optional.of(agent.grant())
                : sessionTokens.fromHeader(header, caller.orgId());
    }

    /** The wallet a payment or escrow names to pay from: required of a key; an agent's own, named or not. */
    static WalletId payingWallet(Caller caller, String named, String param) {
        if (caller instanceof Caller.Agent agent) {
            return agent.ownOr(Optional.ofNullable(named).map(WalletResource::walletId));
        }
        return WalletResource.walletId(Bodies.required(named, param));
    }

    /** A transaction of the caller's organisation; for an agent, only one of its wallet's. */
    static TransactionJson read(PaymentService payments, Caller caller, String id) {
        Transaction tx = orThrow(payments.get(caller.orgId(), txId(id)));
        if (caller instanceof Caller.Agent agent && !tx.walletId().equals(agent.walletId())) {
            throw ErrorResponses.of(new Rejection.NotFound("transaction", tx.id().value()));
        }
        return TransactionJson.of(tx);
    }

    /**
     * The operator's Ed25519 signature of {@code co_sign_payload}; a wrong one is a 400 and changes
     * nothing, and the credential that made the payment cannot approve it (403 {@code same_credential}).
     */
    @POST
    @Path("/{id}/co-sign")
    @RequiresRole(Role.OPERATOR)
    public TransactionJson coSign(@Context SecurityContext security, @PathParam("id") String id, CoSignJson body) {
        Caller caller = Caller.of(security);
        Bodies.required(body);
        return TransactionJson.of(orThrow(payments.coSign(caller.orgId(), txId(id),
                Bodies.required(body.signature(), "signature"), caller.actor())));
    }

    /** The operator declines; the credential that made the payment cannot (403 {@code same_credential}). */
    @POST
    @Path("/{id}/reject")
    @RequiresRole(Role.OPERATOR)
    public TransactionJson reject(@Context SecurityContext security, @PathParam("id") String id, RejectJson body) {
        Caller caller = Caller.of(security);
        String reason = body == null || body.reason() == null ? "rejected by operator" : body.reason();
        return TransactionJson.of(orThrow(payments.reject(caller.orgId(), txId(id), reason, caller.actor())));
    }

    private static boolean isDryRun(String header) {
        if (header == null || header.equalsIgnoreCase("false")) {
            return false;
        }
        if (header.equalsIgnoreCase("true")) {
            return true;
        }
        throw ApiException.validation(DRY_RUN, "The header 'Dry-Run' must be true or false");
    }

    static TxId txId(String id) {
        return PathIds.parse(id, "transaction", TxId::new);
    }
}
