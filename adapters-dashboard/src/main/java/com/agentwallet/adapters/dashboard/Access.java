package com.agentwallet.adapters.dashboard;

import com.agentwallet.core.auth.Role;
import jakarta.ws.rs.core.Response;

import java.util.Optional;
import java.util.function.Function;

/**
 * The gate of every page past sign-in: a live session, a role at least the page's, and on a form
 * the session's CSRF token. Without a session the browser is sent to sign in; otherwise a refusal is
 * a 403 page.
 */
final class Access {
    private static final String STALE_FORM =
            "Forbidden: the form was stale or not this site's; reload the page and try again";

    private Access() {
    }

    /** {@code action} for a signed-in user of at least {@code least}; {@code forbidden} is the lower roles' 403 page. */
    static Response as(DashboardSessions sessions, String cookie, Role least, String forbidden,
                       Function<SignedIn, Response> action) {
        Optional<SignedIn> user = sessions.find(cookie);
        if (user.isEmpty()) {
            return DashboardPages.toSignIn();
        }
        if (!user.get().role().covers(least)) {
            return error(user.get(), 403, forbidden);
        }
        return action.apply(user.get());
    }

    /** As {@link #as}, for a form: one without the session's CSRF token is a 403 page too, and changes nothing. */
    static Response asForm(DashboardSessions sessions, String cookie, String csrfToken, Role least, String forbidden,
                           Function<SignedIn, Response> action) {
        return as(sessions, cookie, least, forbidden, user -> Csrf.matches(user.csrfToken(), csrfToken)
                ? action.apply(user) : error(user, 403, STALE_FORM));
    }

    /** A page of the layout saying what went wrong, with {@code status}. */
    static Response error(SignedIn user, int status, String reason) {
        return Response.status(status).entity(Pages.error(Optional.of(user), status, reason).markup()).build();
    }
}
