package com.agentwallet.bootstrap.api;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A real HTTPS receiver on this machine, with the test server's own self-signed certificate: it
 * records every POST (signature header and raw body) and answers with the status it is told to.
 */
final class WebhookReceiver implements AutoCloseable {
    /** One POST as it arrived. */
    record Received(String signature, String body) {
        /** Whether this is event {@code event} about {@code walletId}. */
        boolean isEvent(String event, String walletId) {
            return event().equals(event) && body.contains(walletId);
        }

        /** The event's name ({@code event}). */
        String event() {
            return field("event");
        }

        /** The event's id ({@code id}, {@code evt_...}). */
        String eventId() {
            return field("id");
        }

        private String field(String name) {
            String key = "\"" + name + "\":\"";
            int start = body.indexOf(key) + key.length();
            return body.substring(start, body.indexOf('"', start));
        }
    }

    private final HttpsServer server;
    private final ExecutorService handlers = Executors.newCachedThreadPool();
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private volatile int status = 200;
    private volatile CountDownLatch held = new CountDownLatch(0);

    WebhookReceiver(Path keyStore, String password) {
        try {
            server = HttpsServer.create(new InetSocketAddress("localhost", 0), 0);
            server.setHttpsConfigurator(new HttpsConfigurator(tls(keyStore, password)));
            server.createContext("/hook", exchange -> {
                try (InputStream in = exchange.getRequestBody()) {
                    received.add(new Received(exchange.getRequestHeaders().getFirst("Service-Signature"),
                            new String(in.readAllBytes(), StandardCharsets.UTF_8)));
                }
                awaitRelease();
                exchange.sendResponseHeaders(status, -1);
                exchange.close();
            });
            server.setExecutor(handlers);
            server.start();
        } catch (IOException e) {
            throw new IllegalStateException("the receiver did not start", e);
        }
    }

    String url() {
        return "https://localhost:" + server.getAddress().getPort() + "/hook";
    }

    void answer(int statusCode) {
        status = statusCode;
    }

    /** From now on each POST is recorded on arrival and left unanswered until {@link #release()}. */
    void hold() {
        held = new CountDownLatch(1);
    }

    /** Answers the POSTs held so far, and those to come without delay. */
    void release() {
        held.countDown();
    }

    private void awaitRelease() {
        try {
            if (!held.await(1, TimeUnit.MINUTES)) {
                throw new IllegalStateException("a held POST was never released");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    List<Received> received() {
        return List.copyOf(received);
    }

    /** Waits, at most {@code limit}, until a POST matching {@code wanted} arrived; answers it. */
    Received await(Predicate<Received> wanted, Duration limit) {
        return Eventually.await(limit, () -> "no matching delivery; received " + received,
                () -> received.stream().filter(wanted).findFirst());
    }

    @Override
    public void close() {
        release();
        server.stop(0);
        handlers.shutdownNow();
    }

    private static SSLContext tls(Path keyStore, String password) {
        try (InputStream in = Files.newInputStream(keyStore)) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, password.toCharArray());
            KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(store, password.toCharArray());
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys.getKeyManagers(), null, null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot serve TLS with " + keyStore, e);
        }
    }
}
