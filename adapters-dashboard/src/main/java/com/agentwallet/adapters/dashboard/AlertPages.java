package com.agentwallet.adapters.dashboard;

import com.agentwallet.core.alert.Alert;
import com.agentwallet.core.alert.AlertFeed;
import com.agentwallet.core.alert.AlertKind;
import com.agentwallet.core.auth.Role;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The alerts feed at {@link #PATH}, for everyone signed in, optionally of one kind ({@code ?kind=}
 * one of the kinds' wire names), and its newest entries on the home page. Each alert links to its
 * subject's page when the user's role sees that section; otherwise it names the subject.
 */
@Singleton
@Path("alerts")
@Produces(MediaType.TEXT_HTML + ";charset=utf-8")
public final class AlertPages {
    static final String PATH = Dashboard.PATH + "/alerts";
    /** How many of the newest alerts the home page shows. */
    static final int ON_HOME = 5;

    private static final Template PAGE = Template.load("alerts.html");
    private static final Template OPTION = Template.load("alert-kind-option.html");
    private static final Template TABLE = Template.load("alert-table.html");
    private static final Template ROW = Template.load("alert-row.html");
    private static final Template LINK = Template.load("alert-link.html");
    private static final Template SUBJECT = Template.load("alert-subject.html");
    private static final Template EMPTY = Template.load("alert-empty.html");
    private static final Template HOME = Template.load("home-alerts.html");

    private final DashboardSessions sessions;
    private final AlertFeed alerts;

    @Inject
    public AlertPages(DashboardSessions sessions, AlertFeed alerts) {
        this.sessions = requireNonNull(sessions, "sessions is null");
        this.alerts = requireNonNull(alerts, "alerts is null");
    }

    @GET
    public Response feed(@CookieParam(DashboardSessions.COOKIE) String cookie, @QueryParam("kind") String kind) {
        return Access.as(sessions, cookie, Role.VIEWER, "Forbidden: alerts are for your organisation's users", user -> {
            Optional<AlertKind> only = kind == null || kind.isEmpty() ? Optional.empty() : AlertKind.fromWire(kind);
            if (only.isEmpty() && kind != null && !kind.isEmpty()) {
                return Access.error(user, 400, "Bad Request: 'kind' must be one of the kinds of alert");
            }
            List<Alert> shown = alerts.recent(user.user().orgId()).stream()
                    .filter(alert -> only.map(alert.kind()::equals).orElse(true)).toList();
            Html feed = shown.isEmpty()
                    ? EMPTY.render(Map.of("message", only.map(k -> "No alerts of the kind " + label(k) + ".")
                            .orElse("No alerts: nothing needs attention.")))
                    : table(user, shown, only.map(k -> label(k) + " alerts, newest first; times in UTC")
                            .orElse("Alerts, newest first; times in UTC"));
            return Response.ok(Pages.page("Alerts", Optional.of(user), PATH,
                    PAGE.render(Map.of("kinds", kindOptions(only), "feed", feed))).markup()).build();
        });
    }

    /** The home page's part: the newest few of {@code feed}, and the way to the rest. */
    static Html latest(SignedIn user, List<Alert> feed) {
        Html shown = feed.isEmpty() ? EMPTY.render(Map.of("message", "No alerts: nothing needs attention."))
                : table(user, feed.subList(0, Math.min(ON_HOME, feed.size())),
                        "The newest alerts; times in UTC");
        return HOME.render(Map.of("feed", shown));
    }

    private static Html table(SignedIn user, List<Alert> feed, String caption) {
        List<Html> rows = feed.stream().map(alert -> ROW.render(Map.of(
                "kindClass", alert.kind().name().toLowerCase(Locale.ROOT).replace('_', '-'),
                "kind", label(alert.kind()),
                "time", Shown.time(alert.at()),
                "description", alert.description(),
                "subject", subject(user, alert)))).toList();
        return TABLE.render(Map.of("caption", caption, "rows", Html.join(rows)));
    }

    private static Html kindOptions(Optional<AlertKind> chosen) {
        List<Html> options = new ArrayList<>();
        options.add(OPTION.render(Map.of("value", "", "label", "All kinds",
                "selected", new Html(chosen.isEmpty() ? " selected" : ""))));
        for (AlertKind kind : AlertKind.values()) {
            options.add(OPTION.render(Map.of("value", kind.wireName(), "label", label(kind),
                    "selected", new Html(chosen.equals(Optional.of(kind)) ? " selected" : ""))));
        }
        return Html.join(options);
    }

    /** How a kind is shown: the words of its tag, and the section and noun of its subject. */
    private record Look(String label, String section, String noun) {
    }

    private static Look look(AlertKind kind) {
        return switch (kind) {
            case BALANCE_LOW -> new Look("Balance low", "wallets", "Wallet");
            case POLICY_EXPIRED -> new Look("Policy expired", "policies", "Policy");
            case TRANSACTION_BLOCKED -> new Look("Payment blocked", "transactions", "Transaction");
            case ESCROW_DISPUTED -> new Look("Escrow disputed", "escrows", "Escrow");
            case WEBHOOK_DEGRADED -> new Look("Webhook degraded", "webhooks", "Webhook");
            case CO_SIGN_AWAITED -> new Look("Awaiting co-sign", "transactions", "Payment");
        };
    }

    private static String label(AlertKind kind) {
        return look(kind).label();
    }

    /**
     * A link to the subject's page when the user's role sees its section, else its name. A payment
     * awaiting co-sign links to its row of the co-sign inbox for those who decide it, to the
     * transaction for the others.
     */
    private static Html subject(SignedIn user, Alert alert) {
        Look look = look(alert.kind());
        String id = alert.subjectId();
        if (alert.kind() == AlertKind.CO_SIGN_AWAITED && sees(user, Navigation.CO_SIGN_INBOX)) {
            return LINK.render(Map.of("path", Navigation.CO_SIGN_INBOX + "#" + id, "noun", look.noun(), "id", id));
        }
        String sectionPath = Dashboard.PATH + "/" + look.section();
        return sees(user, sectionPath)
                ? LINK.render(Map.of("path", sectionPath + "/" + id, "noun", look.noun(), "id", id))
                : SUBJECT.render(Map.of("noun", look.noun(), "id", id));
    }

    private static boolean sees(SignedIn user, String sectionPath) {
        return Navigation.forRole(user.role()).stream().anyMatch(link -> link.path().equals(sectionPath));
    }
}
