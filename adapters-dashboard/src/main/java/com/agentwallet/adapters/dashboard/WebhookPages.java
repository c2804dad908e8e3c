package com.agentwallet.adapters.dashboard;

import com.agentwallet.core.auth.Role;
import com.agentwallet.core.common.Page;
import com.agentwallet.core.common.PageRequest;
import com.agentwallet.core.common.Rejection;
import com.agentwallet.core.common.Result;
import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.event.EventType;
import com.agentwallet.core.id.EventId;
import com.agentwallet.core.id.TypedId;
import com.agentwallet.core.id.WebhookId;
import com.agentwallet.core.idempotency.RequestKey;
import com.agentwallet.core.webhook.DeliveryAttempt;
import com.agentwallet.core.webhook.Subscription;
import com.agentwallet.core.webhook.Webhook;
import com.agentwallet.core.webhook.WebhookService;
import com.agentwallet.core.webhook.WebhookStatus;
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
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;

import static java.util.Objects.requireNonNull;

/**
 * The admin's webhooks: the list, adding one (its signing secret shown once, in the answer to the
 * POST that made it), and per webhook its receiver and events, re-enabling it when degraded, a test
 * ping, deleting it, and its delivery log. The same use cases as {@code /v1/webhooks}.
 */
@Singleton
@Path("webhooks")
@Produces(MediaType.TEXT_HTML + ";charset=utf-8")
public final class WebhookPages {
    private static final String FORBIDDEN = "Forbidden: webhooks are for admins and owners";
    static final String PATH = Dashboard.PATH + "/webhooks";
    private static final String ALL_EVENTS = "all events";

    private static final Template LIST = Template.load("webhooks.html");
    private static final Template ROW = Template.load("webhook-row.html");
    private static final Template EVENTS = Template.load("webhook-events.html");
    private static final Template CHOICE = Template.load("webhook-event-choice.html");
    private static final Template STATUS = Template.load("webhook-status.html");
    private static final Template DEGRADED_STATUS = Template.load("webhook-degraded-status.html");
    private static final Template SECRET = Template.load("webhook-secret.html");
    private static final Template DETAIL = Template.load("webhook.html");
    private static final Template DEGRADED = Template.load("webhook-degraded.html");
    private static final Template NOTICE = Template.load("webhook-notice.html");
    private static final Template DELIVERY = Template.load("webhook-delivery-row.html");
    private static final Template EMPTY_ROW = Template.load("webhook-empty-row.html");
    private static final Template MORE = Template.load("webhook-more.html");
    private static final Template ERROR = Template.load("sign-in-error.html");
    /** The events one can choose; a ping goes through whatever the subscription. */
    private static final List<String> CHOOSABLE = Arrays.stream(EventType.values())
            .filter(type -> type != EventType.PING).map(EventType::wireName).toList();

    private final DashboardSessions sessions;
    private final WebhookService webhooks;

    @Inject
    public WebhookPages(DashboardSessions sessions, WebhookService webhooks) {
        this.sessions = requireNonNull(sessions, "sessions is null");
        this.webhooks = requireNonNull(webhooks, "webhooks is null");
    }

    /** The list, {@code after} the cursor of the page before. */
    @GET
    public Response list(@CookieParam(DashboardSessions.COOKIE) String cookie, @QueryParam("after") String after) {
        return Access.as(sessions, cookie, Role.ADMIN, FORBIDDEN, admin ->
                Response.ok(listPage(admin, after, "", List.of(), Html.EMPTY).markup()).build());
    }

