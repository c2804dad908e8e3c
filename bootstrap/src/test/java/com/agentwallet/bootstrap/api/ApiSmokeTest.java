package com.agentwallet.bootstrap.api;

import com.agentwallet.core.auth.Role;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static com.agentwallet.bootstrap.api.ApiAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;

/** The harness itself: the shared server answers over verified HTTPS, and refuses plain HTTP. */
class ApiSmokeTest {
    private final ApiServer server = ApiServer.shared();

    @Test
    void answersOverHttpsWithTheDemoKeys() {
        ApiResponse list = server.client().get("/wallets", server.org().viewerKey());

        assertThat(list.status()).as(list.toString()).isEqualTo(200);
        assertThat(list.text("object")).isEqualTo("list");
        assertThat(list.header("Request-Id")).hasValueSatisfying(id -> assertThat(id).startsWith("req_"));
    }

    @Test
    void theCredentialsFileNamesAnOwnerAndAnOperatorOfTheDashboard() {
        assertThat(server.org().dashboardUsers()).extracting(DemoOrg.DashboardLogin::role)
                .containsExactly(Role.OWNER, Role.OPERATOR);
        assertThat(server.org().dashboardUser(Role.OPERATOR).email()).endsWith(".demo");
    }

    @Test
    void refusesPlainHttp() {
        ApiResponse answer = server.client().call("POST", "/policies").key(server.org().adminKey())
                .body(Map.of("name", "over http")).overPlainHttp().send();

        assertError(answer, 403, "https_required");
    }
}
