package com.agentwallet.bootstrap.api;

import com.agentwallet.adapters.http.resource.OpenApiResource;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Holds the server to its OpenAPI document ({@code GET /v1/openapi.json}, the resource file
 * {@value OpenApiResource#DOCUMENT}): {@link ApiResponse} passes every answer an end-to-end test
 * receives to {@link #check}, which finds the operation (method and path template) and the status
 * in the document and validates the required headers and the JSON body against their schemas
 * (JSON Schema 2020-12). An answer the document does not describe fails the test that got it, so
 * the document cannot drift from the server, nor the server from the document. A request that
 * matches no operation (an unknown path, a method a path does not take, a request line the web
 * server refuses) is held to the document's {@code x-unmatched-requests} error answer instead.
 */
final class OpenApiContract {
    private static final String DOCUMENT_URI = "https://agentwallet.test/openapi.json";
    private static final String API_PREFIX = "/v1";
    private static final Pattern INTEGER = Pattern.compile("-?[0-9]{1,18}");
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The document the server serves, checked by every test of this JVM. */
    static final OpenApiContract SERVED = new OpenApiContract(readDocument());

    private final JsonNode document;
    private final SchemaRegistry schemas;
    private final List<Template> templates;
    private final Map<String, Schema> compiled = new ConcurrentHashMap<>();
    private final AtomicLong validated = new AtomicLong();
    private final AtomicLong unmatched = new AtomicLong();
    private final Set<String> operationsSeen = ConcurrentHashMap.newKeySet();

    OpenApiContract(String documentText) {
        try {
            this.document = JSON.readTree(documentText);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.schemas = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
                builder -> builder.schemas(Map.of(DOCUMENT_URI, documentText)));
        List<Template> paths = new ArrayList<>();
        document.path("paths").fieldNames().forEachRemaining(path -> paths.add(Template.of(path)));
        // the most literal template first: GET /payments/a2a is the escrow list, not a payment of id "a2a"
        paths.sort(Comparator.comparingInt(Template::literalSegments).reversed());
        this.templates = List.copyOf(paths);
    }

    static String readDocument() {
        try (InputStream in = OpenApiResource.class.getResourceAsStream(OpenApiResource.DOCUMENT)) {
            if (in == null) {
                throw new IllegalStateException(OpenApiResource.DOCUMENT + " is not on the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    JsonNode document() {
        return document;
    }

    /**
     * Checks one answer to {@code method target} ({@code target} as sent: the path under the
     * server's root, with any query); throws an {@link AssertionError} naming the operation and each
     * difference.
     */
    void check(String method, String target, int status, HttpHeaders headers, String body) {
        String path = target.replaceFirst("[?#].*", "");
        Optional<String> operation = operation(method, path);
        String name = operation.map(template -> method.toUpperCase() + " " + template)
                .orElse("a request no operation matches (" + method + " " + path + ")");
        String pointer = follow(operation.map(template -> responseOf(template, method, status, name))
                .orElseGet(() -> unmatchedResponse(status, name)));
        List<String> problems = new ArrayList<>();
        checkHeaders(pointer + "/headers", headers, problems);
        if (!method.equalsIgnoreCase("HEAD")) {
            checkBody(pointer, headers, body, problems);
        }
        if (!problems.isEmpty()) {
            throw new AssertionError("openapi: the answer " + status + " to " + name + " does not match the document: "
                    + String.join("; ", problems) + "\nbody: " + abbreviate(body));
        }
        validated.incrementAndGet();
        operation.ifPresentOrElse(template -> operationsSeen.add(name), unmatched::incrementAndGet);
    }

    /** How many answers passed, and to how many operations, for the line printed at the end of the test JVM. */
    String report() {
        return "openapi: " + validated.get() + " responses validated against " + operationsSeen.size() + " operations ("
                + unmatched.get() + " of them to requests no operation matches)";
    }

    long validatedCount() {
        return validated.get();
    }

    private Optional<String> operation(String method, String path) {
        if (!path.startsWith(API_PREFIX + "/")) {
            return Optional.empty();
        }
        String apiPath = path.substring(API_PREFIX.length());
        return templates.stream().filter(template -> template.matches(apiPath))
                .filter(template -> document.path("paths").path(template.text()).has(method.toLowerCase()))
                .map(Template::text).findFirst();
    }

    private String responseOf(String template, String method, int status, String name) {
        String responses = "/paths/" + escape(template) + "/" + method.toLowerCase() + "/responses";
        JsonNode declared = document.at(responses);
        if (declared.has(Integer.toString(status))) {
            return responses + "/" + status;
        }
        if (status >= 400 && declared.has("default")) {
            return responses + "/default";
        }
        throw new AssertionError("openapi: the document does not list status " + status + " for " + name);
    }

    private String unmatchedResponse(int status, String name) {
        if (status < 400) {
            throw new AssertionError("openapi: " + name + " answered " + status + ", but the document has no such operation");
        }
        return "/x-unmatched-requests";
    }

    /** Where {@code pointer} leads once its {@code $ref}s are followed. */
    private String follow(String pointer) {
        String current = pointer;
        for (JsonNode node = document.at(current); node.has("$ref"); node = document.at(current)) {
            current = node.get("$ref").asText().substring(1);
        }
        return current;
    }

    private void checkHeaders(String declaredPointer, HttpHeaders headers, List<String> problems) {
        document.at(declaredPointer).fieldNames().forEachRemaining(name -> {
            String pointer = follow(declaredPointer + "/" + escape(name));
            Optional<String> value = headers.firstValue(name);
            if (value.isEmpty()) {
                if (document.at(pointer).path("required").asBoolean()) {
                    problems.add("header " + name + " is missing");
                }
                return;
            }
            JsonNode typed = INTEGER.matcher(value.get()).matches() ? LongNode.valueOf(Long.parseLong(value.get()))
                    : TextNode.valueOf(value.get());
            validate(pointer + "/schema", typed).forEach(error -> problems.add("header " + name + ": " + error));
        });
    }

    private void checkBody(String responsePointer, HttpHeaders headers, String body, List<String> problems) {
        JsonNode content = document.at(responsePointer).path("content");
        if (content.isMissingNode() || content.isEmpty()) {
            if (!body.isEmpty()) {
                problems.add("the document describes no body, but one came");
            }
            return;
        }
        String mediaType = headers.firstValue("Content-Type").map(type -> type.split(";")[0].trim().toLowerCase())
                .orElse("(none)");
        if (!content.has(mediaType)) {
            problems.add("Content-Type " + mediaType + " is not one of " + fieldNames(content));
            return;
        }
        if (!mediaType.equals("application/json")) {
            return;
        }
        JsonNode json;
        try {
            json = JSON.readTree(body);
        } catch (IOException e) {
            problems.add("the body is not JSON: " + e.getMessage());
            return;
        }
        if (json == null || json.isMissingNode()) {
            problems.add("the body is empty, but the document describes JSON");
            return;
        }
        validate(responsePointer + "/content/" + escape(mediaType) + "/schema", json)
                .forEach(error -> problems.add("body: " + error));
    }

    private List<String> validate(String schemaPointer, JsonNode value) {
        Schema schema = compiled.computeIfAbsent(schemaPointer,
                pointer -> schemas.getSchema(SchemaLocation.of(DOCUMENT_URI + "#" + pointer)));
        return schema.validate(value).stream().map(Error::getMessage).sorted().toList();
    }

    private static String fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names.stream().collect(Collectors.joining(", ", "[", "]"));
    }

    private static String escape(String pointerToken) {
        return pointerToken.replace("~", "~0").replace("/", "~1");
    }

    private static String abbreviate(String body) {
        return body.length() <= 2000 ? body : body.substring(0, 2000) + "…";
    }

    /** A path of the document, such as {@code /wallets/{id}}, as a pattern of the paths it names. */
    private record Template(String text, Pattern pattern, int literalSegments) {
        static Template of(String text) {
            String[] segments = text.substring(1).split("/");
            StringBuilder regex = new StringBuilder();
            int literal = 0;
            for (String segment : segments) {
                boolean parameter = segment.startsWith("{") && segment.endsWith("}");
                regex.append('/').append(parameter ? "[^/]+" : Pattern.quote(segment));
                literal += parameter ? 0 : 1;
            }
            return new Template(text, Pattern.compile(regex.toString()), literal);
        }

        boolean matches(String path) {
            return pattern.matcher(path).matches();
        }
    }
}
