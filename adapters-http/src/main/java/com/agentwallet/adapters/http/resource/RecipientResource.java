package com.agentwallet.adapters.http.resource;

import com.agentwallet.adapters.http.auth.Caller;
import com.agentwallet.adapters.http.auth.RequiresRole;
import com.agentwallet.adapters.http.error.ErrorResponses;
import com.agentwallet.core.auth.Role;
import com.agentwallet.core.common.Rejection;
import com.agentwallet.core.policy.PolicyService;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;

import static java.util.Objects.requireNonNull;

/** {@code /recipients/{address}}: the organisation's map of recipient to category, which {@code blocked_categories} reads. */
@Path("/recipients/{address}")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public final class RecipientResource {
    private final PolicyService policies;

    public RecipientResource(PolicyService policies) {
        this.policies = requireNonNull(policies, "policies is null");
    }

    public record CategoryJson(String category) {
    }

    public record RecipientJson(String object, String address, String category) {
    }

    @PUT
    @RequiresRole(Role.ADMIN)
    public RecipientJson categorise(@Context SecurityContext security, @PathParam("address") String address,
                                    CategoryJson body) {
        String category = Bodies.required(Bodies.required(body).category(), "category");
        policies.categorise(Caller.of(security).orgId(), address, category);
        return new RecipientJson("recipient", address, category);
    }

    @GET
    @RequiresRole(Role.VIEWER)
    public RecipientJson get(@Context SecurityContext security, @PathParam("address") String address) {
        return policies.categoryOf(Caller.of(security).orgId(), address)
                .map(category -> new RecipientJson("recipient", address, category))
                .orElseThrow(() -> ErrorResponses.of(new Rejection.NotFound("recipient", address)));
    }
}