    /** Adds a webhook and shows its signing secret, this once; a refused one re-renders the form with the reason. */
    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response create(@CookieParam(DashboardSessions.COOKIE) String cookie,
                           @FormParam("csrf_token") String csrfToken, @FormParam("url") String url,
                           @FormParam("events") List<String> events) {
        return Access.asForm(sessions, cookie, csrfToken, Role.ADMIN, FORBIDDEN, admin -> {
            String shownUrl = url == null ? "" : url.strip();
            Result<Webhook> created;
            try {
                created = webhooks.create(admin.user().orgId(), shownUrl, events, RequestKey.none());
            } catch (ValidationException invalid) {
                return refusedList(admin, 400, invalid.getMessage(), shownUrl, events);
            }
            if (!created.isOk()) {
                return refusedList(admin, Access.status(created.rejection()), created.rejection().message(),
                        shownUrl, events);
            }
            Webhook webhook = created.value();
            Html main = SECRET.render(Map.of("id", webhook.id().value(), "url", webhook.url(),
                    "secret", webhook.signingSecret()));
            return Response.ok(Pages.page("New webhook", Optional.of(admin), PATH, main).markup()).build();
        });
    }

    /** One webhook with its delivery log, {@code after} the cursor of the page before; {@code pinged} names a test ping just queued. */
    @GET
    @Path("{id}")
    public Response detail(@CookieParam(DashboardSessions.COOKIE) String cookie, @PathParam("id") String id,
                           @QueryParam("after") String after, @QueryParam("pinged") String pinged) {
        return Access.as(sessions, cookie, Role.ADMIN, FORBIDDEN, admin -> withWebhook(admin, id, (webhookId, webhook) -> {
            Html notice = TypedId.isWellFormed(pinged, EventId.PREFIX)
                    ? NOTICE.render(Map.of("message", "Test ping " + pinged + " queued: a delivery to the receiver "
                    + "is on its way, and shows in the log below once tried."))
                    : Html.EMPTY;
            return Response.ok(detailPage(admin, webhook, after, notice, webhook.url(),
                    webhook.subscription().wireNames(), Html.EMPTY).markup()).build();
        }));
    }

    /** Changes the receiver and its events; a refused change re-renders the form with the reason and what was typed. */
    @POST
    @Path("{id}")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response update(@CookieParam(DashboardSessions.COOKIE) String cookie, @PathParam("id") String id,
                           @FormParam("csrf_token") String csrfToken, @FormParam("url") String url,
                           @FormParam("events") List<String> events) {
        return Access.asForm(sessions, cookie, csrfToken, Role.ADMIN, FORBIDDEN, admin ->
                withWebhook(admin, id, (webhookId, webhook) -> {
                    String shownUrl = url == null ? "" : url.strip();
                    Result<Webhook> updated;
                    try {
                        updated = webhooks.update(admin.user().orgId(), webhookId, Optional.of(shownUrl),
                                Optional.of(events == null ? List.<String>of() : events), Optional.empty());
                    } catch (ValidationException invalid) {
                        return refusedDetail(admin, webhook, 400, invalid.getMessage(), shownUrl, events);
                    }
                    return updated.isOk() ? toDetail(webhookId, "")
                            : refusedDetail(admin, webhook, Access.status(updated.rejection()),
                            updated.rejection().message(), shownUrl, events);
                }));
    }

    /** Re-enables a degraded webhook: the core requeues what waited, and the paused events go out. */
    @POST
    @Path("{id}/re-enable")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response reEnable(@CookieParam(DashboardSessions.COOKIE) String cookie, @PathParam("id") String id,
                             @FormParam("csrf_token") String csrfToken) {
        return Access.asForm(sessions, cookie, csrfToken, Role.ADMIN, FORBIDDEN, admin ->
                withWebhook(admin, id, (webhookId, webhook) -> done(admin, webhookId,
                        webhooks.update(admin.user().orgId(), webhookId, Optional.empty(), Optional.empty(),
                                Optional.of(WebhookStatus.ACTIVE)))));
    }

