package com.agentwallet.adapters.dashboard;

import com.agentwallet.core.auth.Role;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.user.SignedInUser;
import com.agentwallet.core.user.UserId;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PagesTest {
    @Test
    void textIsEscapedForContentAndQuotedAttributes() {
        assertThat(Html.text("<a href=\"x\" title='y'>&</a>").markup())
                .isEqualTo("&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;");
    }

    @Test
    void aTemplateEscapesStringsAndRefusesAMissingSlot() {
        Template template = Template.load("sign-in-error.html");
        assertThat(template.render(Map.of("message", "<script>alert(1)</script>")).markup())
                .contains("&lt;script&gt;alert(1)&lt;/script&gt;").doesNotContain("<script>");
        assertThatThrownBy(() -> template.render(Map.of())).hasMessageContaining("{{message}}");
    }

    @Test
    void eachRoleSeesItsSectionsAndThoseOfTheRolesBelow() {
        assertThat(labels(Role.VIEWER)).containsExactly("Alerts", "Wallets", "Transactions", "Escrows", "Exports");
        assertThat(labels(Role.OPERATOR)).containsExactly("Alerts", "Wallets", "Transactions", "Escrows", "Exports",
                "Co-sign inbox");
        assertThat(labels(Role.ADMIN)).containsExactly("Alerts", "Wallets", "Transactions", "Escrows", "Exports",
                "Co-sign inbox", "Policies", "Funding", "Webhooks");
        assertThat(labels(Role.OWNER)).containsExactly("Alerts", "Wallets", "Transactions", "Escrows", "Exports",
                "Co-sign inbox", "Policies", "Funding", "Webhooks", "API keys", "Users");
    }

    @Test
    void theInboxLinkCarriesTheCountOfPaymentsAwaitingCoSign() {
        String page = Pages.home(operator("token-1", 3), Html.EMPTY).markup();
        assertThat(page).contains("Co-sign inbox <span class=\"badge\">3<span class=\"visually-hidden\"> awaiting co-sign")
                .contains("value=\"token-1\"").contains("ops@example.com · operator")
                .doesNotContain("Policies");
        assertThat(Pages.home(operator("t", 0), Html.EMPTY).markup()).doesNotContain("class=\"badge\"");
        assertThat(Pages.home(operator("t", DashboardSessions.BADGE_LIMIT + 1), Html.EMPTY).markup())
                .contains("<span class=\"badge\">99+<");
    }

    @Test
    void theSignInPageHasItsLabelledFieldsTheCsrfSlotAndNoNavigation() {
        String page = Pages.signIn("csrf-<1>", Optional.of("Wrong email or password"), Optional.of("ignored")).markup();
        assertThat(page).contains("<form method=\"post\" action=\"/dashboard/sign-in\">")
                .contains("<input type=\"hidden\" name=\"csrf_token\" value=\"csrf-&lt;1&gt;\">")
                .contains("<label for=\"email\">").contains("<label for=\"password\">")
                .contains("role=\"alert\">Wrong email or password<")
                .doesNotContain("<nav").doesNotContain("<script").doesNotContain("style=")
                .doesNotContain("ignored");
    }

    @Test
    void theSignInPageGivesItsNoticeWhenNothingWentWrong() {
        assertThat(Pages.signIn("t", Optional.empty(), Optional.of("Password <changed>")).markup())
                .contains("role=\"status\">Password &lt;changed&gt;<").doesNotContain("role=\"alert\"");
    }

    private static SignedIn operator(String csrfToken, int awaitingCoSign) {
        return new SignedIn(new SignedInUser(new UserId(UserId.PREFIX + "A".repeat(24)),
                new OrgId("org_" + "B".repeat(24)), Role.OPERATOR, "ops@example.com", csrfToken,
                Instant.parse("2026-11-27T12:00:00Z")), awaitingCoSign);
    }

    private static List<String> labels(Role role) {
        return Navigation.forRole(role).stream().map(Navigation.Link::label).toList();
    }
}
