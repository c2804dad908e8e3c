package com.agentwallet.adapters.http.resource;

import com.agentwallet.adapters.http.auth.AgentToken;
import com.agentwallet.adapters.http.auth.Caller;
import com.agentwallet.adapters.http.auth.RequiresRole;
import com.agentwallet.adapters.http.view.EscrowJson;
import com.agentwallet.adapters.http.view.ListJson;
import com.agentwallet.core.auth.Role;
import com.agentwallet.core.common.WireNamed;
import com.agentwallet.core.escrow.EscrowCommand;
import com.agentwallet.core.escrow.EscrowService;
import com.agentwallet.core.escrow.EscrowStatus;
import com.agentwallet.core.escrow.LockEscrow;
import com.agentwallet.core.id.EscrowId;
import com.agentwallet.core.idempotency.RequestKey;
import com.agentwallet.core.port.EscrowStore;
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
import jakarta.ws.rs.core.UriInfo;

import java.util.Optional;

import static com.agentwallet.adapters.http.error.ErrorResponses.orThrow;
import static java.util.Objects.requireNonNull;

/** {@code /payments/a2a}: agent-to-agent escrow — lock, complete with a proof, dispute, resolve. */
@Path("/payments/a2a")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public final class EscrowResource {
    private final EscrowService escrows;
    private final PaymentResource payments;

    /** {@code payments} tells which session token an escrow lock is checked with, as for a payment. */
    public EscrowResource(EscrowService escrows, PaymentResource payments) {
        this.escrows = requireNonNull(escrows, "escrows is null");
        this.payments = requireNonNull(payments, "payments is null");
    }

    public record LockJson(String fromWallet, String toWallet, String amount, String currency, String taskDescription,
                           Long timeoutSeconds, String expectedProof) {
    }

    public record CompleteJson(String proofType, String proof) {
    }

    public record DisputeJson(String reason, String evidence) {
    }

    public record ResolveJson(String outcome) {
    }

    /**
     * Locks funds of the paying wallet, under its policy and with its session token, like a payment:
     * an agent's own credential, or the {@code Session-Token} an API key sends on its behalf.
     */
    @POST
    @RequiresRole(Role.ADMIN)
    @AgentToken(checkedByPolicy = true)
    public Response lock(@Context SecurityContext security, @Context ContainerRequestContext request,
                         @HeaderParam(PaymentResource.SESSION_TOKEN) String token, LockJson body) {
        Caller caller = Caller.of(security);
        Bodies.required(body);
        Currency.require(body.currency());
        RequestKey key = IdempotencyKeyHeader.of(caller, request, body);
        return IdempotencyKeyHeader.answer(key, EscrowJson.of(orThrow(escrows.lock(new LockEscrow(caller.orgId(),
                PaymentResource.payingWallet(caller, body.fromWallet(), "from_wallet"),
                Bodies.required(body.toWallet(), "to_wallet"), Bodies.positiveAmount(body.amount(), "amount"),
                body.taskDescription() == null ? "" : body.taskDescription(),
                Bodies.required(body.timeoutSeconds(), "timeout_seconds"), Optional.ofNullable(body.expectedProof()),
                payments.session(caller, token)), key))));
    }

    /** The escrows the caller is a party to: its organisation sends or receives them, or its agent's wallet does. */
    @GET
    @RequiresRole(Role.VIEWER)
    @AgentToken
    public ListJson<EscrowJson> list(@Context SecurityContext security, @Context UriInfo uri) {
        QueryParams query = QueryParams.of(uri, "wallet_id", "status");
        EscrowStore.Query filter = new EscrowStore.Query(query.get("wallet_id").map(WalletResource::walletId),
                query.get("status").map(status -> WireNamed.parse(EscrowStatus.class, status, "status")));
        return ListJson.of(escrows.list(Caller.of(security).requester(), filter, query.page()), EscrowJson::of);
    }

    @GET
    @Path("/{id}")
    @RequiresRole(Role.VIEWER)
    @AgentToken
    public EscrowJson get(@Context SecurityContext security, @PathParam("id") String id) {
        return EscrowJson.of(orThrow(escrows.get(Caller.of(security).requester(), escrowId(id))));
    }

    /**
     * Releases to the receiver when the proof is a SHA-256 hex hash (and the expected one, if set):
     * the receiving side (its agent, or its organisation's key) or the sending organisation.
     */
    @POST
    @Path("/{id}/complete")
    @RequiresRole(Role.ADMIN)
    @AgentToken
    public EscrowJson complete(@Context SecurityContext security, @PathParam("id") String id, CompleteJson body) {
        Bodies.required(body);
        return EscrowJson.of(orThrow(escrows.complete(Caller.of(security).requester(), escrowId(id),
                Bodies.required(body.proofType(), "proof_type"), Bodies.required(body.proof(), "proof"))));
    }

    /** The sending side (its agent, or its organisation's key) disputes, while locked and before the deadline. */
    @POST
    @Path("/{id}/dispute")
    @RequiresRole(Role.ADMIN)
    @AgentToken
    public EscrowJson dispute(@Context SecurityContext security, @PathParam("id") String id, DisputeJson body) {
        Bodies.required(body);
        return EscrowJson.of(orThrow(escrows.dispute(Caller.of(security).requester(), escrowId(id),
                Bodies.required(body.reason(), "reason"), Bodies.required(body.evidence(), "evidence"))));
    }

    /** An operator settles a dispute: {@code release} to the receiver or {@code refund} to the sender. */
    @POST
    @Path("/{id}/resolve")
    @RequiresRole(Role.OPERATOR)
    public EscrowJson resolve(@Context SecurityContext security, @PathParam("id") String id, ResolveJson body) {
        Bodies.required(body);
        EscrowCommand.Outcome outcome = WireNamed.parse(EscrowCommand.Outcome.class,
                Bodies.required(body.outcome(), "outcome"), "outcome");
        return EscrowJson.of(orThrow(escrows.resolve(Caller.of(security).orgId(), escrowId(id), outcome)));
    }

    private static EscrowId escrowId(String id) {
        return PathIds.parse(id, "escrow", EscrowId::new);
    }
}
