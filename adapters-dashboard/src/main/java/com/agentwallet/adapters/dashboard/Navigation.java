package com.agentwallet.adapters.dashboard;

import com.agentwallet.core.auth.Role;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static com.agentwallet.core.auth.Role.ADMIN;
import static com.agentwallet.core.auth.Role.OPERATOR;
import static com.agentwallet.core.auth.Role.OWNER;
import static com.agentwallet.core.auth.Role.VIEWER;

/** The dashboard's sections and the least role that sees each; a role sees its own and those of the roles below it. */
public final class Navigation {
    public static final String CO_SIGN_INBOX = Dashboard.PATH + "/co-sign";

    public record Link(String label, String path, Role required) {
    }

    private static final List<Link> LINKS = List.of(
            new Link("Alerts", Dashboard.PATH + "/alerts", VIEWER),
            new Link("Wallets", Dashboard.PATH + "/wallets", VIEWER),
            new Link("Transactions", Dashboard.PATH + "/transactions", VIEWER),
            new Link("Escrows", Dashboard.PATH + "/escrows", VIEWER),
            new Link("Exports", Dashboard.PATH + "/exports", VIEWER),
            new Link("Co-sign inbox", CO_SIGN_INBOX, OPERATOR),
            new Link("Policies", Dashboard.PATH + "/policies", ADMIN),
            new Link("Funding", Dashboard.PATH + "/funding", ADMIN),
            new Link("Webhooks", Dashboard.PATH + "/webhooks", ADMIN),
            new Link("API keys", Dashboard.PATH + "/api-keys", OWNER),
            new Link("Users", Dashboard.PATH + "/users", OWNER));

    private static final Template NAV = Template.load("nav.html");
    private static final Template LINK = Template.load("nav-link.html");
    private static final Template BADGE = Template.load("badge.html");

    private Navigation() {
    }

    public static List<Link> forRole(Role role) {
        return LINKS.stream().filter(link -> role.covers(link.required())).toList();
    }

    /** The navigation of {@code user}, marking the link of {@code currentPath} as the current page. */
    static Html render(SignedIn user, String currentPath) {
        List<Html> items = new ArrayList<>();
        for (Link link : forRole(user.role())) {
            Html current = link.path().equals(currentPath) ? new Html(" aria-current=\"page\"") : Html.EMPTY;
            Html badge = link.path().equals(CO_SIGN_INBOX) && user.awaitingCoSign() > 0
                    ? BADGE.render(Map.of("count", badgeCount(user.awaitingCoSign())))
                    : Html.EMPTY;
            items.add(LINK.render(Map.of(
                    "path", link.path(), "current", current, "label", link.label(), "badge", badge)));
        }
        return NAV.render(Map.of("links", Html.join(items)));
    }

    private static String badgeCount(int awaiting) {
        return awaiting > DashboardSessions.BADGE_LIMIT ? DashboardSessions.BADGE_LIMIT + "+" : String.valueOf(awaiting);
    }
}
