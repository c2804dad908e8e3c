package com.agentwallet.bootstrap.api;

import com.agentwallet.edge.error.ErrorCatalogue;
import com.agentwallet.edge.error.ErrorDocs;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static com.agentwallet.bootstrap.api.ApiAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Error bodies' {@code docs} links lead somewhere real: {@code /docs/errors#<code>} on the server
 * that answered, whose page has an entry for every code the API can answer (the OpenAPI document's
 * list of codes), over HTTPS only; {@code api.errorDocsBaseUrl} points them elsewhere, on every door.
 */
class ErrorDocsTest {
    private static final String MCP_INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}";

    private final ApiServer server = ApiServer.shared();
    private final ApiClient client = server.client();
    private final DemoOrg org = server.org();

    @Test
    void aDocsLinkFollowedOnTheSameServerAnswersThePageWithTheCodesEntry() throws Exception {
        List<JsonNode> errors = List.of(
                assertError(client.call("GET", "/wallets").send(), 401, "authentication_failed"),
                assertError(client.get("/wallets/wal_" + "Z".repeat(24), org.viewerKey()), 404, "not_found"),
                assertError(client.post("/policies", org.adminKey(), Map.of("max_per_tx", "1.00")), 400,
                        "validation_error"),
                assertError(client.call("GET", "/wallets").key(org.viewerKey()).overPlainHttp().send(), 403,
                        "https_required"),
                assertError(client.delete("/transactions", org.adminKey()), 405, "method_not_allowed"),
                assertError(mcpWithoutToken(server), 401, "authentication_failed"));

        for (JsonNode error : errors) {
            String docs = error.path("docs").asText();
            assertThat(docs).isEqualTo("/docs/errors#" + error.path("code").asText());
            URI link = server.origin().resolve(docs);

            HttpResponse<String> page = get(server, withoutFragment(link));

            assertThat(page.statusCode()).as(link.toString()).isEqualTo(200);
            assertThat(page.headers().firstValue("Content-Type")).hasValueSatisfying(type ->
                    assertThat(type).startsWith("text/html"));
            assertThat(page.body()).as(link.toString()).contains("id=\"" + link.getFragment() + "\"");
        }
    }

    @Test
    void everyCodesLinkLandsOnItsEntryWithItsStatus() throws Exception {
        HttpResponse<String> page = get(server, server.origin().resolve("/docs/errors"));

        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Request-Id")).hasValueSatisfying(id -> assertThat(id).startsWith("req_"));
        assertThat(page.headers().firstValue("X-RateLimit-Limit")).isPresent();
        assertThat(page.headers().firstValue("Content-Security-Policy")).hasValue("default-src 'none'; frame-ancestors 'none'");
        Set<String> documented = new TreeSet<>();
        OpenApiContract.SERVED.document().at("/components/schemas/Error/properties/error/properties/code/enum")
                .forEach(code -> documented.add(code.asText()));
        assertThat(documented).as("the OpenAPI document's codes").hasSizeGreaterThan(10);
        assertThat(ErrorCatalogue.codes()).as("the catalogue lists exactly the codes of the OpenAPI document")
                .containsExactlyInAnyOrderElementsOf(documented);
        for (ErrorCatalogue.Entry entry : ErrorCatalogue.entries()) {
            URI link = server.origin().resolve(ErrorDocs.SERVED.link(entry.code()));
            HttpResponse<String> followed = get(server, withoutFragment(link));
            assertThat(followed.statusCode()).as(link.toString()).isEqualTo(200);
            assertThat(followed.body()).contains("<tr id=\"" + link.getFragment() + "\"><td><code>" + entry.code()
                    + "</code></td><td>" + entry.status() + "</td>");
        }
    }

    @Test
    void thePageIsServedOverHttpsOnly() throws Exception {
        HttpResponse<String> plain = get(server, server.plainOrigin().resolve("/docs/errors"));

        ApiResponse answer = ApiResponse.of(plain);
        assertError(answer, 403, "https_required");
    }

    @Test
    void aConfiguredBaseUrlIsTheLinkOfEveryDoor() throws Exception {
        String base = "https://docs.example.com/agent-wallet/errors#";
        ApiServer configured = ApiServer.start(ConfigOverride.config("api.errorDocsBaseUrl", base));
        try {
            ApiResponse api = configured.client().call("GET", "/wallets").send();
            ApiResponse unknownPath = configured.client().get("/nowhere", configured.org().viewerKey());
            ApiResponse outsideEveryDoor = ApiResponse.of(get(configured, configured.origin().resolve("/elsewhere")));
            ApiResponse mcp = mcpWithoutToken(configured);

            assertThat(api.json().path("error").path("docs").asText()).isEqualTo(base + "authentication_failed");
            assertThat(unknownPath.json().path("error").path("docs").asText()).isEqualTo(base + "not_found");
            assertThat(outsideEveryDoor.status()).isEqualTo(404);
            assertThat(outsideEveryDoor.json().path("error").path("docs").asText()).isEqualTo(base + "not_found");
            assertThat(mcp.json().path("error").path("docs").asText()).isEqualTo(base + "authentication_failed");
            assertThat(get(configured, configured.origin().resolve("/docs/errors")).statusCode())
                    .as("the server's own page is still there").isEqualTo(200);
        } finally {
            configured.stop();
        }
    }

    /** An MCP initialize request to {@code server}'s /mcp without a session token, which its gate refuses. */
    private static ApiResponse mcpWithoutToken(ApiServer server) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(server.origin().resolve("/mcp"))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(MCP_INITIALIZE)).build();
        return ApiResponse.of(http(server).send(request, HttpResponse.BodyHandlers.ofString()));
    }

    private static HttpResponse<String> get(ApiServer server, URI uri) throws IOException, InterruptedException {
        return http(server).send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static HttpClient http(ApiServer server) {
        return HttpClient.newBuilder().sslContext(server.tls()).connectTimeout(Duration.ofSeconds(10)).build();
    }

    /** What a browser sends for a link: the fragment stays with the client. */
    private static URI withoutFragment(URI link) throws URISyntaxException {
        return new URI(link.getScheme(), link.getAuthority(), link.getPath(), link.getQuery(), null);
    }
}
