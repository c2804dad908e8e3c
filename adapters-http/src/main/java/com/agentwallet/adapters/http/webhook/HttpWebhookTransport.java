package com.agentwallet.adapters.http.webhook;

import com.agentwallet.core.crypto.Hashing;
import com.agentwallet.core.port.WebhookTransport;
import com.agentwallet.core.webhook.DeliveryOutcome;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import javax.net.ssl.SSLContext;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Webhook POSTs over the JDK's HTTP client: the JSON body, {@code Service-Signature} (hex HMAC-SHA256
 * of exactly those bytes, keyed with the whole signing secret), no redirects followed, and the
 * acknowledgement timeout covering the whole exchange.
 */
public final class HttpWebhookTransport implements WebhookTransport {
    public static final String SIGNATURE_HEADER = "Service-Signature";

    private final HttpClient http;
    private final ObjectMapper json;

    /** {@code tls} decides which receiver certificates are trusted (the JDK's defaults in production). */
    public HttpWebhookTransport(SSLContext tls, ObjectMapper json) {
        this.http = HttpClient.newBuilder()
                .sslContext(requireNonNull(tls, "tls is null"))
                .followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
        this.json = requireNonNull(json, "json is null");
    }

    @Override
    public DeliveryOutcome post(URI receiver, String signingSecret, Map<String, Object> body, Duration timeout) {
        byte[] payload;
        try {
            payload = json.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("an event body is not JSON: " + body, e);
        }
        HttpRequest request = HttpRequest.newBuilder(receiver)
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .header("User-Agent", "agent-wallet-webhooks/1")
                .header(SIGNATURE_HEADER, Hashing.hmacSha256Hex(signingSecret, payload))
                .POST(HttpRequest.BodyPublishers.ofByteArray(payload))
                .build();
        long started = System.nanoTime();
        try {
            HttpResponse<Void> response = http.send(request, HttpResponse.BodyHandlers.discarding());
            return DeliveryOutcome.answered(response.statusCode(), elapsedMillis(started));
        } catch (HttpTimeoutException e) {
            return DeliveryOutcome.failed("no answer within " + timeout.toSeconds() + " s", elapsedMillis(started));
        } catch (IOException e) {
            return DeliveryOutcome.failed("connection failed: " + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage()), elapsedMillis(started));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return DeliveryOutcome.failed("interrupted", elapsedMillis(started));
        }
    }

    private static long elapsedMillis(long startedNanos) {
        return (System.nanoTime() - startedNanos) / 1_000_000;
    }
}
