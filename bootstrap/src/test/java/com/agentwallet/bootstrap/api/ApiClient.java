package com.agentwallet.bootstrap.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import javax.net.ssl.SSLContext;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A plain HTTPS client of /v1 for tests: {@code call(method, path, key)} with an optional JSON body
 * (an object is written as JSON, a string is sent as it is, raw bytes too, so tests can send broken
 * bodies, even chunked ones without a length) and extra headers, which replace the client's own
 * (a test's {@code Content-Type} wins). Answers are {@link ApiResponse}s. A client {@link #across}
 * several servers sends each request over HTTPS to the next of them in turn, as a load balancer would.
 */
public final class ApiClient {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<String> httpsBases;
    private final String httpBase;
    private final HttpClient http;
    private final AtomicInteger turn = new AtomicInteger();

    ApiClient(String httpsBase, String httpBase, SSLContext tls) {
        this(List.of(httpsBase), httpBase, tls);
    }

    private ApiClient(List<String> httpsBases, String httpBase, SSLContext tls) {
        this.httpsBases = List.copyOf(httpsBases);
        this.httpBase = httpBase;
        this.http = HttpClient.newBuilder().sslContext(tls).connectTimeout(Duration.ofSeconds(10)).build();
    }

    /**
     * A client of servers that trust one certificate, each request to the next server in turn (plain
     * HTTP to the first's): a request that found one server dead is sent again to another.
     */
    static ApiClient across(List<ApiClient> servers) {
        return new ApiClient(servers.stream().flatMap(server -> server.httpsBases.stream()).toList(),
                servers.get(0).httpBase, servers.get(0).http.sslContext());
    }

    private String nextHttpsBase() {
        return httpsBases.get(Math.floorMod(turn.getAndIncrement(), httpsBases.size()));
    }

    /** A request under construction. */
    public final class Call {
        private final String method;
        private final String path;
        private final Map<String, String> headers = new LinkedHashMap<>();
        private byte[] body;
        private boolean chunked;
        private boolean plainHttp;

        private Call(String method, String path) {
            this.method = method;
            this.path = path;
        }

        public Call key(String apiKey) {
            return header("Authorization", "Bearer " + apiKey);
        }

        public Call header(String name, String value) {
            headers.put(name, value);
            return this;
        }

        /** A JSON body: a {@link String} is sent verbatim, anything else is written as JSON. */
        public Call body(Object json) {
            try {
                body = json instanceof String text ? text.getBytes(StandardCharsets.UTF_8) : JSON.writeValueAsBytes(json);
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException(e);
            }
            return this;
        }

        /** A body of exactly these bytes (invalid UTF-8, say), labelled JSON unless a Content-Type header says not. */
        public Call bytes(byte[] raw) {
            body = raw.clone();
            return this;
        }

        /** Sends the body chunked, without a Content-Length, so the server learns its size only by reading it. */
        public Call chunked() {
            chunked = true;
            return this;
        }

        /** Sends to the plain-HTTP connector instead. */
        public Call overPlainHttp() {
            plainHttp = true;
            return this;
        }

        public ApiResponse send() {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create((plainHttp ? httpBase : nextHttpsBase()) + path))
                    .timeout(Duration.ofSeconds(30))
                    .method(method, publisher());
            if (body != null) {
                request.header("Content-Type", "application/json");
            }
            headers.forEach(request::setHeader);
            try {
                return ApiResponse.of(http.send(request.build(), HttpResponse.BodyHandlers.ofString()));
            } catch (IOException e) {
                throw new IllegalStateException(method + " " + path + " failed", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }

        private HttpRequest.BodyPublisher publisher() {
            if (body == null) {
                return HttpRequest.BodyPublishers.noBody();
            }
            byte[] bytes = body;
            return chunked ? HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(bytes))
                    : HttpRequest.BodyPublishers.ofByteArray(bytes);
        }
    }

    public Call call(String method, String path) {
        return new Call(method, path);
    }

    public ApiResponse get(String path, String apiKey) {
        return call("GET", path).key(apiKey).send();
    }

    public ApiResponse post(String path, String apiKey, Object body) {
        return call("POST", path).key(apiKey).body(body).send();
    }

    public ApiResponse patch(String path, String apiKey, Object body) {
        return call("PATCH", path).key(apiKey).body(body).send();
    }

    public ApiResponse put(String path, String apiKey, Object body) {
        return call("PUT", path).key(apiKey).body(body).send();
    }

    public ApiResponse delete(String path, String apiKey) {
        return call("DELETE", path).key(apiKey).send();
    }
}
