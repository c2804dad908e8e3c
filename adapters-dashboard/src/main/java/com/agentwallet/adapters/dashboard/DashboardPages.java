package com.agentwallet.adapters.dashboard;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.net.URI;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/** The pages' routes, relative to {@link Dashboard#PATH}. */
@Singleton
@Path("/")
@Produces(MediaType.TEXT_HTML + ";charset=utf-8")
public final class DashboardPages {
    private final DashboardSessions sessions;

    @Inject
    public DashboardPages(DashboardSessions sessions) {
        this.sessions = requireNonNull(sessions, "sessions is null");
    }

    @GET
    public Response home(@CookieParam(DashboardSessions.COOKIE) String cookie) {
        return signedIn(cookie).map(user -> Response.ok(Pages.home(user).markup()).build())
                .orElseGet(DashboardPages::toSignIn);
    }

    @GET
    @Path("sign-in")
    public String signIn() {
        // The sign-in sessions will issue the form's CSRF token; until then the slot is empty.
        return Pages.signIn("", Optional.empty()).markup();
    }

    /** The user of the session the cookie names; none without a cookie. */
    Optional<SignedIn> signedIn(String cookie) {
        return cookie == null || cookie.isEmpty() ? Optional.empty() : sessions.find(cookie);
    }

    /** 303, so that a browser follows with GET whatever the method of the request it answers. */
    static Response toSignIn() {
        return Response.seeOther(URI.create(Dashboard.SIGN_IN)).build();
    }
}
