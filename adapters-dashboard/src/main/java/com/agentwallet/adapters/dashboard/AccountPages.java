package com.agentwallet.adapters.dashboard;

import com.agentwallet.core.auth.Role;
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
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.net.URI;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The signed-in user's own account: changing their password, proven with the current one. The
 * change ends every session of the user, this one too, so the answer leads back to signing in.
 */
@Singleton
@Path("account")
@Produces(MediaType.TEXT_HTML + ";charset=utf-8")
public final class AccountPages {
    static final String PASSWORD = Dashboard.PATH + "/account/password";
    /** Where a changed password leads: the sign-in form, saying why. */
    static final String CHANGED = Dashboard.SIGN_IN + "?password=changed";

    private static final Template FORM = Template.load("password.html");
    private static final Template ERROR = Template.load("sign-in-error.html");

    private final DashboardSessions sessions;
    private final UserService users;

    @Inject
    public AccountPages(DashboardSessions sessions, UserService users) {
        this.sessions = requireNonNull(sessions, "sessions is null");
        this.users = requireNonNull(users, "users is null");
    }

    @GET
    @Path("password")
    public Response passwordForm(@CookieParam(DashboardSessions.COOKIE) String cookie) {
        return Access.as(sessions, cookie, Role.VIEWER, "", user -> form(user, 200, Optional.empty()));
    }

    @POST
    @Path("password")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response changePassword(@CookieParam(DashboardSessions.COOKIE) String cookie,
                                   @FormParam("csrf_token") String csrfToken,
                                   @FormParam("current_password") String current,
                                   @FormParam("new_password") String next,
                                   @FormParam("confirm_password") String confirm) {
        return Access.asForm(sessions, cookie, csrfToken, Role.VIEWER, "", user -> {
            if (current == null || next == null || !next.equals(confirm)) {
                return form(user, 400, Optional.of("The new password and its repetition differ; nothing changed."));
            }
            Result<DashboardUser> changed;
            try {
                changed = users.changePassword(user.user().orgId(), user.user().userId(), current, next);
            } catch (ValidationException weak) {
                return form(user, 400, Optional.of(weak.getMessage()));
            }
            if (!changed.isOk()) {
                return form(user, Access.status(changed.rejection()), Optional.of(changed.rejection().message()));
            }
            return Response.seeOther(URI.create(CHANGED)).cookie(DashboardPages.expired(DashboardSessions.COOKIE))
                    .build();
        });
    }

    private static Response form(SignedIn user, int status, Optional<String> error) {
        Html message = error.map(text -> ERROR.render(Map.of("message", text))).orElse(Html.EMPTY);
        Html main = FORM.render(Map.of("csrf", user.csrfToken(), "email", user.email(), "error", message));
        return Response.status(status).entity(Pages.page("Change password", Optional.of(user), PASSWORD, main).markup())
                .build();
    }
}
