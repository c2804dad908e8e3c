package com.agentwallet.adapters.dashboard;

import com.agentwallet.core.auth.Role;
import com.agentwallet.core.common.Rejection;
import com.agentwallet.core.common.ValidationException;
import jakarta.ws.rs.core.Response;

import java.util.Optional;
import java.util.function.Function;

/**
 * The gate of every page past sign-in: a live session, a role at least the page's, and on a form
 * the session's CSRF token. Without a session the browser is sent to sign in; otherwise a refusal is
 * a 403 page. Input the core finds invalid (an amount that is not a decimal, say) is a 400 page
 * naming the field, and changed nothing.
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
        try {
            return action.apply(user.get());
        } catch (ValidationException invalid) {
            return error(user.get(), 400, "Bad Request: " + invalid.getMessage());
        }
    }

    /** As {@link #as}, for a form: one without the session's CSRF token is a 403 page too, and changes nothing. */
    static Response asForm(DashboardSessions sessions, String cookie, String csrfToken, Role least, String forbidden,
                           Function<SignedIn, Response> action) {
        return as(sessions, cookie, least, forbidden, user -> Csrf.matches(user.csrfToken(), csrfToken)
                ? action.apply(user) : error(user, 403, STALE_FORM));
    }

    /** The core's refusal as a page: 404 for what the organisation does not have, 400 for bad input, else 409. */
    static Response refused(SignedIn user, Rejection rejection) {
        return error(user, status(rejection), rejection.message());
    }

    static int status(Rejection rejection) {
        if (rejection instanceof Rejection.NotFound) {
            return 404;
        }
        if (rejection instanceof Rejection.InvalidInput) {
            return 400;
        }
        return 409;
    }

    /** A page of the layout saying what went wrong, with {@code status}. */
    static Response error(SignedIn user, int status, String reason) {
        return Response.status(status).entity(Pages.error(Optional.of(user), status, reason).markup()).build();
    }
}
