package com.agentwallet.adapters.dashboard;

import com.agentwallet.core.alert.AlertFeed;
import com.agentwallet.core.common.Rejection;
import com.agentwallet.core.common.Result;
import com.agentwallet.core.common.Timestamps;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.NewCookie;
import jakarta.ws.rs.core.Response;

import java.net.URI;
import java.time.Duration;
import java.util.Date;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The pages' routes, relative to {@link Dashboard#PATH}: the home page, and signing in and out.
 * Signing in is guarded against cross-site forgery before any session exists by a token in both a
 * cookie and the form ({@link #SIGN_IN_COOKIE}); every form of a session carries its CSRF token.
 */
@Singleton
@Path("/")
@Produces(MediaType.TEXT_HTML + ";charset=utf-8")
public final class DashboardPages {
    /** The sign-in form's own CSRF token, for the one form posted before a session exists. */
    static final String SIGN_IN_COOKIE = "__Host-agent-wallet-sign-in";

    private final DashboardSessions sessions;
    private final AlertFeed alerts;

    @Inject
    public DashboardPages(DashboardSessions sessions, AlertFeed alerts) {
        this.sessions = requireNonNull(sessions, "sessions is null");
        this.alerts = requireNonNull(alerts, "alerts is null");
    }

    /** The home page: a welcome and the newest alerts. */
    @GET
    public Response home(@CookieParam(DashboardSessions.COOKIE) String cookie) {
        return sessions.find(cookie).map(user -> Response.ok(Pages.home(user,
                        AlertPages.latest(user, alerts.recent(user.user().orgId()))).markup()).build())
                .orElseGet(DashboardPages::toSignIn);
    }

    /**
     * The form, with a new sign-in token in it and in its cookie; a signed-in user goes home instead.
     * {@code password=changed} says why the user is here: they just changed it.
     */
    @GET
    @Path("sign-in")
    public Response signIn(@CookieParam(DashboardSessions.COOKIE) String cookie,
                           @QueryParam("password") String password) {
        if (sessions.find(cookie).isPresent()) {
            return Response.seeOther(URI.create(Dashboard.HOME)).build();
        }
        Optional<String> notice = "changed".equals(password)
                ? Optional.of("Your password is changed, and every session of yours ended: sign in with the new one.")
                : Optional.empty();
        return signInForm(Response.Status.OK, Optional.empty(), notice);
    }

    /**
     * Signs in and sets the session cookie ({@code HttpOnly; Secure; SameSite=Strict}, expiring with
     * the session). A failed attempt is answered only after the core's slow-down, which grows with
     * the account's failures; the fifth in a row locks it.
     */
    @POST
    @Path("sign-in")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response signIn(@CookieParam(SIGN_IN_COOKIE) String expected, @FormParam("csrf_token") String csrfToken,
                           @FormParam("email") String email, @FormParam("password") String password) {
        if (!Csrf.matches(expected, csrfToken)) {
            return forbidden();
        }
        Result<com.agentwallet.core.user.SignedIn> signedIn = sessions.signIn(email, password);
        if (!signedIn.isOk()) {
            return refused(signedIn.rejection());
        }
        com.agentwallet.core.user.SignedIn session = signedIn.value();
        NewCookie sessionCookie = cookie(DashboardSessions.COOKIE, session.sessionToken())
                .expiry(Date.from(session.expiresAt())).build();
        return Response.seeOther(URI.create(Dashboard.HOME)).cookie(sessionCookie, expired(SIGN_IN_COOKIE)).build();
    }

    /** Ends the session (its CSRF token required) and forgets the cookie. */
    @POST
    @Path("sign-out")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response signOut(@CookieParam(DashboardSessions.COOKIE) String cookie,
                            @FormParam("csrf_token") String csrfToken) {
        Optional<SignedIn> user = sessions.find(cookie);
        if (user.isEmpty()) {
            return toSignIn();
        }
        if (!Csrf.matches(user.get().csrfToken(), csrfToken)) {
            return forbidden();
        }
        sessions.signOut(cookie);
        return Response.seeOther(URI.create(Dashboard.SIGN_IN)).cookie(expired(DashboardSessions.COOKIE)).build();
    }

    /** 303, so that a browser follows with GET whatever the method of the request it answers. */
    static Response toSignIn() {
        return Response.seeOther(URI.create(Dashboard.SIGN_IN)).build();
    }

    private Response refused(Rejection rejection) {
        Duration slowDown;
        String message;
        if (rejection instanceof Rejection.AccountLocked locked) {
            slowDown = locked.slowDown();
            message = "Too many failed sign-ins: this account is locked until "
                    + Timestamps.format(locked.until()) + ". Try again then, or ask an owner to reset the password.";
        } else if (rejection instanceof Rejection.SignInRefused wrong) {
            slowDown = wrong.slowDown();
            message = "Wrong email or password.";
        } else {
            slowDown = Duration.ZERO;
            message = rejection.message();
        }
        pause(slowDown);
        return signInForm(Response.Status.UNAUTHORIZED, Optional.of(message), Optional.empty());
    }

    private static Response signInForm(Response.Status status, Optional<String> error, Optional<String> notice) {
        String token = Csrf.newToken();
        return Response.status(status).entity(Pages.signIn(token, error, notice).markup())
                .cookie(cookie(SIGN_IN_COOKIE, token).build()).build();
    }

    static Response forbidden() {
        return Response.status(Response.Status.FORBIDDEN)
                .entity(Pages.error(Optional.empty(), 403, "Forbidden: the form was stale or not this site's; "
                        + "reload the page and try again").markup()).build();
    }

    /** A cookie only this site's pages send, over HTTPS, out of scripts' reach; without an expiry it lasts until the browser closes. */
    private static NewCookie.Builder cookie(String name, String value) {
        return new NewCookie.Builder(name).value(value).path("/").secure(true).httpOnly(true)
                .sameSite(NewCookie.SameSite.STRICT);
    }

    static NewCookie expired(String name) {
        return cookie(name, "").maxAge(0).build();
    }

    private static void pause(Duration slowDown) {
        try {
            Thread.sleep(slowDown.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
