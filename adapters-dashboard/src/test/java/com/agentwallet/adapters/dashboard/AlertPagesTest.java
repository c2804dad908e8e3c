package com.agentwallet.adapters.dashboard;

import com.agentwallet.core.alert.Alert;
import com.agentwallet.core.alert.AlertKind;
import com.agentwallet.core.auth.Role;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.user.SignedInUser;
import com.agentwallet.core.user.UserId;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

class AlertPagesTest {
    private static final Instant AT = Instant.parse("2026-11-27T12:00:00Z");
    private static final List<Alert> FEED = List.of(
            new Alert(AlertKind.CO_SIGN_AWAITED, AT, "Payment of 10.00 USDC <awaits>", "tx_1"),
            new Alert(AlertKind.WEBHOOK_DEGRADED, AT, "Webhook degraded", "wh_1"),
            new Alert(AlertKind.POLICY_EXPIRED, AT, "Policy expired", "pol_1"),
            new Alert(AlertKind.BALANCE_LOW, AT, "Balance low", "wal_1"));

    @Test
    void aViewerGetsLinksToTheSectionsItSeesAndNamesTheOthers() {
        String markup = AlertPages.latest(user(Role.VIEWER), FEED).markup();

        assertThat(markup).contains("<a href=\"/dashboard/transactions/tx_1\">Payment <code>tx_1</code></a>")
                .contains("<a href=\"/dashboard/wallets/wal_1\">")
                .contains("Webhook <code>wh_1</code>").doesNotContain("/dashboard/webhooks/")
                .contains("Policy <code>pol_1</code>").doesNotContain("/dashboard/policies/")
                .contains("<span class=\"tag tag-co-sign-awaited\">Awaiting co-sign</span>")
                .contains("Payment of 10.00 USDC &lt;awaits&gt;");
    }

    @Test
    void anAdminGetsEverySubjectLinkedAndThePaymentToItsRowOfTheInbox() {
        String markup = AlertPages.latest(user(Role.ADMIN), FEED).markup();

        assertThat(markup).contains("<a href=\"/dashboard/co-sign#tx_1\">")
                .contains("<a href=\"/dashboard/webhooks/wh_1\">")
                .contains("<a href=\"/dashboard/policies/pol_1\">")
                .contains("<a href=\"/dashboard/wallets/wal_1\">");
    }

    @Test
    void theHomePageShowsTheNewestFewOrSaysThereAreNone() {
        List<Alert> many = IntStream.range(0, AlertPages.ON_HOME + 3)
                .mapToObj(i -> new Alert(AlertKind.BALANCE_LOW, AT, "Balance low " + i, "wal_" + i)).toList();

        assertThat(AlertPages.latest(user(Role.VIEWER), many).markup().split("<tr>", -1)).hasSize(AlertPages.ON_HOME + 2);
        assertThat(AlertPages.latest(user(Role.VIEWER), List.of()).markup())
                .contains("No alerts: nothing needs attention.").doesNotContain("<table");
    }

    private static SignedIn user(Role role) {
        return new SignedIn(new SignedInUser(new UserId(UserId.PREFIX + "A".repeat(24)),
                new OrgId("org_" + "B".repeat(24)), role, "someone@example.com", "csrf", AT), 0);
    }
}
