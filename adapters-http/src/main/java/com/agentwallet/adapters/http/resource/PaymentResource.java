package com.agentwallet.adapters.http.resource;

import com.agentwallet.adapters.http.auth.Caller;
import com.agentwallet.adapters.http.auth.RequiresRole;
import com.agentwallet.adapters.http.error.ApiException;
import com.agentwallet.adapters.http.error.ErrorJson;
import com.agentwallet.adapters.http.session.SessionTokens;
import com.agentwallet.adapters.http.view.TransactionJson;
import com.agentwallet.core.auth.Role;
import com.agentwallet.core.id.TxId;
import com.agentwallet.core.payment.PayCommand;
import com.agentwallet.core.payment.PaymentResult;
import com.agentwallet.core.payment.PaymentService;
import com.agentwallet.core.payment.RecordedResponse;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.policy.Decision;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;

import java.nio.charset.StandardCharsets;
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
    private final ObjectMapper json;

    public PaymentResource(PaymentService payments, SessionTokens sessionTokens, ObjectMapper json) {
        this.payments = requireNonNull(payments, "payments is null");
        this.sessionTokens = requireNonNull(sessionTokens, "sessionTokens is null");
        this.json = requireNonNull(json, "json is null");
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
     * back, and nothing is recorded, moved, announced or remembered.
     */
    @POST
    @RequiresRole(Role.ADMIN)
    public Response pay(@Context SecurityContext security, @HeaderParam(SESSION_TOKEN) String sessionToken,
                        @HeaderParam(DRY_RUN) String dryRun, PayJson body) {
        Caller caller = Caller.of(security);
        Bodies.required(body);
        Currency.require(body.currency());
        PayCommand command = new PayCommand(caller.orgId(),
                WalletResource.walletId(Bodies.required(body.walletId(), "wallet_id")), Bodies.required(body.to(), "to"),
                Bodies.positiveAmount(body.amount(), "amount"), Optional.ofNullable(body.memo()),
                Optional.ofNullable(body.idempotencyKey()), Boolean.TRUE.equals(body.requireCoSign()),
                sessionTokens.fromHeader(sessionToken, caller.orgId()), Optional.of(caller.actor()));
        if (isDryRun(dryRun)) {
            return Response.ok(DecisionJson.of(orThrow(payments.decide(command)))).build();
        }
        PaymentResult result = orThrow(payments.pay(command, Optional.of(this::render)));
        RecordedResponse answer = result.response().orElseGet(() -> render(result.transaction()));
        Response.ResponseBuilder response = Response.status(answer.status())
                .entity(answer.body().getBytes(StandardCharsets.UTF_8));
        return (result.replayed() ? response.header(IDEMPOTENT_REPLAYED, "true") : response).build();
    }

    @GET
    @Path("/{id}")
    @RequiresRole(Role.VIEWER)
    public TransactionJson get(@Context SecurityContext security, @PathParam("id") String id) {
        return TransactionJson.of(orThrow(payments.get(Caller.of(security).orgId(), txId(id))));
    }

    /**
     * The operator's Ed25519 signature of {@code co_sign_payload}; a wrong one is a 400 and changes
     * nothing, and the API key that made the payment cannot approve it (403 {@code same_credential}).
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

    @POST
    @Path("/{id}/reject")
    @RequiresRole(Role.OPERATOR)
    public TransactionJson reject(@Context SecurityContext security, @PathParam("id") String id, RejectJson body) {
        String reason = body == null || body.reason() == null ? "rejected by operator" : body.reason();
        return TransactionJson.of(orThrow(payments.reject(Caller.of(security).orgId(), txId(id), reason)));
    }

    private RecordedResponse render(Transaction transaction) {
        try {
            return new RecordedResponse(200, json.writeValueAsString(TransactionJson.of(transaction)));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write a transaction as JSON", e);
        }
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
