package com.agentwallet.adapters.http.resource;

import com.agentwallet.adapters.http.auth.AgentToken;
import com.agentwallet.adapters.http.auth.Caller;
import com.agentwallet.adapters.http.auth.RequiresRole;
import com.agentwallet.adapters.http.error.ApiException;
import com.agentwallet.adapters.http.view.ListJson;
import com.agentwallet.adapters.http.view.SessionTokenJson;
import com.agentwallet.adapters.http.view.TransactionJson;
import com.agentwallet.adapters.http.view.WalletJson;
import com.agentwallet.core.auth.Role;
import com.agentwallet.core.common.Timestamps;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.PolicyId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.idempotency.RequestKey;
import com.agentwallet.core.payment.PaymentService;
import com.agentwallet.core.policy.SessionGrant;
import com.agentwallet.core.port.TransactionStore;
import com.agentwallet.core.port.WalletStore;
import com.agentwallet.core.wallet.AutoTopup;
import com.agentwallet.core.wallet.CreateWallet;
import com.agentwallet.core.wallet.CreatedWallet;
import com.agentwallet.core.wallet.Funding;
import com.agentwallet.core.wallet.WalletService;
import com.agentwallet.core.wallet.WalletStatus;
import com.agentwallet.core.wallet.WalletUpdate;
import com.agentwallet.edge.session.SessionTokens;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.core.UriInfo;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static com.agentwallet.adapters.http.error.ErrorResponses.orThrow;
import static java.util.Objects.requireNonNull;

