package com.agentwallet.core.webhook;

import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.WebhookId;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Instant;

import static java.util.Objects.requireNonNull;

/** A receiver of events: an HTTPS URL, what it subscribes to, and the secret its deliveries are signed with. */
public record Webhook(
        WebhookId id,
        OrgId orgId,
        String url,
        Subscription subscription,
        String signingSecret,
        WebhookStatus status,
        Instant createdAt,
        Instant updatedAt) {

    public static final String SECRET_PREFIX = "whsec_";
    public static final int MAX_URL_LENGTH = 2048;

    public Webhook {
        requireNonNull(id, "id is null");
        requireNonNull(orgId, "orgId is null");
        requireUrl(url);
        requireNonNull(subscription, "subscription is null");
        if (signingSecret == null || !signingSecret.startsWith(SECRET_PREFIX)) {
            throw new IllegalArgumentException("signing secrets start with " + SECRET_PREFIX);
        }
        requireNonNull(status, "status is null");
        requireNonNull(createdAt, "createdAt is null");
        requireNonNull(updatedAt, "updatedAt is null");
    }

    /** An absolute {@code https://} URL with a host; whether the host is a permitted address is the adapter's check. */
    public static URI requireUrl(String url) {
        ValidationException.check(url != null && url.length() <= MAX_URL_LENGTH, "url",
                "'url' must be an https:// URL of at most " + MAX_URL_LENGTH + " characters");
        try {
            URI uri = new URI(url);
            ValidationException.check("https".equalsIgnoreCase(uri.getScheme()) && uri.getHost() != null
                    && uri.getUserInfo() == null && uri.getFragment() == null, "url",
                    "'url' must be an https:// URL with a host, no credentials and no fragment");
            return uri;
        } catch (URISyntaxException e) {
            throw new ValidationException("url", "'url' is not a valid URL");
        }
    }

    public Webhook withStatus(WebhookStatus next, Instant now) {
        return new Webhook(id, orgId, url, subscription, signingSecret, next, createdAt, now);
    }

    public Webhook withTarget(String newUrl, Subscription newSubscription, Instant now) {
        return new Webhook(id, orgId, newUrl, newSubscription, signingSecret, status, createdAt, now);
    }
}
