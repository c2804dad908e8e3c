package com.agentwallet.bootstrap.api;

import com.agentwallet.adapters.http.auth.AgentToken;
import com.agentwallet.adapters.http.auth.RequiresRole;
import com.agentwallet.adapters.http.resource.OpenApiResource;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Path;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.net.http.HttpHeaders;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code GET /v1/openapi.json}: served without a credential, an OpenAPI 3.1 document whose every
 * reference resolves, describing exactly the resource methods the server has (so an endpoint added
 * without a description fails here), with their roles; and the check {@link ApiResponse} applies to
 * every answer really refuses one the document does not describe.
 */
class OpenApiDocumentTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String RESOURCES = "com.agentwallet.adapters.http.resource";

    private final JsonNode document = OpenApiContract.SERVED.document();

    @Test
    void isServedWithoutACredentialAsTheResourceFile() throws Exception {
        ApiServer server = ApiServer.shared();

        ApiResponse answer = server.client().call("GET", "/openapi.json").send();

        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        assertThat(answer.header("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("application/json"));
        assertThat(answer.header("Request-Id")).isPresent();
        assertThat(answer.json()).isEqualTo(JSON.readTree(OpenApiContract.readDocument()));
    }

    @Test
    void isAnOpenApi31DocumentWhoseReferencesAllResolve() {
        assertThat(document.path("openapi").asText()).startsWith("3.1.");
        assertThat(document.path("jsonSchemaDialect").asText()).isEqualTo("https://json-schema.org/draft/2020-12/schema");
        assertThat(document.path("info").path("title").asText()).isNotBlank();
        assertThat(document.path("info").path("version").asText()).isNotBlank();

        List<String> references = new ArrayList<>();
        collectReferences(document, references);
        assertThat(references).hasSizeGreaterThan(100);
        assertThat(references).allSatisfy(reference -> {
            assertThat(reference).startsWith("#/");
            assertThat(document.at(reference.substring(1)).isMissingNode()).as(reference).isFalse();
        });

        operations().forEach((operation, description) -> {
            JsonNode responses = description.path("responses");
            List<String> statuses = new ArrayList<>();
            responses.fieldNames().forEachRemaining(statuses::add);
            assertThat(statuses).as(operation).anyMatch(status -> status.startsWith("2")).contains("default");
            assertThat(description.path("operationId").asText()).as(operation).isNotBlank();
        });
    }

    @Test
    void describesExactlyTheResourceMethodsOfTheServer() {
        assertThat(operations().keySet()).containsExactlyInAnyOrderElementsOf(resourceMethods().keySet());
        assertThat(Endpoints.all()).allSatisfy(endpoint -> assertThat(operations().keySet().stream().map(
                OpenApiDocumentTest::anonymous)).as(endpoint.toString()).contains(anonymous(endpoint.toString())));
    }

    @Test
    void namesEachOperationsRoleAndWhetherAgentsMayCallIt() {
        resourceMethods().forEach((operation, method) -> {
            JsonNode description = operations().get(operation);
            RequiresRole role = method.getAnnotation(RequiresRole.class);
            if (role == null) {
                assertThat(description.path("security")).as(operation).isEmpty();
                return;
            }
            assertThat(description.path("x-required-role").asText()).as(operation).isEqualTo(role.value().wireName());
            assertThat(description.path("x-agent-token").asBoolean()).as(operation)
                    .isEqualTo(method.isAnnotationPresent(AgentToken.class));
        });
    }

    @Test
    void anAnswerTheDocumentDoesNotDescribeIsReported() {
        OpenApiContract contract = new OpenApiContract(OpenApiContract.readDocument());
        HttpHeaders headers = headers(Map.of("Content-Type", "application/json", "Request-Id", "req_" + "a".repeat(24),
                "X-RateLimit-Limit", "200", "X-RateLimit-Remaining", "199", "X-RateLimit-Reset", "1700000000"));

        assertThatThrownBy(() -> contract.check("GET", "/v1/wallets/wal_x", 200, headers, "{\"object\":\"wallet\"}"))
                .isInstanceOf(AssertionError.class).hasMessageContaining("GET /wallets/{id}")
                .hasMessageContaining("body: ").hasMessageContaining("usdc_balance");
        assertThatThrownBy(() -> contract.check("GET", "/v1/wallets", 201, headers, "{}"))
                .isInstanceOf(AssertionError.class).hasMessageContaining("status 201 for GET /wallets");
        assertThatThrownBy(() -> contract.check("GET", "/v1/nowhere", 200, headers, "{}"))
                .isInstanceOf(AssertionError.class).hasMessageContaining("has no such operation");
        String error = "{\"error\":{\"code\":\"not_found\",\"message\":\"No such endpoint\","
                + "\"docs\":\"https://example.com/#not_found\",\"request_id\":\"req_" + "a".repeat(24) + "\"}}";
        assertThatThrownBy(() -> contract.check("GET", "/v1/nowhere", 404,
                headers(Map.of("Content-Type", "application/json")), error))
                .isInstanceOf(AssertionError.class).hasMessageContaining("header Request-Id is missing");

        contract.check("GET", "/v1/nowhere", 404, headers, error);
        assertThat(contract.validatedCount()).isEqualTo(1);
    }

    /** Every operation of the document, as {@code METHOD /template}. */
    private Map<String, JsonNode> operations() {
        Map<String, JsonNode> operations = new TreeMap<>();
        document.path("paths").fields().forEachRemaining(path -> path.getValue().fields().forEachRemaining(
                operation -> operations.put(operation.getKey().toUpperCase() + " " + path.getKey(), operation.getValue())));
        return operations;
    }

    /** Every Jersey resource method of the HTTP adapter, as {@code METHOD /template}, found by reflection. */
    private static Map<String, Method> resourceMethods() {
        Map<String, Method> methods = new TreeMap<>();
        for (JavaClass resource : new ClassFileImporter().importPackages(RESOURCES)) {
            Class<?> type = resource.reflect();
            if (!type.isAnnotationPresent(Path.class)) {
                continue;
            }
            String base = type.getAnnotation(Path.class).value();
            for (Method method : type.getDeclaredMethods()) {
                httpMethod(method).ifPresent(verb -> methods.put(verb + " " + join(base,
                        Optional.ofNullable(method.getAnnotation(Path.class)).map(Path::value).orElse("")), method));
            }
        }
        assertThat(methods).containsKey("GET /" + OpenApiResource.PATH);
        return methods;
    }

    private static Optional<String> httpMethod(Method method) {
        return Arrays.stream(method.getAnnotations())
                .map(annotation -> annotation.annotationType().getAnnotation(HttpMethod.class))
                .filter(verb -> verb != null).map(HttpMethod::value).findFirst();
    }

    private static String join(String base, String sub) {
        String path = Stream.of(base, sub).filter(part -> !part.isEmpty())
                .map(part -> part.startsWith("/") ? part : "/" + part).collect(Collectors.joining());
        return path.endsWith("/") && path.length() > 1 ? path.substring(0, path.length() - 1) : path;
    }

    /** The operation with its path parameters unnamed, since the test catalogue names them by what they hold. */
    private static String anonymous(String operation) {
        return operation.replaceAll("\\{[^}]*}", "{}");
    }

    private static void collectReferences(JsonNode node, List<String> references) {
        if (node.isObject() && node.has("$ref")) {
            references.add(node.get("$ref").asText());
        }
        node.elements().forEachRemaining(child -> collectReferences(child, references));
    }

    private static HttpHeaders headers(Map<String, String> values) {
        return HttpHeaders.of(values.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey,
                entry -> List.of(entry.getValue()))), (name, value) -> true);
    }
}
