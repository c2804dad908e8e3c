package com.agentwallet.adapters.dashboard;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** Whole pages: the layout around a page's main content, and the pages the dashboard has so far. */
public final class Pages {
    private static final Template LAYOUT = Template.load("layout.html");
    private static final Template ACCOUNT = Template.load("account.html");
    private static final Template SIGN_IN = Template.load("sign-in.html");
    private static final Template SIGN_IN_ERROR = Template.load("sign-in-error.html");
    private static final Template SIGN_IN_NOTICE = Template.load("sign-in-notice.html");
    private static final Template HOME = Template.load("home.html");
    private static final Template ERROR = Template.load("error.html");

    private Pages() {
    }

    /**
     * {@code main} in the layout: for a signed-in user with their account and the navigation of
     * their role (the link of {@code currentPath} marked current), otherwise the header alone.
     */
    public static Html page(String title, Optional<SignedIn> user, String currentPath, Html main) {
        Html account = user.map(who -> ACCOUNT.render(Map.of("email", who.email(), "role", roleName(who),
                "csrf", who.csrfToken()))).orElse(Html.EMPTY);
        Html navigation = user.map(who -> Navigation.render(who, currentPath)).orElse(Html.EMPTY);
        return LAYOUT.render(Map.of("title", title, "account", account, "navigation", navigation, "main", main));
    }

    /**
     * The sign-in form, carrying {@code csrfToken}, with {@code error} above it when the last attempt
     * failed, or else {@code notice} when there is news to give.
     */
    public static Html signIn(String csrfToken, Optional<String> error, Optional<String> notice) {
        Html message = error.map(text -> SIGN_IN_ERROR.render(Map.of("message", text)))
                .or(() -> notice.map(text -> SIGN_IN_NOTICE.render(Map.of("message", text)))).orElse(Html.EMPTY);
        return page("Sign in", Optional.empty(), Dashboard.SIGN_IN,
                SIGN_IN.render(Map.of("csrf", csrfToken, "error", message)));
    }

    /** The welcome, then {@code alerts}: what needs the user's attention. */
    static Html home(SignedIn user, Html alerts) {
        return page("Dashboard", Optional.of(user), Dashboard.HOME,
                HOME.render(Map.of("email", user.email(), "role", roleName(user), "alerts", alerts)));
    }

    static Html error(Optional<SignedIn> user, int status, String reason) {
        return page(reason, user, "", ERROR.render(Map.of("status", String.valueOf(status), "reason", reason)));
    }

    private static String roleName(SignedIn user) {
        return user.role().name().toLowerCase(Locale.ROOT);
    }
}
