package com.agentwallet.client;

import javax.net.ssl.SSLContext;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;

import static java.util.Objects.requireNonNull;

/**
 * The /v1 API. Built with one credential: an agent's wallet session token (all an agent ever needs)
 * or an organisation's API key ({@code sk_...}). Thread-safe; share one per credential.
 */
public final class AgentWallet {
    private final Wallets wallets;
    private final Payments payments;
    private final Escrows escrows;
    private final Policies policies;
    private final Recipients recipients;
    private final Transactions transactions;
    private final Webhooks webhooks;

    private AgentWallet(Transport transport) {
        this.wallets = new Wallets(transport);
        this.payments = new Payments(transport);
        this.escrows = new Escrows(transport);
        this.policies = new Policies(transport);
        this.recipients = new Recipients(transport);
        this.transactions = new Transactions(transport);
        this.webhooks = new Webhooks(transport);
    }

    public static Builder builder() {
        return new Builder();
    }

    public Wallets wallets() {
        return wallets;
    }

    public Payments payments() {
        return payments;
    }

    /** Agent-to-agent escrow ({@code /payments/a2a}). */
    public Escrows escrows() {
        return escrows;
    }

    public Policies policies() {
        return policies;
    }

    public Recipients recipients() {
        return recipients;
    }

    public Transactions transactions() {
        return transactions;
    }

    public Webhooks webhooks() {
        return webhooks;
    }

    public static final class Builder {
        private URI baseUrl = URI.create("https://localhost:8443/v1");
        private String credential;
        private Duration timeout = Duration.ofSeconds(30);
        private int maxRetries = 3;
        private SSLContext sslContext;

        private Builder() {
        }

        /** Defaults to the embedded server, {@code https://localhost:8443/v1}. */
        public Builder baseUrl(String baseUrl) {
            this.baseUrl = URI.create(requireNonNull(baseUrl, "baseUrl is null"));
            return this;
        }

        /** An agent's credential: its wallet's session token. */
        public Builder sessionToken(String sessionToken) {
            this.credential = requireNonNull(sessionToken, "sessionToken is null");
            return this;
        }

        /** A backend's or person's credential: an API key of one organisation and role. */
        public Builder apiKey(String apiKey) {
            this.credential = requireNonNull(apiKey, "apiKey is null");
            return this;
        }

        /** Each attempt's limit (default 30 s). */
        public Builder timeout(Duration timeout) {
            this.timeout = requireNonNull(timeout, "timeout is null");
            return this;
        }

        /** Retries after the first attempt (default 3); 0 turns retrying off. */
        public Builder maxRetries(int maxRetries) {
            if (maxRetries < 0) {
                throw new IllegalArgumentException("maxRetries is negative: " + maxRetries);
            }
            this.maxRetries = maxRetries;
            return this;
        }

        /**
         * The TLS context, for a server whose certificate the JVM does not trust, such as the embedded
         * demo's self-signed one (load its {@code data/tls/localhost.p12} as a trust store).
         */
        public Builder sslContext(SSLContext sslContext) {
            this.sslContext = requireNonNull(sslContext, "sslContext is null");
            return this;
        }

        public AgentWallet build() {
            if (credential == null) {
                throw new IllegalStateException("set a sessionToken or an apiKey");
            }
            HttpClient.Builder http = HttpClient.newBuilder().connectTimeout(timeout)
                    .followRedirects(HttpClient.Redirect.NEVER);
            if (sslContext != null) {
                http.sslContext(sslContext);
            }
            return new AgentWallet(new Transport(http.build(), baseUrl, credential, timeout, maxRetries));
        }
    }
}
