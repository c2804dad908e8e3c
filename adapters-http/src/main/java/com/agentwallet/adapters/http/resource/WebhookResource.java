package com.agentwallet.adapters.http.resource;

import com.agentwallet.adapters.http.auth.Caller;
import com.agentwallet.adapters.http.auth.RequiresRole;
import com.agentwallet.adapters.http.error.ApiException;
import com.agentwallet.adapters.http.view.ListJson;
import com.agentwallet.adapters.http.view.WebhookJson;
import com.agentwallet.core.auth.Role;
import com.agentwallet.core.event.EventType;
import com.agentwallet.core.id.WebhookId;
import com.agentwallet.core.idempotency.RequestKey;
import com.agentwallet.core.webhook.Subscription;
import com.agentwallet.core.webhook.WebhookService;
import com.agentwallet.core.webhook.WebhookStatus;
import com.fasterxml.jackson.databind.JsonNode;
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

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

import static com.agentwallet.adapters.http.error.ErrorResponses.orThrow;
import static java.util.Objects.requireNonNull;

/** {@code /webhooks}: receivers of events, their test ping and their delivery log. */
@Path("/webhooks")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public final class WebhookResource {
    private final WebhookService webhooks;

    public WebhookResource(WebhookService webhooks) {
        this.webhooks = requireNonNull(webhooks, "webhooks is null");
    }

    /** {@code events} is an array of event names, or {@code "*"} (alone or as the array {@code ["*"]}). */
    public record CreateWebhookJson(String url, JsonNode events) {
    }

    /** {@code {"status":"active"}} re-enables a degraded webhook; its paused events are then delivered. */
    public record UpdateWebhookJson(String url, JsonNode events, String status) {
    }

    @POST
    @RequiresRole(Role.ADMIN)
    public Response create(@Context SecurityContext security, @Context ContainerRequestContext request,
                           CreateWebhookJson body) {
        Bodies.required(body);
        Caller caller = Caller.of(security);
        RequestKey key = IdempotencyKeyHeader.of(caller, request, body);
        return IdempotencyKeyHeader.answer(key, WebhookJson.created(orThrow(webhooks.create(caller.orgId(),
                Bodies.required(body.url(), "url"), eventNames(Bodies.required(body.events(), "events")), key))));
    }

    @GET
    @RequiresRole(Role.VIEWER)
    public ListJson<WebhookJson> list(@Context SecurityContext security, @Context UriInfo uri) {
        return ListJson.of(webhooks.list(Caller.of(security).orgId(), QueryParams.of(uri).page()), WebhookJson::of);
    }

    @GET
    @Path("/{id}")
    @RequiresRole(Role.VIEWER)
    public WebhookJson get(@Context SecurityContext security, @PathParam("id") String id) {
        return WebhookJson.of(orThrow(webhooks.get(Caller.of(security).orgId(), webhookId(id))));
    }

    @PATCH
    @Path("/{id}")
    @RequiresRole(Role.ADMIN)
    public WebhookJson update(@Context SecurityContext security, @PathParam("id") String id, UpdateWebhookJson body) {
        Bodies.required(body);
        return WebhookJson.of(orThrow(webhooks.update(Caller.of(security).orgId(), webhookId(id),
                Optional.ofNullable(body.url()), Optional.ofNullable(body.events()).map(WebhookResource::eventNames),
                Optional.ofNullable(body.status()).map(status -> WebhookStatus.fromWire(status, "status")))));
    }

    @DELETE
    @Path("/{id}")
    @RequiresRole(Role.ADMIN)
    public WebhookJson delete(@Context SecurityContext security, @PathParam("id") String id) {
        return WebhookJson.of(orThrow(webhooks.delete(Caller.of(security).orgId(), webhookId(id))));
    }

    /** Queues a synthetic {@code ping} to this receiver, whatever it subscribes to. */
    @POST
    @Path("/{id}/test")
    @RequiresRole(Role.ADMIN)
    public WebhookJson.TestJson test(@Context SecurityContext security, @PathParam("id") String id) {
        WebhookId webhookId = webhookId(id);
        return new WebhookJson.TestJson("webhook_test", webhookId.value(),
                orThrow(webhooks.test(Caller.of(security).orgId(), webhookId)).value(), EventType.PING.wireName());
    }

    @GET
    @Path("/{id}/deliveries")
    @RequiresRole(Role.VIEWER)
    public ListJson<WebhookJson.DeliveryJson> deliveries(@Context SecurityContext security, @PathParam("id") String id,
                                                         @Context UriInfo uri) {
        return ListJson.of(orThrow(webhooks.deliveries(Caller.of(security).orgId(), webhookId(id),
                QueryParams.of(uri).page())), WebhookJson.DeliveryJson::of);
    }

    private static Collection<String> eventNames(JsonNode events) {
        if (events.isTextual() && events.asText().equals(Subscription.ALL)) {
            return List.of(Subscription.ALL);
        }
        if (!events.isArray()) {
            throw ApiException.validation("events", "'events' must be an array of event names, or \"*\"");
        }
        List<String> names = new ArrayList<>();
        for (JsonNode name : events) {
            if (!name.isTextual()) {
                throw ApiException.validation("events", "'events' must hold event names as strings");
            }
            names.add(name.asText());
        }
        return names;
    }

    private static WebhookId webhookId(String id) {
        return PathIds.parse(id, "webhook", WebhookId::new);
    }
}