    /** Queues a ping to the receiver, then shows the webhook naming the ping's event. */
    @POST
    @Path("{id}/test")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response test(@CookieParam(DashboardSessions.COOKIE) String cookie, @PathParam("id") String id,
                         @FormParam("csrf_token") String csrfToken) {
        return Access.asForm(sessions, cookie, csrfToken, Role.ADMIN, FORBIDDEN, admin ->
                withWebhook(admin, id, (webhookId, webhook) -> {
                    Result<EventId> ping = webhooks.test(admin.user().orgId(), webhookId);
                    return ping.isOk() ? toDetail(webhookId, "?pinged=" + ping.value().value())
                            : Access.refused(admin, ping.rejection());
                }));
    }

    /** Deletes the webhook: it receives nothing more; back to the list. */
    @POST
    @Path("{id}/delete")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response delete(@CookieParam(DashboardSessions.COOKIE) String cookie, @PathParam("id") String id,
                           @FormParam("csrf_token") String csrfToken) {
        return Access.asForm(sessions, cookie, csrfToken, Role.ADMIN, FORBIDDEN, admin ->
                withWebhook(admin, id, (webhookId, webhook) -> {
                    Result<Webhook> deleted = webhooks.delete(admin.user().orgId(), webhookId);
                    return deleted.isOk() ? Response.seeOther(URI.create(PATH)).build()
                            : Access.refused(admin, deleted.rejection());
                }));
    }

    /** {@code action} on the organisation's webhook of that id; a 404 page for a malformed id or none. */
    private Response withWebhook(SignedIn admin, String id, BiFunction<WebhookId, Webhook, Response> action) {
        if (!TypedId.isWellFormed(id, WebhookId.PREFIX)) {
            return Access.refused(admin, new Rejection.NotFound("webhook", id));
        }
        WebhookId webhookId = new WebhookId(id);
        Result<Webhook> found = webhooks.get(admin.user().orgId(), webhookId);
        return found.isOk() ? action.apply(webhookId, found.value()) : Access.refused(admin, found.rejection());
    }

    private static Response done(SignedIn admin, WebhookId webhookId, Result<Webhook> result) {
        return result.isOk() ? toDetail(webhookId, "") : Access.refused(admin, result.rejection());
    }

    private static Response toDetail(WebhookId webhookId, String query) {
        return Response.seeOther(URI.create(PATH + "/" + webhookId.value() + query)).build();
    }

    private Response refusedList(SignedIn admin, int status, String message, String url, List<String> events) {
        return Response.status(status).entity(listPage(admin, null, url, events,
                ERROR.render(Map.of("message", message))).markup()).build();
    }

    private Response refusedDetail(SignedIn admin, Webhook webhook, int status, String message, String url,
                                   List<String> events) {
        return Response.status(status).entity(detailPage(admin, webhook, null, Html.EMPTY, url,
                events == null ? List.of() : events, ERROR.render(Map.of("message", message))).markup()).build();
    }

    /** The list and the add form, filled with {@code url} and {@code events} and headed by {@code error}. */
    private Html listPage(SignedIn admin, String after, String url, List<String> events, Html error) {
        Page<Webhook> page = webhooks.list(admin.user().orgId(), pageAfter(after));
        List<Html> rows = page.data().stream().map(webhook -> ROW.render(Map.of(
                "id", webhook.id().value(),
                "url", webhook.url(),
                "events", subscribed(webhook.subscription()),
                "status", status(webhook.status()),
                "created", Shown.time(webhook.createdAt())))).toList();
        Html body = rows.isEmpty() ? EMPTY_ROW.render(Map.of("columns", "4", "message", "No webhooks yet."))
                : Html.join(rows);
        return Pages.page("Webhooks", Optional.of(admin), PATH, LIST.render(Map.of(
                "csrf", admin.csrfToken(), "error", error, "url", url,
                "events", eventChoices("new", events == null ? List.of() : events),
                "rows", body, "more", more(page, PATH, "More webhooks"))));
    }