/** {@code /wallets}: provisioning, funding, withdrawal, status, session tokens and each wallet's history. */
@Path("/wallets")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public final class WalletResource {
    private final WalletService wallets;
    private final PaymentService payments;
    private final SessionTokens sessionTokens;

    public WalletResource(WalletService wallets, PaymentService payments, SessionTokens sessionTokens) {
        this.wallets = requireNonNull(wallets, "wallets is null");
        this.payments = requireNonNull(payments, "payments is null");
        this.sessionTokens = requireNonNull(sessionTokens, "sessionTokens is null");
    }

    public record CreateWalletJson(String agentId, String label, String policyId, List<String> tags, String ownerOrg,
                                   Long sessionTtlSeconds) {
    }

    public record UpdateWalletJson(String label, String policyId, String status) {
    }

    public record AmountJson(String amount, String currency) {
    }

    public record FundingLineJson(String walletId, String amount, String currency) {
    }

    public record AutoTopupJson(Boolean enabled, String triggerBelow, String topupAmount) {
    }

    public record RotateTokenJson(Long ttlSeconds) {
    }

    @POST
    @RequiresRole(Role.ADMIN)
    public Response create(@Context SecurityContext security, @Context ContainerRequestContext request,
                           CreateWalletJson body) {
        Caller caller = Caller.of(security);
        Bodies.required(body);
        if (body.ownerOrg() != null && !body.ownerOrg().equals(caller.orgId().value())) {
            throw ApiException.validation("owner_org", "'owner_org' must be the API key's organisation, "
                    + caller.orgId().value() + ", or left out");
        }
        PolicyId policyId = policyId(Bodies.required(body.policyId(), "policy_id"));
        RequestKey key = IdempotencyKeyHeader.of(caller, request, body);
        CreatedWallet created = orThrow(wallets.create(new CreateWallet(caller.orgId(), body.agentId(),
                body.label() == null ? "" : body.label(), policyId, body.tags() == null ? List.of() : body.tags(),
                ttl(body.sessionTtlSeconds())), key));
        return IdempotencyKeyHeader.answer(key,
                WalletJson.of(created.wallet()).withSession(session(caller.orgId(), created.session())));
    }

    @GET
    @RequiresRole(Role.VIEWER)
    public ListJson<WalletJson> list(@Context SecurityContext security, @Context UriInfo uri) {
        QueryParams query = QueryParams.of(uri, "status", "tags");
        WalletStore.Query filter = new WalletStore.Query(
                query.get("status").map(status -> WalletStatus.fromWire(status, "status")),
                query.get("tags").map(tags -> Arrays.stream(tags.split(",")).map(String::trim)
                        .filter(tag -> !tag.isEmpty()).toList()).orElse(List.of()));
        return ListJson.of(wallets.list(Caller.of(security).orgId(), filter, query.page()), WalletJson::of);
    }

    @GET
    @Path("/{id}")
    @RequiresRole(Role.VIEWER)
    @AgentToken
    public WalletJson get(@Context SecurityContext security, @PathParam("id") String id) {
        Caller caller = Caller.of(security);
        return WalletJson.of(orThrow(wallets.get(caller.orgId(), caller.own(walletId(id)))));
    }

    /** Operators may freeze and unfreeze; changing the label or policy takes an admin. */
    @PATCH
    @Path("/{id}")
    @RequiresRole(Role.OPERATOR)
    public WalletJson update(@Context SecurityContext security, @Context ContainerRequestContext request,
                             @PathParam("id") String id, UpdateWalletJson body) {
        Caller caller = Caller.of(security);
        Bodies.required(body);
        Set<String> sent = Bodies.sent(request);
        WalletUpdate update = new WalletUpdate(Bodies.update(sent, "label", body.label(), label -> label),
                Bodies.update(sent, "policy_id", body.policyId(), WalletResource::policyId),
                sent.contains("status") ? Optional.of(WalletStatus.fromWire(Bodies.required(body.status(), "status"),
                        "status")) : Optional.empty());
        if (!update.onlyStatus()) {
            caller.require(Role.ADMIN);
        }
        return WalletJson.of(orThrow(wallets.update(caller.orgId(), walletId(id), update)));
    }

    @POST
    @Path("/{id}/fund")
    @RequiresRole(Role.ADMIN)
    public Response fund(@Context SecurityContext security, @Context ContainerRequestContext request,
                         @PathParam("id") String id, AmountJson body) {
        Bodies.required(body);
        Currency.require(body.currency());
        Caller caller = Caller.of(security);
        RequestKey key = IdempotencyKeyHeader.of(caller, request, body);
        return IdempotencyKeyHeader.answer(key, WalletJson.of(orThrow(wallets.fund(caller.orgId(), walletId(id),
                Bodies.positiveAmount(body.amount(), "amount"), key))));
    }

    @POST
    @Path("/fund-batch")
    @RequiresRole(Role.ADMIN)
    public Response fundBatch(@Context SecurityContext security, @Context ContainerRequestContext request,
                              List<FundingLineJson> body) {
        Bodies.required(body);
        List<Funding> lines = body.stream().map(line -> {
            Bodies.required(line);
            Currency.require(line.currency());
            return new Funding(PathIds.parse(Bodies.required(line.walletId(), "wallet_id"), "wallet", WalletId::new),
                    Bodies.positiveAmount(line.amount(), "amount"));
        }).toList();
        Caller caller = Caller.of(security);
        RequestKey key = IdempotencyKeyHeader.of(caller, request, body);
        return IdempotencyKeyHeader.answer(key, ListJson.all(orThrow(wallets.fundBatch(caller.orgId(), lines, key)),
                WalletJson::of));
    }

    /** {@code amount} is a decimal string or {@code all}. */
    @POST
    @Path("/{id}/withdraw")
    @RequiresRole(Role.ADMIN)
    public Response withdraw(@Context SecurityContext security, @Context ContainerRequestContext request,
                             @PathParam("id") String id, AmountJson body) {
        Bodies.required(body);
        Currency.require(body.currency());
        String amount = Bodies.required(body.amount(), "amount");
        Caller caller = Caller.of(security);
        RequestKey key = IdempotencyKeyHeader.of(caller, request, body);
        return IdempotencyKeyHeader.answer(key, WalletJson.of(orThrow(wallets.withdraw(caller.orgId(), walletId(id),
                amount.equals("all") ? Optional.empty() : Optional.of(Bodies.positiveAmount(amount, "amount")), key))));
    }

    /** Sets the rule; {@code {"enabled": false}} turns it off. */
    @PUT
    @Path("/{id}/auto-topup")
    @RequiresRole(Role.ADMIN)
    public WalletJson autoTopup(@Context SecurityContext security, @PathParam("id") String id, AutoTopupJson body) {
        Bodies.required(body);
        boolean enabled = Bodies.required(body.enabled(), "enabled");
        Optional<AutoTopup> rule = enabled || body.triggerBelow() != null || body.topupAmount() != null
                ? Optional.of(new AutoTopup(enabled, Bodies.positiveAmount(body.triggerBelow(), "trigger_below"),
                Bodies.positiveAmount(body.topupAmount(), "topup_amount")))
                : Optional.empty();
        return WalletJson.of(orThrow(wallets.setAutoTopup(Caller.of(security).orgId(), walletId(id), rule)));
    }

    /** Issues a new session token; every earlier token of the wallet stops working at once. */
    @POST
    @Path("/{id}/rotate-token")
    @RequiresRole(Role.ADMIN)
    public SessionTokenJson rotateToken(@Context SecurityContext security, @PathParam("id") String id,
                                        RotateTokenJson body) {
        OrgId orgId = Caller.of(security).orgId();
        SessionGrant grant = orThrow(wallets.rotateSession(orgId, walletId(id),
                ttl(body == null ? null : body.ttlSeconds())));
        return session(orgId, grant);
    }

    /** Archives: the wallet stays readable, its balance returns to the organisation. */
    @DELETE
    @Path("/{id}")
    @RequiresRole(Role.ADMIN)
    public WalletJson archive(@Context SecurityContext security, @PathParam("id") String id) {
        return WalletJson.of(orThrow(wallets.archive(Caller.of(security).orgId(), walletId(id))));
    }

    @GET
    @Path("/{id}/transactions")
    @RequiresRole(Role.VIEWER)
    @AgentToken
    public ListJson<TransactionJson> transactions(@Context SecurityContext security, @PathParam("id") String id,
                                                  @Context UriInfo uri) {
        Caller caller = Caller.of(security);
        OrgId orgId = caller.orgId();
        WalletId walletId = caller.own(walletId(id));
        QueryParams query = QueryParams.of(uri, "status", "type", "from", "to");
        orThrow(wallets.get(orgId, walletId));
        return ListJson.of(payments.list(orgId, TransactionQuery.of(query, Optional.of(walletId)), query.page()),
                TransactionJson::of);
    }

    private SessionTokenJson session(OrgId orgId, SessionGrant grant) {
        return new SessionTokenJson("session_token", grant.walletId().value(), sessionTokens.issue(orgId, grant),
                Timestamps.format(grant.expiresAt()));
    }

    private static Optional<Duration> ttl(Long seconds) {
        return Optional.ofNullable(seconds).map(Duration::ofSeconds);
    }

    static WalletId walletId(String id) {
        return PathIds.parse(id, "wallet", WalletId::new);
    }

    private static PolicyId policyId(String id) {
        return PathIds.parse(id, "policy", PolicyId::new);
    }
}
