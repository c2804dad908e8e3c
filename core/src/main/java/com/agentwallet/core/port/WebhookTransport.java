package com.agentwallet.core.port;

import com.agentwallet.core.webhook.DeliveryOutcome;

import java.net.URI;
import java.time.Duration;
import java.util.Map;

/**
 * Sends one event to a receiver: an HTTP POST of the JSON body, signed with the webhook's secret
 * ({@code Service-Signature}: hex HMAC-SHA256 of the exact bytes sent), redirects not followed.
 * Never throws for what the receiver does: a refusal, a timeout or a broken connection is an outcome.
 */
public interface WebhookTransport {
    DeliveryOutcome post(URI receiver, String signingSecret, Map<String, Object> body, Duration timeout);
}
