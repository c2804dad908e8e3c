package com.agentwallet.bench.service;

import com.agentwallet.bench.BenchmarkSupport;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HttpConnectionTest {
    private final AtomicInteger opened = new AtomicInteger();
    private ScriptedServer server;

    @AfterEach
    void stop() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void sendsTheRequestInOneWriteAndReadsABodyOfContentLength() throws Exception {
        server = new ScriptedServer(response(200, "{\"ok\":true}"));
        try (HttpConnection connection = HttpConnection.http("127.0.0.1", server.port(), opened)) {
            HttpConnection.Response answer = connection.send("POST", "/v1/payments", "{\"amount\":\"0.01\"}",
                    "Session-Token: t1");

            assertThat(answer).isEqualTo(new HttpConnection.Response(200, "{\"ok\":true}"));
        }
        assertThat(server.requests()).containsExactly("POST /v1/payments HTTP/1.1\r\nHost: 127.0.0.1:" + server.port()
                + "\r\nSession-Token: t1\r\nContent-Type: application/json\r\nContent-Length: 17\r\n\r\n"
                + "{\"amount\":\"0.01\"}");
    }

    @Test
    void keepsOneConnectionAcrossRequests() throws Exception {
        server = new ScriptedServer(response(200, "a"), response(404, "{\"code\":\"not_found\"}"), response(200, ""));
        try (HttpConnection connection = HttpConnection.http("127.0.0.1", server.port(), opened)) {
            connection.open();
            assertThat(connection.send("GET", "/a", null).body()).isEqualTo("a");
            HttpConnection.Response missing = connection.send("GET", "/b", null);
            assertThat(LoadDriver.unexpected(missing)).isEqualTo("404 not_found");
            assertThat(connection.send("GET", "/c", null)).isEqualTo(new HttpConnection.Response(200, ""));
        }
        assertThat(opened).hasValue(1);
        assertThat(server.connections()).isEqualTo(1);
    }

    @Test
    void readsAChunkedBodyWithExtensionsAndTrailers() throws Exception {
        server = new ScriptedServer("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "5;name=value\r\nhello\r\n7\r\n, world\r\n0\r\nTrailer: x\r\n\r\n", response(200, "next"));
        try (HttpConnection connection = HttpConnection.http("127.0.0.1", server.port(), opened)) {
            assertThat(connection.send("GET", "/", null).body()).isEqualTo("hello, world");
            assertThat(connection.send("GET", "/", null).body()).isEqualTo("next");
        }
        assertThat(opened).hasValue(1);
    }

    @Test
    void streamsALongBodyPieceByPiece() throws Exception {
        String row = "tx_0123456789,0.01,confirmed\n";
        String body = row.repeat(10_000);
        server = new ScriptedServer(response(200, body));
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        AtomicInteger pieces = new AtomicInteger();
        try (HttpConnection connection = HttpConnection.http("127.0.0.1", server.port(), opened)) {
            int status = connection.stream("/download", (bytes, offset, length) -> {
                pieces.incrementAndGet();
                received.write(bytes, offset, length);
            });
            assertThat(status).isEqualTo(200);
        }
        assertThat(received.toString(StandardCharsets.UTF_8)).isEqualTo(body);
        assertThat(pieces.get()).isGreaterThan(1);
    }

    @Test
    void aBodyWithoutLengthEndsWithTheConnectionAndTheNextRequestOpensAnother() throws Exception {
        server = new ScriptedServer(new Step("HTTP/1.1 200 OK\r\n\r\nuntil the end", true), response(200, "again"));
        try (HttpConnection connection = HttpConnection.http("127.0.0.1", server.port(), opened)) {
            assertThat(connection.send("GET", "/", null).body()).isEqualTo("until the end");
            assertThat(connection.send("GET", "/", null).body()).isEqualTo("again");
        }
        assertThat(opened).hasValue(2);
    }

    @Test
    void connectionCloseIsHonoured() throws Exception {
        server = new ScriptedServer("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 3\r\n\r\nbye",
                response(200, "hi"));
        try (HttpConnection connection = HttpConnection.http("127.0.0.1", server.port(), opened)) {
            assertThat(connection.send("GET", "/", null).body()).isEqualTo("bye");
            assertThat(connection.send("GET", "/", null).body()).isEqualTo("hi");
        }
        assertThat(opened).hasValue(2);
    }

    @Test
    void aRequestOnAConnectionTheServerClosedWhileIdleIsSentAgainOnANewOne() throws Exception {
        server = new ScriptedServer(new Step(response(200, "first"), true), response(200, "second"));
        try (HttpConnection connection = HttpConnection.http("127.0.0.1", server.port(), opened)) {
            assertThat(connection.send("GET", "/1", null).body()).isEqualTo("first");
            server.awaitClosed();
            assertThat(connection.send("GET", "/2", null).body()).isEqualTo("second");
        }
        assertThat(opened).hasValue(2);
        assertThat(server.requests()).hasSize(2);
    }

    @Test
    void aConnectionThatEndsInTheMiddleOfABodyFailsThatRequestOnly() throws Exception {
        server = new ScriptedServer(new Step("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort", true),
                response(200, "whole"));
        try (HttpConnection connection = HttpConnection.http("127.0.0.1", server.port(), opened)) {
            assertThatThrownBy(() -> connection.send("GET", "/", null)).isInstanceOf(EOFException.class)
                    .hasMessageContaining("95 bytes before the end of the body");
            assertThat(connection.send("GET", "/", null).body()).isEqualTo("whole");
        }
    }

    @Test
    void anAnswerThatIsNotHttpIsAnError() throws Exception {
        server = new ScriptedServer(new Step("SSH-2.0-OpenSSH\r\n", true));
        try (HttpConnection connection = HttpConnection.http("127.0.0.1", server.port(), opened)) {
            assertThatThrownBy(() -> connection.send("GET", "/", null)).isInstanceOf(IOException.class)
                    .hasMessage("not an HTTP status line: SSH-2.0-OpenSSH");
        }
    }

    /**
     * The server's certificate was made once by {@code keytool -genkeypair -keyalg EC -dname CN=localhost
     * -storetype PKCS12 -storepass localhost}: making it at each run starts a JVM for keytool, seconds on a
     * busy machine.
     */
    @Test
    void httpsWithTheAuthorizationOnEveryRequestAndOneConnection() throws Exception {
        Path keyStore = Path.of(HttpConnectionTest.class.getResource("/localhost.p12").toURI());
        HttpsServer https = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        https.setHttpsConfigurator(new HttpsConfigurator(BenchmarkSupport.serverTls(keyStore, "localhost")));
        List<String> authorizations = new CopyOnWriteArrayList<>();
        https.createContext("/", exchange -> {
            authorizations.add(exchange.getRequestHeaders().getFirst("Authorization"));
            byte[] body = ("you asked for " + exchange.getRequestURI()).getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        https.start();
        try (HttpConnection connection = HttpConnection.https("127.0.0.1", https.getAddress().getPort(),
                "Bearer key", opened)) {
            for (int i = 0; i < 3; i++) {
                assertThat(connection.send("GET", "/v1/wallets/" + i, null))
                        .isEqualTo(new HttpConnection.Response(200, "you asked for /v1/wallets/" + i));
            }
        } finally {
            https.stop(0);
        }
        assertThat(authorizations).containsExactly("Bearer key", "Bearer key", "Bearer key");
        assertThat(opened).hasValue(1);
    }

    private static String response(int status, String body) {
        return "HTTP/1.1 " + status + " X\r\nContent-Type: application/json\r\nContent-Length: "
                + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body;
    }

    /** What the server answers to the next request, and whether it then closes the connection. */
    private record Step(String text, boolean close) {
    }

    /**
     * A server on a socket of the loopback address that answers each request, whatever it is, with
     * the next step of its script, one connection at a time, and keeps the requests it read.
     */
    private static final class ScriptedServer implements AutoCloseable {
        private final ServerSocket socket = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
        private final Deque<Step> script = new ArrayDeque<>();
        private final List<String> requests = new CopyOnWriteArrayList<>();
        private final AtomicInteger connections = new AtomicInteger();
        private final Thread thread = new Thread(this::serve, "scripted-server");
        private final CountDownLatch closedOne = new CountDownLatch(1);

        ScriptedServer(Object... steps) throws IOException {
            for (Object step : steps) {
                script.add(step instanceof Step s ? s : new Step((String) step, false));
            }
            thread.setDaemon(true);
            thread.start();
        }

        int port() {
            return socket.getLocalPort();
        }

        List<String> requests() {
            return requests;
        }

        int connections() {
            return connections.get();
        }

        void awaitClosed() throws InterruptedException {
            assertThat(closedOne.await(10, TimeUnit.SECONDS)).as("the server closed the connection").isTrue();
        }

        private void serve() {
            try {
                while (!script.isEmpty()) {
                    try (Socket connection = socket.accept()) {
                        connections.incrementAndGet();
                        InputStream in = connection.getInputStream();
                        OutputStream out = connection.getOutputStream();
                        while (!script.isEmpty()) {
                            String request = readRequest(in);
                            if (request == null) {
                                break;
                            }
                            requests.add(request);
                            Step step = script.poll();
                            out.write(step.text().getBytes(StandardCharsets.UTF_8));
                            out.flush();
                            if (step.close()) {
                                break;
                            }
                        }
                    }
                    closedOne.countDown();
                }
            } catch (IOException e) {
                // the test closed the server
            }
        }

        /** The request's head and its body of Content-Length, or null at the end of the stream. */
        private static String readRequest(InputStream in) throws IOException {
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
                int b = in.read();
                if (b < 0) {
                    return null;
                }
                head.write(b);
            }
            String text = head.toString(StandardCharsets.UTF_8);
            int length = text.lines().filter(l -> l.startsWith("Content-Length: ")).findFirst()
                    .map(l -> Integer.parseInt(l.substring(16))).orElse(0);
            return text + new String(in.readNBytes(length), StandardCharsets.UTF_8);
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
