package com.agentwallet.bootstrap.api;

import com.agentwallet.bootstrap.api.Endpoints.BodyUse;
import com.agentwallet.bootstrap.api.Endpoints.Endpoint;
import com.agentwallet.core.policy.PolicyRules;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static com.agentwallet.bootstrap.api.ApiAssertions.assertWellFormedError;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Bad input to every /v1 endpoint of the catalogue ({@link Endpoints}), generated from each
 * endpoint's valid request so that every request is invalid for one known reason: each field of the
 * valid body (the minimal one with every optional field set) with a value of every other JSON type
 * (a number or boolean for a string, {@code "600"} or {@code 600.0} for an integer, {@code "false"}
 * for a boolean, a bare value or {@code [null]} for an array...), as a giant number ({@code 1e400},
 * 500 digits, {@code -0}) or bare {@code NaN}, null and left out (required fields only: an optional
 * one may be left out, and a PATCH takes null as "clear"); unknown fields; the whole body of another
 * type, empty, nested 10,000 deep, with bytes that are not UTF-8, of 7/8 of the 1 MiB limit, over it
 * (chunked, or by its Content-Length), or under another Content-Type; ids in the path that are
 * 10 kB long, that climb out of the path ({@code ..%2F}, {@code %2e%2e}, encoded slashes and
 * backslashes, {@code %00}, escapes that are none) or that carry SQL, JNDI or script injections;
 * unknown, repeated and injected query parameters and giant limits; headers over the size limit or
 * malformed, and an HTTP version nobody speaks (on a raw socket, as the HTTP client would not send
 * them); methods nobody takes. Values a free-text field or path segment would take as valid (a
 * recipient address is any printable text) are left out.
 *
 * <p>Every one must be a 4xx with the contract's error body (JSON, code, message, docs, request id
 * and rate-limit headers, {@code param} on a validation error, no HTML and no stack trace), never a
 * 5xx; where the cause is fixed (a field of the wrong type, a body too large) the status, code and
 * param must be the contract's for it. And nothing changes: the organisation read through the API
 * (wallets with balances and status, transactions, policies, webhooks, escrows, the recipients the
 * catalogue names) is the same after as before. Runs against the shared server; requests go
 * {@value #THREADS} at a time.
 */
class MalformedInputTest {
    private static final int THREADS = 4;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([a-zA-Z]+)}");

    private static final List<String> INJECTIONS = List.of("' OR 1=1 --", "\"; DROP TABLE wallets; --",
            "${jndi:ldap://x}", "<script>alert(1)</script>");
    /** Path segments, as sent (already encoded), that climb out of the path or cannot be decoded. */
    private static final List<String> TRAVERSALS = List.of("..%2F..%2Fetc%2Fpasswd", "%2e%2e%2F%2e%2e%2Fetc%2Fpasswd",
            "%2e%2e", "..%252F..%252Fetc%252Fpasswd", "..%5C..%5Cetc%5Cpasswd", "..;", "a%2Fb", "a%00b", "%00",
            "../../../etc/passwd", "%C0%AE%C0%AE", "%zz", "a%");
    /** The address of {@code /recipients/{address}} is free text: any printable string names a recipient. */
    private static final Set<String> FREE_TEXT_PLACEHOLDERS = Set.of("recipient", "categorised");
    /** A list filter that matches free text, so any value of it is valid. */
    private static final Set<String> FREE_TEXT_FILTERS = Set.of("tags");
    /** Byte sequences that are not UTF-8: a bad continuation, 0xFF, an overlong '.', a surrogate, a cut sequence. */
    private static final List<byte[]> NOT_UTF8 = List.of(new byte[]{(byte) 0xC3, 0x28}, new byte[]{(byte) 0xFF},
            new byte[]{(byte) 0xC0, (byte) 0xAE}, new byte[]{(byte) 0xED, (byte) 0xA0, (byte) 0x80},
            new byte[]{(byte) 0xE2, (byte) 0x82});
    private static final String UTF8_MARKER = "not-utf8-goes-here";
    private static final int DEPTH = 10_000;

    private final ApiServer server = ApiServer.shared();
    private final ApiClient client = server.client();
    private final DemoOrg org = server.org();
    private final ApiFixtures fx = new ApiFixtures(server);
    /** {@code api.maxRequestBytes}: the test configuration keeps the default, 1 MiB. */
    private final int maxRequestBytes = Math.toIntExact(server.configuration().getApi().maxRequestBytes());

    /** What the contract answers: any 4xx ({@code status} null), or exactly that status, code and param. */
    private record Expected(Integer status, String code, String param) {
        static final Expected REFUSED = new Expected(null, null, null);
        static final Expected TOO_LARGE = new Expected(413, "payload_too_large", null);

        static Expected invalid(String param) {
            return new Expected(400, "validation_error", param);
        }

        static Expected methodNotAllowed() {
            return new Expected(405, "method_not_allowed", null);
        }
    }

    /** One malformed request to an endpoint: what is wrong with it, how to send it, what must come back. */
    private record Case(Endpoint endpoint, String fault, Supplier<ApiResponse> request, Expected expected) {
        @Override
        public String toString() {
            return endpoint + " [" + fault + "]";
        }
    }

    private record Outcome(Case sent, ApiResponse answer, RuntimeException failure) {
    }

    @Test
    void everyMalformedRequestIsAContractRefusalThatChangesNothing() throws Exception {
        Endpoints catalogue = Endpoints.prepare(server);
        List<Case> cases = new ArrayList<>();
        for (Endpoint endpoint : Endpoints.all()) {
            cases.addAll(new Generator(catalogue, endpoint).cases());
        }
        Map<String, Object> before = settledState(catalogue);

        List<Outcome> outcomes = sendAll(cases);

        Map<String, Object> after = state(catalogue);
        List<String> problems = new ArrayList<>();
        int serverErrors = 0;
        int nonContract = 0;
        for (Outcome outcome : outcomes) {
            problem(outcome).ifPresent(problem -> problems.add(outcome.sent() + " -> " + problem));
            ApiResponse answer = outcome.answer();
            serverErrors += answer != null && answer.status() >= 500 ? 1 : 0;
            nonContract += answer != null && answer.status() >= 400 && notContractBody(answer).isPresent() ? 1 : 0;
        }
        List<String> changed = before.keySet().stream().filter(part -> !before.get(part).equals(after.get(part)))
                .toList();
        System.out.println("bad input: " + Endpoints.all().size() + " endpoints, " + cases.size()
                + " malformed requests, " + serverErrors + " 5xx, " + nonContract + " non-contract bodies, "
                + (changed.isEmpty() ? "nothing changed" : "changed: " + changed));

        assertThat(problems).as("malformed requests not refused as the contract says").isEmpty();
        assertThat(changed).as("parts of the organisation that malformed requests changed").isEmpty();
    }

    /** What is wrong with the answer, if anything. */
    private static Optional<String> problem(Outcome outcome) {
        if (outcome.failure() != null) {
            return Optional.of("no answer: " + outcome.failure() + " " + outcome.failure().getCause());
        }
        ApiResponse answer = outcome.answer();
        if (answer.status() < 400 || answer.status() >= 500) {
            return Optional.of("not a 4xx: " + brief(answer));
        }
        Optional<String> notContract = notContractBody(answer);
        if (notContract.isPresent()) {
            return Optional.of("not the contract's error body (" + notContract.get() + "): " + brief(answer));
        }
        Expected expected = outcome.sent().expected();
        String param = answer.json().path("error").path("param").asText();
        boolean matches = (expected.status() == null || expected.status() == answer.status())
                && (expected.code() == null || expected.code().equals(answer.errorCode()))
                && (expected.param() == null || namesField(param, expected.param()));
        return matches ? Optional.empty() : Optional.of("expected " + expected + ": " + brief(answer));
    }

    /** What makes the answer's body other than the contract's error body, if anything. */
    private static Optional<String> notContractBody(ApiResponse answer) {
        try {
            assertWellFormedError(answer);
            assertThat(answer.raw()).doesNotStartWith("<");
            if (answer.errorCode().equals("validation_error")) {
                assertThat(answer.json().path("error").path("param").asText()).as("param").isNotBlank();
            }
            return Optional.empty();
        } catch (AssertionError e) {
            return Optional.of(e.getMessage().lines().filter(line -> !line.isBlank()).findFirst().orElse(""));
        }
    }

    /** {@code amount}, {@code [0].amount} and {@code tags[0]} all name the field {@code amount} or {@code tags}. */
    private static boolean namesField(String param, String field) {
        return param.equals(field) || param.endsWith("." + field) || param.startsWith(field + "[")
                || param.startsWith(field + ".");
    }

    private static String brief(ApiResponse answer) {
        String text = answer.toString();
        return text.length() <= 600 ? text : text.substring(0, 600) + "...";
    }

    /**
     * Sends the case, and once more if its connection was closed before any byte of an answer came:
     * the JDK's client reuses kept-alive connections and does not resend a POST on one the server
     * had closed meanwhile (here, after refusing another case on it), which in HTTP/1.1 a client
     * cannot tell from a lost answer. A case that gets no answer twice is a failure.
     */
    private static Outcome send(Case each) {
        RuntimeException lost = null;
        for (int attempt = 0; attempt < 2; attempt++) {
            try {
                return new Outcome(each, each.request().get(), null);
            } catch (RuntimeException e) {
                if (!(e.getCause() instanceof IOException io) || io.getMessage() == null
                        || !io.getMessage().contains("received no bytes")) {
                    return new Outcome(each, null, e);
                }
                lost = e;
            }
        }
        return new Outcome(each, null, lost);
    }

    private List<Outcome> sendAll(List<Case> cases) throws InterruptedException, ExecutionException {
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<Outcome>> answers = new ArrayList<>();
            for (Case each : cases) {
                answers.add(pool.submit(() -> send(each)));
            }
            List<Outcome> outcomes = new ArrayList<>();
            for (Future<Outcome> answer : answers) {
                outcomes.add(answer.get());
            }
            return outcomes;
        } finally {
            pool.shutdownNow();
        }
    }

    // ---------------------------------------------------------------- the organisation's state

    /**
     * The state once it has stopped moving: what earlier suites started on the shared server
     * (payments settling with the ledger) finishes first, so only this suite's requests could change it.
     */
    private Map<String, Object> settledState(Endpoints catalogue) {
        AtomicReference<Map<String, Object>> previous = new AtomicReference<>(state(catalogue));
        return Eventually.await(Duration.ofSeconds(30), () -> "the organisation's state to settle",
                () -> {
                    Map<String, Object> now = state(catalogue);
                    return now.equals(previous.getAndSet(now)) ? Optional.of(now) : Optional.empty();
                });
    }

    /** Everything of the organisation a request could change, read through the API with the viewer key. */
    private Map<String, Object> state(Endpoints catalogue) {
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("wallets", fx.all("/wallets?limit=100"));
        state.put("transactions", fx.all("/transactions?limit=100"));
        state.put("policies", fx.all("/policies?limit=100"));
        state.put("webhooks", fx.all("/webhooks?limit=100"));
        state.put("escrows", fx.all("/payments/a2a?limit=100"));
        for (String address : List.of(catalogue.id("recipient"), catalogue.id("categorised"))) {
            ApiResponse recipient = client.get("/recipients/" + address, org.viewerKey());
            state.put("recipient " + address, recipient.status() + " " + recipient.json().path("category"));
        }
        return state;
    }

    // ---------------------------------------------------------------- the generator

    /** The malformed requests of one endpoint, each derived from its valid request. */
    private final class Generator {
        private final Endpoints catalogue;
        private final Endpoint endpoint;
        private final String path;
        private final List<Case> cases = new ArrayList<>();

        Generator(Endpoints catalogue, Endpoint endpoint) {
            this.catalogue = catalogue;
            this.endpoint = endpoint;
            this.path = catalogue.path(endpoint);
        }

        List<Case> cases() {
            if (endpoint.bodyUse() != BodyUse.NONE) {
                JsonNode valid = JSON.valueToTree(catalogue.validBody(endpoint));
                JsonNode full = valid.deepCopy();
                ((ObjectNode) (full.isArray() ? full.get(0) : full)).setAll((ObjectNode) JSON.valueToTree(
                        catalogue.optionalFields(endpoint)));
                fields(full);
                bodies(valid);
            }
            oversizedBody();
            pathIds();
            queries();
            headersAndMethods();
            return cases;
        }

        // ------------------------------------------------------------ bodies

        /**
         * Each field of {@code valid} (the minimal valid body with every optional field set) wrong in
         * one way, the others as they are: the field is named in the refusal.
         */
        private void fields(JsonNode valid) {
            ObjectNode fields = (ObjectNode) (valid.isArray() ? valid.get(0) : valid);
            for (String field : names(fields)) {
                JsonNode value = fields.get(field);
                for (JsonNode wrong : wrongTypes(value)) {
                    body(field + "=" + wrong, with(valid, fields, field, wrong), Expected.invalid(field));
                }
                List<String> giants = new ArrayList<>(List.of("1e400", "9".repeat(500)));
                if (!value.isIntegralNumber()) {
                    giants.add("-0");
                }
                for (String giant : giants) {
                    body(field + "=" + abbreviate(giant), with(valid, fields, field, new RawValue(giant)),
                            Expected.invalid(field));
                }
                body(field + "=NaN", with(valid, fields, field, new RawValue("NaN")), Expected.invalid("body"));
                if (endpoint.required().contains(field)) {
                    body(field + "=null", with(valid, fields, field, NODES.nullNode()), Expected.invalid(field));
                    ObjectNode without = fields.deepCopy();
                    without.remove(field);
                    body("without " + field, replace(valid, without), Expected.invalid(field));
                }
            }
        }

        /** The minimal valid body with unknown fields, replaced whole, too deep, not UTF-8, too large or mislabelled. */
        private void bodies(JsonNode valid) {
            ObjectNode fields = (ObjectNode) (valid.isArray() ? valid.get(0) : valid);
            for (String unknown : List.of("unknown_field", "__proto__")) {
                body("unknown field " + unknown, with(valid, fields, unknown, NODES.objectNode()),
                        Expected.invalid(unknown));
            }
            wholeBodies(valid, fields);
            String first = names(fields).get(0);
            String nested = "{\"a\":".repeat(DEPTH) + "1" + "}".repeat(DEPTH);
            body(first + " nested " + DEPTH + " deep", with(valid, fields, first, new RawValue(nested)),
                    Expected.invalid("body"));
            for (byte[] bytes : NOT_UTF8) {
                add("bytes " + hex(bytes) + " in " + first, () -> call().bytes(notUtf8(valid, fields, first, bytes))
                        .send(), Expected.invalid("body"));
            }
            String huge = "x".repeat(maxRequestBytes / 8 * 7);
            body("unknown field of " + huge.length() + " bytes", with(valid, fields, "padding", NODES.textNode(huge)),
                    Expected.invalid("padding"));
            String overLimit = text(with(valid, fields, "padding", NODES.textNode("x".repeat(maxRequestBytes))));
            add("chunked body over the limit", () -> call().body(overLimit).chunked().send(), Expected.TOO_LARGE);
            for (String type : List.of("text/plain", "application/xml", "application/x-www-form-urlencoded",
                    "multipart/form-data; boundary=x")) {
                add("Content-Type " + type, () -> call().body(text(valid)).header("Content-Type", type).send(),
                        Expected.invalid("body"));
            }
        }

        /** The body replaced whole: another JSON type, the wrong container, empty or null where one is needed. */
        private void wholeBodies(JsonNode valid, ObjectNode fields) {
            List<String> wrong = new ArrayList<>(List.of("5", "\"text\"", "true", "[" + "[".repeat(DEPTH)
                    + "]".repeat(DEPTH) + "]"));
            wrong.add(valid.isArray() ? text(fields) : "[" + text(fields) + "]");
            if (endpoint.bodyUse() == BodyUse.REQUIRED) {
                wrong.addAll(List.of("null", ""));
            }
            for (String body : wrong) {
                add("body " + abbreviate(body), () -> call().body(body).send(), Expected.invalid("body"));
            }
        }

        /**
         * A Content-Length over the limit, on every endpoint: refused from the headers alone. The client
         * waits for that answer before it sends the body ({@code Expect: 100-continue}), as a client
         * sending a large body should; the JDK's client cannot (it hangs on a refusal instead of a 100),
         * so the request goes on a raw socket.
         */
        private void oversizedBody() {
            add("Content-Length over the limit", () -> RawHttp.send(server, raw(path, "HTTP/1.1",
                    "Content-Type: application/json\r\nContent-Length: " + (maxRequestBytes + 1)
                            + "\r\nExpect: 100-continue\r\n")), Expected.TOO_LARGE);
        }

        private void body(String fault, JsonNode body, Expected expected) {
            String text = text(body);
            add(fault, () -> call().body(text).send(), expected);
        }

        // ------------------------------------------------------------ path ids

        private void pathIds() {
            Matcher placeholder = PLACEHOLDER.matcher(endpoint.template());
            if (!placeholder.find()) {
                return;
            }
            String name = placeholder.group(1);
            List<String> segments = new ArrayList<>(TRAVERSALS);
            INJECTIONS.forEach(injection -> segments.add(encode(injection)));
            segments.add("wal_" + "A".repeat(10 * 1024));
            for (String segment : segments) {
                if (FREE_TEXT_PLACEHOLDERS.contains(name) && PolicyRules.isRecipient(decodeOnce(segment))) {
                    continue;
                }
                String badPath = endpoint.template().replace("{" + name + "}", segment);
                Expected expected = segment.length() > 8192 ? Expected.invalid("path") : Expected.REFUSED;
                add("{" + name + "} = " + abbreviate(segment), isUri(badPath) ? () -> call(badPath, true).send()
                        : () -> RawHttp.send(server, raw(badPath, "HTTP/1.1", "")), expected);
            }
        }

        // ------------------------------------------------------------ queries

        private void queries() {
            add("unknown query parameter", () -> call(path + "?unknown_param=1", true).send(),
                    Expected.invalid("unknown_param"));
            add("repeated query parameter", () -> call(path + "?limit=10&limit=10", true).send(),
                    Expected.invalid("limit"));
            for (String injection : INJECTIONS) {
                add("query parameter named " + injection, () -> call(path + "?" + encode(injection) + "=1", true)
                        .send(), Expected.invalid(injection));
            }
            for (String parameter : endpoint.query()) {
                if (FREE_TEXT_FILTERS.contains(parameter)) {
                    continue;
                }
                for (String injection : INJECTIONS) {
                    add(parameter + "=" + injection, () -> call(path + "?" + parameter + "=" + encode(injection),
                            true).send(), Expected.REFUSED);
                }
            }
            if (endpoint.query().contains("limit")) {
                for (String giant : List.of("1e400", "9".repeat(500), "-0", "NaN")) {
                    add("limit=" + abbreviate(giant), () -> call(path + "?limit=" + giant, true).send(),
                            Expected.invalid("limit"));
                }
            }
        }

        // ------------------------------------------------------------ headers and methods

        private void headersAndMethods() {
            add("16 KiB header", () -> call(path, true).header("X-Padding", "x".repeat(16 * 1024)).send(),
                    Expected.invalid("headers"));
            for (String method : List.of("BREW", "TRACE")) {
                add("method " + method, () -> client.call(method, path).key(org.adminKey()).send(),
                        Expected.methodNotAllowed());
            }
            for (String header : List.of("Bad Header: x", "Content-Length: abc",
                    "Content-Length: 2\r\nContent-Length: 3", "Content-Length: 2\r\nTransfer-Encoding: chunked",
                    "X-Folded: a\r\n  folded", "X-Nul: a\u0000b")) {
                add("raw header " + header.replace("\r\n", " | ").replace("\u0000", "\\0"),
                        () -> RawHttp.send(server, raw(path, "HTTP/1.1", header + "\r\n")), Expected.REFUSED);
            }
            add("raw request line HTTP/9.9", () -> RawHttp.send(server, raw(path, "HTTP/9.9", "")),
                    Expected.invalid("request"));
        }

        /** The endpoint's method at {@code target} with the key, {@code headers} (each ending CRLF) and no body. */
        private byte[] raw(String target, String version, String headers) {
            return (endpoint.method() + " /v1" + target + " " + version + "\r\nHost: localhost\r\nAuthorization: Bearer "
                    + org.adminKey() + "\r\n" + headers + "Connection: close\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1);
        }

        // ------------------------------------------------------------ helpers

        private void add(String fault, Supplier<ApiResponse> request, Expected expected) {
            cases.add(new Case(endpoint, fault, request, expected));
        }

        private ApiClient.Call call() {
            return call(path, false);
        }

        /**
         * The endpoint's method at {@code target} with the admin key (every role the catalogue needs)
         * and its session token; {@code validBody} adds its valid body.
         */
        private ApiClient.Call call(String target, boolean validBody) {
            ApiClient.Call call = client.call(endpoint.method(), target).key(org.adminKey());
            if (endpoint.sessionToken()) {
                call.header("Session-Token", catalogue.payer().token());
            }
            Object body = validBody ? catalogue.validBody(endpoint) : null;
            if (body != null) {
                call.body(body);
            }
            return call;
        }

        /** The valid body with its first invalid UTF-8 in place of {@code field}'s value (as a JSON string). */
        private byte[] notUtf8(JsonNode valid, ObjectNode fields, String field, byte[] bytes) {
            byte[] text = text(with(valid, fields, field, NODES.textNode(UTF8_MARKER))).getBytes(StandardCharsets.UTF_8);
            byte[] marker = UTF8_MARKER.getBytes(StandardCharsets.UTF_8);
            int at = indexOf(text, marker);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.write(text, 0, at);
            out.writeBytes(bytes);
            out.write(text, at + marker.length, text.length - at - marker.length);
            return out.toByteArray();
        }
    }

    /** Other JSON types in place of {@code valid}: strings of its text, numbers, booleans, arrays, objects. */
    private static List<JsonNode> wrongTypes(JsonNode valid) {
        List<JsonNode> wrong = new ArrayList<>();
        ArrayNode wrapped = NODES.arrayNode().add(valid.deepCopy());
        ObjectNode object = NODES.objectNode().set("value", valid.deepCopy());
        if (valid.isTextual()) {
            wrong.addAll(List.of(NODES.numberNode(7), NODES.numberNode(new BigDecimal("0.01")), NODES.booleanNode(true),
                    wrapped, object));
        } else if (valid.isIntegralNumber()) {
            wrong.addAll(List.of(NODES.textNode(valid.asText()), NODES.numberNode(new BigDecimal("600.5")),
                    DoubleNode.valueOf(valid.asDouble()), NODES.booleanNode(true), wrapped, object));
        } else if (valid.isBoolean()) {
            wrong.addAll(List.of(NODES.textNode(valid.asText()), NODES.numberNode(0), NODES.numberNode(1), wrapped,
                    object));
        } else if (valid.isArray()) {
            JsonNode element = valid.get(0);
            wrong.addAll(List.of(NODES.textNode(element.asText()), NODES.numberNode(5), NODES.booleanNode(false), object,
                    NODES.arrayNode().add(5), NODES.arrayNode().add(true), NODES.arrayNode().addNull(),
                    NODES.arrayNode().add(NODES.objectNode()), NODES.arrayNode().add(NODES.arrayNode().add(element))));
        } else {
            throw new IllegalArgumentException("no wrong types for " + valid);
        }
        return wrong;
    }

    /** The body with {@code field} of its object (the body, or the one element of an array body) set to {@code value}. */
    private static JsonNode with(JsonNode valid, ObjectNode fields, String field, Object value) {
        ObjectNode changed = fields.deepCopy();
        if (value instanceof RawValue raw) {
            changed.putRawValue(field, raw);
        } else {
            changed.set(field, (JsonNode) value);
        }
        return replace(valid, changed);
    }

    private static JsonNode replace(JsonNode valid, ObjectNode fields) {
        return valid.isArray() ? NODES.arrayNode().add(fields) : fields;
    }

    private static List<String> names(ObjectNode fields) {
        List<String> names = new ArrayList<>();
        fields.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static String text(JsonNode body) {
        try {
            return JSON.writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Whether the HTTP client can send this path (it refuses an escape that is not one, such as {@code %zz}). */
    private static boolean isUri(String path) {
        try {
            new URI("https://localhost/v1" + path);
            return true;
        } catch (URISyntaxException e) {
            return false;
        }
    }

    /** A path segment or query part carrying {@code text} percent-encoded (spaces as %20). */
    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** What the server makes of a path segment after decoding it once; null when it cannot be decoded. */
    private static String decodeOnce(String segment) {
        try {
            return URLDecoder.decode(segment.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static int indexOf(byte[] text, byte[] part) {
        for (int i = 0; i + part.length <= text.length; i++) {
            if (Arrays.equals(text, i, i + part.length, part, 0, part.length)) {
                return i;
            }
        }
        throw new IllegalStateException("marker not found");
    }

    private static String hex(byte[] bytes) {
        StringBuilder text = new StringBuilder();
        for (byte b : bytes) {
            text.append(String.format("%02X", b));
        }
        return text.toString();
    }

    private static String abbreviate(String text) {
        return text.length() <= 40 ? text : text.substring(0, 20) + "...(" + text.length() + " chars)";
    }
}