    /** The webhook, its edit form filled with {@code url} and {@code events} and headed by {@code error}, and its delivery log. */
    private Html detailPage(SignedIn admin, Webhook webhook, String after, Html notice, String url,
                            Collection<String> events, Html error) {
        String id = webhook.id().value();
        Page<DeliveryAttempt> attempts = webhooks.deliveries(admin.user().orgId(), webhook.id(), pageAfter(after))
                .value();
        List<Html> rows = attempts.data().stream().map(WebhookPages::deliveryRow).toList();
        Html body = rows.isEmpty() ? EMPTY_ROW.render(Map.of("columns", "6", "message", "No delivery attempts yet."))
                : Html.join(rows);
        String self = PATH + "/" + id;
        return Pages.page("Webhook " + id, Optional.of(admin), PATH, DETAIL.render(Map.ofEntries(
                Map.entry("id", id),
                Map.entry("url", webhook.url()),
                Map.entry("status", status(webhook.status())),
                Map.entry("created", Shown.time(webhook.createdAt())),
                Map.entry("updated", Shown.time(webhook.updatedAt())),
                Map.entry("degraded", webhook.status() == WebhookStatus.DEGRADED
                        ? DEGRADED.render(Map.of("id", id, "csrf", admin.csrfToken())) : Html.EMPTY),
                Map.entry("notice", notice),
                Map.entry("error", error),
                Map.entry("csrf", admin.csrfToken()),
                Map.entry("formUrl", url),
                Map.entry("events", eventChoices("edit", events)),
                Map.entry("rows", body),
                Map.entry("more", more(attempts, self, "Older attempts")))));
    }

    private static Html deliveryRow(DeliveryAttempt attempt) {
        String outcome = attempt.statusCode()
                .map(code -> code / 100 == 2 ? "delivered (" + code + ")" : "failed: answered " + code)
                .orElseGet(() -> "failed: " + attempt.error().orElse("no answer"));
        return DELIVERY.render(Map.of(
                "event", attempt.event().wireName(),
                "eventId", attempt.eventId().value(),
                "attempt", attempt.attempt() + " of 5",
                "attempted", Shown.time(attempt.attemptedAt()),
                "outcome", outcome,
                "latency", attempt.latencyMs() + " ms",
                "next", attempt.nextAttemptAt().map(Shown::time).orElse(Html.text("none"))));
    }

    private static PageRequest pageAfter(String after) {
        return new PageRequest(PageRequest.DEFAULT_LIMIT,
                Optional.ofNullable(after).filter(cursor -> !cursor.isBlank()));
    }

    private static Html more(Page<?> page, String path, String text) {
        return page.nextCursor().filter(cursor -> page.hasMore())
                .map(cursor -> MORE.render(Map.of("href",
                        path + "?after=" + URLEncoder.encode(cursor, StandardCharsets.UTF_8), "text", text)))
                .orElse(Html.EMPTY);
    }

    private static String subscribed(Subscription subscription) {
        return subscription.all() ? ALL_EVENTS : String.join(", ", subscription.wireNames());
    }

    private static Html status(WebhookStatus status) {
        return status == WebhookStatus.DEGRADED ? DEGRADED_STATUS.render(Map.of())
                : STATUS.render(Map.of("status", status.wireName()));
    }

    /** Every choosable event as a checkbox, and "all"; {@code chosen} ticked. */
    private static Html eventChoices(String prefix, Collection<String> chosen) {
        Set<String> ticked = Set.copyOf(chosen);
        List<Html> choices = CHOOSABLE.stream().map(name -> CHOICE.render(Map.of("prefix", prefix, "value", name,
                "checked", checked(ticked.contains(name))))).toList();
        return EVENTS.render(Map.of("prefix", prefix, "all", checked(ticked.contains(Subscription.ALL)),
                "choices", Html.join(choices)));
    }

    private static Html checked(boolean ticked) {
        return new Html(ticked ? " checked" : "");
    }
}
