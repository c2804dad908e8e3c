package com.agentwallet.adapters.dashboard;

import com.agentwallet.core.auth.ApiKey;
import com.agentwallet.core.auth.ApiKeyService;
import com.agentwallet.core.auth.IssuedKey;
import com.agentwallet.core.auth.Role;
import com.agentwallet.core.common.Result;
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
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.net.URI;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The owner's API keys: the list, and creating, rotating and revoking keys. A new key's secret is
 * shown once, in the answer to the POST that made it, and never again: nothing redirects to a page
 * that could show it, and the list has no secrets to show.
 */
@Singleton
@Path("api-keys")
@Produces(MediaType.TEXT_HTML + ";charset=utf-8")
public final class ApiKeyPages {
    private static final String FORBIDDEN = "Forbidden: only an owner manages API keys";
    static final String PATH = Dashboard.PATH + "/api-keys";

    private static final Template LIST = Template.load("api-keys.html");
    private static final Template ROW = Template.load("api-key-row.html");
    private static final Template ACTIONS = Template.load("api-key-actions.html");
    private static final Template SECRET = Template.load("api-key-secret.html");
    /** Live keys first, then the newest first. */
    private static final Comparator<ApiKey> ORDER = Comparator.comparing(ApiKey::isRevoked)
            .thenComparing(ApiKey::createdAt, Comparator.reverseOrder());

    private final DashboardSessions sessions;
    private final ApiKeyService apiKeys;

    @Inject
    public ApiKeyPages(DashboardSessions sessions, ApiKeyService apiKeys) {
        this.sessions = requireNonNull(sessions, "sessions is null");
        this.apiKeys = requireNonNull(apiKeys, "apiKeys is null");
    }

    @GET
    public Response list(@CookieParam(DashboardSessions.COOKIE) String cookie) {
        return Access.as(sessions, cookie, Role.OWNER, FORBIDDEN,
                owner -> Response.ok(listPage(owner).markup()).build());
    }

    /** Issues a key of the chosen role and shows its secret, this once. */
    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response create(@CookieParam(DashboardSessions.COOKIE) String cookie,
                           @FormParam("csrf_token") String csrfToken, @FormParam("role") String role) {
        return Access.asForm(sessions, cookie, csrfToken, Role.OWNER, FORBIDDEN, owner -> {
            Optional<Role> chosen = Arrays.stream(Role.values()).filter(each -> each.wireName().equals(role)).findFirst();
            if (chosen.isEmpty()) {
                return Access.error(owner, 400, "Bad Request: choose one of the roles");
            }
            return shown(owner, apiKeys.issue(owner.user().orgId(), chosen.get()), "New API key",
                    "It works with the API at /v1 at once.");
        });
    }

    /** Revokes the live key and issues its replacement of the same role, whose secret is shown this once. */
    @POST
    @Path("{id}/rotate")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response rotate(@CookieParam(DashboardSessions.COOKIE) String cookie,
                           @FormParam("csrf_token") String csrfToken, @PathParam("id") String id) {
        return Access.asForm(sessions, cookie, csrfToken, Role.OWNER, FORBIDDEN, owner ->
                liveKey(owner, id).map(key -> shown(owner, apiKeys.rotate(owner.user().orgId(), key.id()),
                        "Rotated API key", key.id().value() + " is revoked; this key of the same role replaces it."))
                        .orElseGet(() -> noLiveKey(owner)));
    }

    @POST
    @Path("{id}/revoke")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response revoke(@CookieParam(DashboardSessions.COOKIE) String cookie,
                           @FormParam("csrf_token") String csrfToken, @PathParam("id") String id) {
        return Access.asForm(sessions, cookie, csrfToken, Role.OWNER, FORBIDDEN, owner ->
                liveKey(owner, id).map(key -> {
                    Result<ApiKey> revoked = apiKeys.revoke(owner.user().orgId(), key.id());
                    return revoked.isOk() ? Response.seeOther(URI.create(PATH)).build()
                            : Access.error(owner, 409, "Conflict: " + revoked.rejection().message());
                }).orElseGet(() -> noLiveKey(owner)));
    }

    private Optional<ApiKey> liveKey(SignedIn owner, String id) {
        return apiKeys.list(owner.user().orgId()).stream()
                .filter(key -> key.id().value().equals(id) && !key.isRevoked()).findFirst();
    }

    private static Response noLiveKey(SignedIn owner) {
        return Access.error(owner, 404, "Not Found: no live API key of that id in your organisation");
    }

    private static Response shown(SignedIn owner, Result<IssuedKey> issued, String title, String note) {
        if (!issued.isOk()) {
            return Access.error(owner, 409, "Conflict: " + issued.rejection().message());
        }
        ApiKey key = issued.value().key();
        Html main = SECRET.render(Map.of("title", title, "note", note, "id", key.id().value(),
                "role", key.role().wireName(), "secret", issued.value().secret()));
        return Response.ok(Pages.page(title, Optional.of(owner), PATH, main).markup()).build();
    }

    private Html listPage(SignedIn owner) {
        List<Html> rows = apiKeys.list(owner.user().orgId()).stream().sorted(ORDER).map(key -> ROW.render(Map.of(
                "id", key.id().value(),
                "role", key.role().wireName(),
                "created", Shown.time(key.createdAt()),
                "lastUsed", key.lastUsedAt().map(Shown::time).orElse(Html.text("never")),
                "status", key.revokedAt().map(at -> Html.join(List.of(Html.text("revoked at "), Shown.time(at))))
                        .orElse(Html.text("active")),
                "actions", key.isRevoked() ? Html.EMPTY
                        : ACTIONS.render(Map.of("id", key.id().value(), "csrf", owner.csrfToken())))))
                .toList();
        return Pages.page("API keys", Optional.of(owner), PATH,
                LIST.render(Map.of("csrf", owner.csrfToken(), "rows", Html.join(rows))));
    }
}
