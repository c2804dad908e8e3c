package com.agentwallet.adapters.http.resource;

import com.agentwallet.adapters.http.auth.Caller;
import com.agentwallet.adapters.http.auth.RequiresRole;
import com.agentwallet.adapters.http.view.ListJson;
import com.agentwallet.adapters.http.view.PolicyJson;
import com.agentwallet.core.auth.Role;
import com.agentwallet.core.common.Timestamps;
import com.agentwallet.core.id.PolicyId;
import com.agentwallet.core.idempotency.RequestKey;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.policy.CreatePolicy;
import com.agentwallet.core.policy.PolicyPatch;
import com.agentwallet.core.policy.PolicyRules;
import com.agentwallet.core.policy.PolicyService;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
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

import java.util.List;
import java.util.Set;

import static com.agentwallet.adapters.http.error.ErrorResponses.orThrow;
import static java.util.Objects.requireNonNull;

/** {@code /policies}: spending policies, their clones and their change history. */
@Path("/policies")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public final class PolicyResource {
    private final PolicyService policies;

    public PolicyResource(PolicyService policies) {
        this.policies = requireNonNull(policies, "policies is null");
    }

    /**
     * The fields of a policy, for creation, PATCH and clone alike: a field left out keeps its value
     * (or stays unset on creation), a field sent as null clears it.
     */
    public record PolicyFieldsJson(String name, String maxPerTx, String maxPerDay, String maxPerMonth,
                                   Integer velocityCap, List<String> allowedRecipients, List<String> blockedCategories,
                                   String expiry, String requireCoSign, String coSigner) {
        PolicyPatch patch(Set<String> sent) {
            return new PolicyPatch(Bodies.update(sent, "name", name, text -> text),
                    Bodies.update(sent, "max_per_tx", maxPerTx, text -> Usdc.parse(text, "max_per_tx")),
                    Bodies.update(sent, "max_per_day", maxPerDay, text -> Usdc.parse(text, "max_per_day")),
                    Bodies.update(sent, "max_per_month", maxPerMonth, text -> Usdc.parse(text, "max_per_month")),
                    Bodies.update(sent, "velocity_cap", velocityCap, cap -> cap),
                    Bodies.update(sent, "allowed_recipients", allowedRecipients, List::copyOf),
                    Bodies.update(sent, "blocked_categories", blockedCategories, Set::copyOf),
                    Bodies.update(sent, "expiry", expiry, text -> Timestamps.parse(text, "expiry")),
                    Bodies.update(sent, "require_co_sign", requireCoSign,
                            text -> Usdc.parsePositive(text, "require_co_sign")),
                    Bodies.update(sent, "co_signer", coSigner, key -> key));
        }
    }

    @POST
    @RequiresRole(Role.ADMIN)
    public Response create(@Context SecurityContext security, @Context ContainerRequestContext request,
                           PolicyFieldsJson body) {
        Caller caller = Caller.of(security);
        PolicyPatch fields = Bodies.required(body).patch(Bodies.sent(request));
        RequestKey key = IdempotencyKeyHeader.of(caller, request, body);
        return IdempotencyKeyHeader.answer(key, PolicyJson.of(orThrow(policies.create(new CreatePolicy(caller.orgId(),
                fields.applyToName(Bodies.required(body.name(), "name")), fields.applyTo(PolicyRules.NONE),
                caller.actor()), key))));
    }

    @GET
    @RequiresRole(Role.VIEWER)
    public ListJson<PolicyJson> list(@Context SecurityContext security, @Context UriInfo uri) {
        return ListJson.of(policies.list(Caller.of(security).orgId(), QueryParams.of(uri).page()), PolicyJson::of);
    }

    @GET
    @Path("/{id}")
    @RequiresRole(Role.VIEWER)
    public PolicyJson get(@Context SecurityContext security, @PathParam("id") String id) {
        return PolicyJson.of(orThrow(policies.get(Caller.of(security).orgId(), policyId(id))));
    }

    @PATCH
    @Path("/{id}")
    @RequiresRole(Role.ADMIN)
    public PolicyJson update(@Context SecurityContext security, @Context ContainerRequestContext request,
                             @PathParam("id") String id, PolicyFieldsJson body) {
        Caller caller = Caller.of(security);
        return PolicyJson.of(orThrow(policies.update(caller.orgId(), policyId(id),
                Bodies.required(body).patch(Bodies.sent(request)), caller.actor())));
    }

    /** A new policy from this one, with the body's fields as overrides; no body copies it as it is. */
    @POST
    @Path("/{id}/clone")
    @RequiresRole(Role.ADMIN)
    public Response cloneOf(@Context SecurityContext security, @Context ContainerRequestContext request,
                            @PathParam("id") String id, PolicyFieldsJson body) {
        Caller caller = Caller.of(security);
        RequestKey key = IdempotencyKeyHeader.of(caller, request, body);
        return IdempotencyKeyHeader.answer(key, PolicyJson.of(orThrow(policies.clone(caller.orgId(), policyId(id),
                body == null ? PolicyPatch.NONE : body.patch(Bodies.sent(request)), caller.actor(), key))));
    }

    /** Refused with 409 while a wallet uses the policy. */
    @DELETE
    @Path("/{id}")
    @RequiresRole(Role.ADMIN)
    public PolicyJson delete(@Context SecurityContext security, @PathParam("id") String id) {
        Caller caller = Caller.of(security);
        return PolicyJson.of(orThrow(policies.delete(caller.orgId(), policyId(id), caller.actor())));
    }

    @GET
    @Path("/{id}/audit-log")
    @RequiresRole(Role.VIEWER)
    public ListJson<PolicyJson.AuditEntryJson> auditLog(@Context SecurityContext security, @PathParam("id") String id,
                                                        @Context UriInfo uri) {
        return ListJson.of(orThrow(policies.auditLog(Caller.of(security).orgId(), policyId(id),
                QueryParams.of(uri).page())), PolicyJson.AuditEntryJson::of);
    }

    private static PolicyId policyId(String id) {
        return PathIds.parse(id, "policy", PolicyId::new);
    }
}
