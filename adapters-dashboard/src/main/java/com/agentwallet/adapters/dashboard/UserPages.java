package com.agentwallet.adapters.dashboard;

import com.agentwallet.core.auth.Role;
import com.agentwallet.core.common.Rejection;
import com.agentwallet.core.common.Result;
import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.user.DashboardUser;
import com.agentwallet.core.user.UserService;
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
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import static java.util.Objects.requireNonNull;

/**
 * The owner's users of the dashboard: the list, and adding users, changing their role and removing
 * them. An owner's own role and account are not changed here, so that no owner locks the
 * organisation out by accident. A password typed in is never written back into a page.
 */
@Singleton
@Path("users")
@Produces(MediaType.TEXT_HTML + ";charset=utf-8")
public final class UserPages {
    private static final String FORBIDDEN = "Forbidden: only an owner manages users";
    static final String PATH = Dashboard.PATH + "/users";

    private static final Template LIST = Template.load("users.html");
    private static final Template ROW = Template.load("user-row.html");
    private static final Template ACTIONS = Template.load("user-actions.html");
    private static final Template OPTION = Template.load("role-option.html");
    private static final Template ERROR = Template.load("sign-in-error.html");

    private final DashboardSessions sessions;
    private final UserService users;

    @Inject
    public UserPages(DashboardSessions sessions, UserService users) {
        this.sessions = requireNonNull(sessions, "sessions is null");
        this.users = requireNonNull(users, "users is null");
    }

    @GET
    public Response list(@CookieParam(DashboardSessions.COOKIE) String cookie) {
        return Access.as(sessions, cookie, Role.OWNER, FORBIDDEN,
                owner -> Response.ok(listPage(owner, "", Role.VIEWER, Html.EMPTY).markup()).build());
    }

    /** Adds a user; a refused one re-renders the form with the reason, keeping the email and role but not the password. */
    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response add(@CookieParam(DashboardSessions.COOKIE) String cookie, @FormParam("csrf_token") String csrfToken,
                        @FormParam("email") String email, @FormParam("role") String role,
                        @FormParam("password") String password) {
        return Access.asForm(sessions, cookie, csrfToken, Role.OWNER, FORBIDDEN, owner -> {
            Role chosen = parseRole(role).orElse(Role.VIEWER);
            String shownEmail = email == null ? "" : email;
            try {
                Result<DashboardUser> created = users.create(owner.user().orgId(), email,
                        Role.fromWire(role, "role"), password);
                return created.isOk() ? Response.seeOther(URI.create(PATH)).build()
                        : refusedForm(owner, 409, created.rejection().message(), shownEmail, chosen);
            } catch (ValidationException e) {
                return refusedForm(owner, 400, e.getMessage(), shownEmail, chosen);
            }
        });
    }

    /** Takes effect on the user's next page: each request reads its user's role afresh. */
    @POST
    @Path("{id}/role")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response changeRole(@CookieParam(DashboardSessions.COOKIE) String cookie,
                               @FormParam("csrf_token") String csrfToken, @PathParam("id") String id,
                               @FormParam("role") String role) {
        return Access.asForm(sessions, cookie, csrfToken, Role.OWNER, FORBIDDEN,
                owner -> otherUser(owner, id, "change your own role", user -> {
            Optional<Role> chosen = parseRole(role);
            if (chosen.isEmpty()) {
                return Access.error(owner, 400, "Bad Request: choose one of the roles");
            }
            return done(owner, users.changeRole(owner.user().orgId(), user.id(), chosen.get()));
        }));
    }

    /** Removes the user and ends their sessions at once. */
    @POST
    @Path("{id}/remove")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response remove(@CookieParam(DashboardSessions.COOKIE) String cookie,
                           @FormParam("csrf_token") String csrfToken, @PathParam("id") String id) {
        return Access.asForm(sessions, cookie, csrfToken, Role.OWNER, FORBIDDEN,
                owner -> otherUser(owner, id, "remove yourself",
                user -> done(owner, users.remove(owner.user().orgId(), user.id()))));
    }

    /** {@code action} on the organisation's user of that id; a 409 page if it is the owner themself, 404 if none. */
    private Response otherUser(SignedIn owner, String id, String refused, Function<DashboardUser, Response> action) {
        if (owner.user().userId().value().equals(id)) {
            return Access.error(owner, 409, "Conflict: you cannot " + refused + "; another owner can");
        }
        return users.list(owner.user().orgId()).stream().filter(user -> user.id().value().equals(id)).findFirst()
                .map(action)
                .orElseGet(() -> Access.error(owner, 404, "Not Found: no user of that id in your organisation"));
    }

    private static Response done(SignedIn owner, Result<DashboardUser> result) {
        return result.isOk() ? Response.seeOther(URI.create(PATH)).build()
                : Access.error(owner, result.rejection() instanceof Rejection.NotFound ? 404 : 409,
                "Conflict: " + result.rejection().message());
    }

    private static Optional<Role> parseRole(String role) {
        return Arrays.stream(Role.values()).filter(each -> each.wireName().equals(role)).findFirst();
    }

    private Response refusedForm(SignedIn owner, int status, String message, String email, Role role) {
        return Response.status(status)
                .entity(listPage(owner, email, role, ERROR.render(Map.of("message", message))).markup()).build();
    }

    /** The list and the add form, filled with {@code email} and {@code role} and headed by {@code error}. */
    private Html listPage(SignedIn owner, String email, Role role, Html error) {
        List<Html> rows = users.list(owner.user().orgId()).stream().map(user -> ROW.render(Map.of(
                "email", user.email(),
                "role", user.role().wireName(),
                "created", Shown.time(user.createdAt()),
                "actions", user.id().equals(owner.user().userId()) ? Html.text("you")
                        : ACTIONS.render(Map.of("id", user.id().value(), "email", user.email(),
                        "csrf", owner.csrfToken(), "roles", roleOptions(user.role()))))))
                .toList();
        return Pages.page("Users", Optional.of(owner), PATH, LIST.render(Map.of("csrf", owner.csrfToken(),
                "error", error, "email", email, "roles", roleOptions(role), "rows", Html.join(rows))));
    }

    /** The ladder as options, highest first, {@code selected} chosen. */
    private static Html roleOptions(Role selected) {
        return Html.join(Arrays.stream(Role.values()).sorted((a, b) -> b.compareTo(a))
                .map(role -> OPTION.render(Map.of("value", role.wireName(),
                        "selected", new Html(role == selected ? " selected" : ""))))
                .toList());
    }
}
