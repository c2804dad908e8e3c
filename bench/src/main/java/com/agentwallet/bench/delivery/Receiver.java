package com.agentwallet.bench.delivery;

import com.agentwallet.bench.BenchmarkSupport;
import com.agentwallet.bootstrap.SelfSignedCertificate;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The webhook receiver of the benchmark: the JDK's HTTPS server on the loopback address with a
 * self-signed certificate for {@code localhost}, answering every POST 200, at once or after a set
 * delay (a slow receiver). It remembers, per
 * event id, when the event's first attempt arrived and when it was first acknowledged
 * ({@link System#nanoTime}); a repeated attempt counts only as a duplicate.
 */
final class Receiver implements AutoCloseable {
    private static final String PATH = "/webhook";
    private static final String KEY_STORE_PASSWORD = "delivery-benchmark";
    /** The envelope's {@code id}; the payload's ids are {@code tx_id}, {@code wallet_id}, never bare {@code id}. */
    private static final Pattern EVENT_ID = Pattern.compile("\"id\"\\s*:\\s*\"(evt_[^\"]+)\"");

    private final HttpsServer server;
    private final ExecutorService executor;
    private final Map<String, Long> firstArrival = new ConcurrentHashMap<>();
    private final Map<String, Long> acknowledged = new ConcurrentHashMap<>();
    private final LongAdder requests = new LongAdder();
    private final LongAdder unreadable = new LongAdder();
    private final Duration answerAfter;

    private Receiver(HttpsServer server, ExecutorService executor, Duration answerAfter) {
        this.server = server;
        this.executor = executor;
        this.answerAfter = answerAfter;
    }

    /** Starts on a free port, with a certificate made by keytool at {@code keyStore}, answering on {@code threads} threads. */
    static Receiver start(Path keyStore, int threads) throws IOException {
        return start(keyStore, threads, Duration.ZERO);
    }

    /** Starts as {@link #start(Path, int)} does, answering each POST {@code answerAfter} after it arrived. */
    static Receiver start(Path keyStore, int threads, Duration answerAfter) throws IOException {
        SelfSignedCertificate.createIfAbsent(keyStore, KEY_STORE_PASSWORD);
        HttpsServer server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1024);
        server.setHttpsConfigurator(new HttpsConfigurator(BenchmarkSupport.serverTls(keyStore, KEY_STORE_PASSWORD)));
        ExecutorService executor = Executors.newFixedThreadPool(threads, runnable -> {
            Thread thread = new Thread(runnable, "webhook-receiver");
            thread.setDaemon(true);
            return thread;
        });
        server.setExecutor(executor);
        Receiver receiver = new Receiver(server, executor, answerAfter);
        server.createContext(PATH, receiver::handle);
        server.start();
        return receiver;
    }

    /** The URL a webhook points at: {@code localhost}, the name the certificate is for. */
    String url() {
        return "https://localhost:" + server.getAddress().getPort() + PATH;
    }

    private void handle(HttpExchange exchange) throws IOException {
        long arrived = System.nanoTime();
        try {
            requests.increment();
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            Matcher id = EVENT_ID.matcher(body);
            if (!"POST".equals(exchange.getRequestMethod()) || !id.find()) {
                unreadable.increment();
                exchange.sendResponseHeaders(400, -1);
                return;
            }
            firstArrival.putIfAbsent(id.group(1), arrived);
            if (!answerAfter.isZero()) {
                Thread.sleep(answerAfter.toMillis());
            }
            exchange.sendResponseHeaders(200, -1);
            acknowledged.putIfAbsent(id.group(1), System.nanoTime());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            exchange.close();
        }
    }

    /** When the first attempt of the event arrived, or null. */
    Long firstArrival(String eventId) {
        return firstArrival.get(eventId);
    }

    /** When the event was first answered 200, or null. */
    Long acknowledged(String eventId) {
        return acknowledged.get(eventId);
    }

    int acknowledgedCount() {
        return acknowledged.size();
    }

    /** Every POST, first attempts and repeats. */
    long requests() {
        return requests.sum();
    }

    /** POSTs without an event id in their body (answered 400). */
    long unreadable() {
        return unreadable.sum();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
