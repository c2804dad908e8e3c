package com.agentwallet.bootstrap;

import com.agentwallet.core.webhook.WebhookLimits;
import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.core.Configuration;
import io.dropwizard.health.HealthFactory;
import io.dropwizard.util.Duration;
import io.dropwizard.validation.MinDuration;
import jakarta.validation.Valid;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The server's configuration file. With no {@code database.url} the books live in the embedded
 * PostgreSQL under {@code dataDirectory}, with a password of its own; {@code ledger.type} picks the
 * ledger plugin by name. Secrets come from the environment ({@code ${AGENT_WALLET_DB_PASSWORD}}:
 * substitution is on), never from a shipped file.
 */
public class ServiceConfiguration extends Configuration {

    @NotEmpty
    @JsonProperty
    private String dataDirectory = "data";

    @Valid
    @NotNull
    @JsonProperty
    private DatabaseSettings database = new DatabaseSettings();

    @Valid
    @NotNull
    @JsonProperty
    private LedgerSettings ledger = new LedgerSettings();

    @Valid
    @NotNull
    @JsonProperty
    private ClockworkSettings clockwork = new ClockworkSettings();

    @Valid
    @NotNull
    @JsonProperty
    private ApiSettings api = new ApiSettings();

    @Valid
    @NotNull
    @JsonProperty
    private WebhookSettings webhooks = new WebhookSettings();

    @Valid
    @NotNull
    @JsonProperty
    private ExportsSettings exports = new ExportsSettings();

    @Valid
    @NotNull
    @JsonProperty
    private HealthCheckSettings healthChecks = new HealthCheckSettings();

    /** Dropwizard's health module as {@link #healthChecks} sets it up; built once, on first use. */
    private HealthFactory healthModule;

    /** Whether the first start creates the demo organisations and writes {@code demo-credentials.json}. */
    @JsonProperty
    private boolean demo;

    /** How long a payment waits for its co-signature before it expires. */
    @NotNull
    @JsonProperty
    private Duration coSignWindow = Duration.hours(72);

    public String getDataDirectory() {
        return dataDirectory;
    }

    public DatabaseSettings getDatabase() {
        return database;
    }

    public LedgerSettings getLedger() {
        return ledger;
    }

    public ClockworkSettings getClockwork() {
        return clockwork;
    }

    public ApiSettings getApi() {
        return api;
    }

    public WebhookSettings getWebhooks() {
        return webhooks;
    }

    public ExportsSettings getExports() {
        return exports;
    }

    public HealthCheckSettings getHealthChecks() {
        return healthChecks;
    }

    /**
     * Dropwizard's health module (readiness and liveness at the admin port's {@code /health-check}),
     * set up from {@code healthChecks}: the service registers the checks it schedules, so its own
     * {@code health} block is not for the configuration file (see {@link #isHealthLeftToTheService()}).
     */
    @Override
    public synchronized Optional<HealthFactory> getHealthFactory() {
        if (healthModule == null) {
            healthModule = HealthChecks.factory(healthChecks);
        }
        return Optional.of(healthModule);
    }

    @JsonIgnore
    @AssertTrue(message = "is set by the service from healthChecks; remove the health block")
    public boolean isHealthLeftToTheService() {
        return super.getHealthFactory().isEmpty();
    }

    /**
     * A clockwork round or a webhook worker waits up to {@code database.connectionTimeout} for each
     * job while the database is down: the stall bound must outlast that, or an outage would look like
     * a stuck worker and liveness would restart a server that a restart cannot help.
     */
    @JsonIgnore
    @AssertTrue(message = "healthChecks.workerStall must be at least 3 x clockwork.tick + 10 x database.connectionTimeout")
    public boolean isWorkerStallLongEnough() {
        return healthChecks.workerStall().compareTo(clockwork.tick().multipliedBy(3)
                .plus(database.connectionTimeout().multipliedBy(10))) >= 0;
    }

    public boolean isDemo() {
        return demo;
    }

    public java.time.Duration getCoSignWindow() {
        return coSignWindow.toJavaDuration();
    }

    /** An external PostgreSQL by JDBC URL, as {@code user} with {@code password}, or (no URL) the embedded one. */
    public static class DatabaseSettings {
        @JsonProperty
        private String url;
        @JsonProperty
        private String user = "postgres";
        @JsonProperty
        private String password = "";
        @Min(1)
        @JsonProperty
        private int maxConnections = 16;
        @Min(0)
        @JsonProperty
        private int embeddedPort;
        /**
         * The longest a request or a worker waits for a connection; with the database down, requests
         * are answered 503 {@code service_unavailable} after it.
         */
        @NotNull
        @MinDuration(value = 500, unit = TimeUnit.MILLISECONDS)
        @JsonProperty
        private Duration connectionTimeout = Duration.seconds(3);

        public Optional<String> url() {
            return Optional.ofNullable(url).filter(u -> !u.isBlank());
        }

        public String user() {
            return user;
        }

        public String password() {
            return password;
        }

        public int maxConnections() {
            return maxConnections;
        }

        public int embeddedPort() {
            return embeddedPort;
        }

        public java.time.Duration connectionTimeout() {
            return connectionTimeout.toJavaDuration();
        }
    }

    /** The ledger plugin and its own settings (passed to it as strings). */
    public static class LedgerSettings {
        @NotEmpty
        @JsonProperty
        private String type = "sim";
        @JsonProperty
        private Map<String, String> settings = new LinkedHashMap<>();

        public String type() {
            return type;
        }

        public Map<String, String> settings() {
            return settings;
        }
    }

    /** How often the background jobs run. */
    public static class ClockworkSettings {
        @NotNull
        @JsonProperty
        private Duration tick = Duration.seconds(2);
        @NotNull
        @JsonProperty
        private Duration recoveryGrace = Duration.seconds(30);
        @NotNull
        @JsonProperty
        private Duration reconcileEvery = Duration.minutes(5);

        public java.time.Duration tick() {
            return tick.toJavaDuration();
        }

        public java.time.Duration recoveryGrace() {
            return recoveryGrace.toJavaDuration();
        }

        public java.time.Duration reconcileEvery() {
            return reconcileEvery.toJavaDuration();
        }
    }

    /** The /v1 API's own settings: TLS, the proxy rule, the request body limit, rate limits and session tokens. */
    public static class ApiSettings {
        /** Make a self-signed certificate at the HTTPS connector's key store path when none is there. */
        @JsonProperty
        private boolean selfSignedCertificate;
        /** Behind a TLS-terminating proxy: take {@code X-Forwarded-Proto: https} as HTTPS. */
        @JsonProperty
        private boolean trustForwardedProto;
        /** The longest request body accepted; a longer one is answered 413 {@code payload_too_large}. */
        @Min(1)
        @JsonProperty
        private long maxRequestBytes = 1024 * 1024;
        @Valid
        @NotNull
        @JsonProperty
        private RateLimitSettings rateLimit = new RateLimitSettings();
        /** Per-organisation limits by organisation id, for customers on a custom plan. */
        @Valid
        @NotNull
        @JsonProperty
        private Map<String, RateLimitSettings> organisationRateLimits = new LinkedHashMap<>();
        @Valid
        @NotNull
        @JsonProperty
        private SessionTokenSettings sessionTokens = new SessionTokenSettings();
        /**
         * Where error bodies' {@code docs} links point: this base followed by the code (an http(s) URL
         * or a path, such as {@code https://docs.example.com/errors#}); unset, the server's own page,
         * {@code /docs/errors#<code>}.
         */
        @JsonProperty
        private String errorDocsBaseUrl;

        public boolean selfSignedCertificate() {
            return selfSignedCertificate;
        }

        public boolean trustForwardedProto() {
            return trustForwardedProto;
        }

        public long maxRequestBytes() {
            return maxRequestBytes;
        }

        public RateLimitSettings rateLimit() {
            return rateLimit;
        }

        public Map<String, RateLimitSettings> organisationRateLimits() {
            return organisationRateLimits;
        }

        public SessionTokenSettings sessionTokens() {
            return sessionTokens;
        }

        public Optional<String> errorDocsBaseUrl() {
            return Optional.ofNullable(errorDocsBaseUrl);
        }
    }

    /** A token bucket: {@code perSecond} refill, {@code burst} capacity. */
    public static class RateLimitSettings {
        @Min(1)
        @JsonProperty
        private long perSecond = 50;
        @Min(1)
        @JsonProperty
        private long burst = 200;

        public long perSecond() {
            return perSecond;
        }

        public long burst() {
            return burst;
        }
    }

    /**
     * Session token signing. {@code signingKey} is base64 of at least 32 bytes (set it from the
     * environment); without one, a key is made on first start and kept under the data directory.
     * {@code retiredSigningKeys} verify, and never sign, the tokens made before a rotation; blank
     * entries (an unset environment variable) are ignored.
     */
    public static class SessionTokenSettings {
        @JsonProperty
        private String signingKey;
        @JsonProperty
        @JsonFormat(with = JsonFormat.Feature.ACCEPT_SINGLE_VALUE_AS_ARRAY)
        private List<String> retiredSigningKeys = List.of();
        @NotEmpty
        @JsonProperty
        private String issuer = "agent-wallet";
        @NotEmpty
        @JsonProperty
        private String audience = "agent-wallet/v1";

        public Optional<String> signingKey() {
            return Optional.ofNullable(signingKey).filter(key -> !key.isBlank());
        }

        public List<String> retiredSigningKeys() {
            return retiredSigningKeys == null ? List.of()
                    : retiredSigningKeys.stream().filter(key -> key != null && !key.isBlank()).toList();
        }

        public String issuer() {
            return issuer;
        }

        public String audience() {
            return audience;
        }
    }

    /**
     * Webhook delivery: how many deliveries run at once, how often idle workers look for due ones,
     * and two development switches (receivers on private addresses, self-signed receiver
     * certificates), both off unless the configuration turns them on.
     */
    public static class WebhookSettings {
        @Min(1)
        @JsonProperty
        private int workers = 4;
        @NotNull
        @JsonProperty
        private Duration pollInterval = Duration.milliseconds(200);
        @JsonProperty
        private boolean allowPrivateReceivers;
        @JsonProperty
        private boolean acceptSelfSignedReceivers;
        /** Webhooks one organisation may have; creating one more is refused. */
        @Min(1)
        @JsonProperty
        private int maxPerOrganisation = WebhookLimits.DEFAULTS.perOrganisation();
        /** Deliveries of one organisation in flight at once, over every server process: its share of the workers. */
        @Min(1)
        @JsonProperty
        private int inFlightPerOrganisation = WebhookLimits.DEFAULTS.inFlightPerOrganisation();
        /** How long a claimed delivery is its worker's before another may try it again (at least 10 s). */
        @NotNull
        @JsonProperty
        private Duration deliveryLease = Duration.seconds(WebhookLimits.DEFAULTS.lease().toSeconds());

        public WebhookLimits limits() {
            return new WebhookLimits(maxPerOrganisation, inFlightPerOrganisation, deliveryLease.toJavaDuration());
        }

        public int workers() {
            return workers;
        }

        public java.time.Duration pollInterval() {
            return pollInterval.toJavaDuration();
        }

        public boolean allowPrivateReceivers() {
            return allowPrivateReceivers;
        }

        public boolean acceptSelfSignedReceivers() {
            return acceptSelfSignedReceivers;
        }
    }

    /**
     * The health checks' schedule and bounds: how often each runs, how long a background worker may go
     * without finishing a round (the exports' generators apart: one file may take long), how long the
     * ledger's slot may stand still, and the webhook backlog (due deliveries, and how long the oldest
     * has been due) beyond which the backlog check reports unhealthy.
     */
    public static class HealthCheckSettings {
        @NotNull
        @MinDuration(value = 10, unit = TimeUnit.MILLISECONDS)
        @JsonProperty
        private Duration interval = Duration.seconds(5);
        @NotNull
        @JsonProperty
        private Duration workerStall = Duration.minutes(1);
        @NotNull
        @JsonProperty
        private Duration exportStall = Duration.minutes(30);
        @NotNull
        @MinDuration(value = 1, unit = TimeUnit.SECONDS)
        @JsonProperty
        private Duration ledgerStall = Duration.minutes(1);
        @Min(1)
        @Max(1_000_000)
        @JsonProperty
        private int webhookBacklog = 10_000;
        @NotNull
        @JsonProperty
        private Duration webhookOldest = Duration.minutes(10);

        public java.time.Duration interval() {
            return interval.toJavaDuration();
        }

        public java.time.Duration workerStall() {
            return workerStall.toJavaDuration();
        }

        public java.time.Duration exportStall() {
            return exportStall.toJavaDuration();
        }

        public java.time.Duration ledgerStall() {
            return ledgerStall.toJavaDuration();
        }

        public int webhookBacklog() {
            return webhookBacklog;
        }

        public java.time.Duration webhookOldest() {
            return webhookOldest.toJavaDuration();
        }
    }

    /**
     * Exports: how long a ready file is kept before it is deleted and its export expired, and how
     * many files this process writes at once (its generator threads; every process's generators
     * share the jobs, at most three of one organisation at once).
     */
    public static class ExportsSettings {
        @NotNull
        @JsonProperty
        private Duration retention = Duration.days(7);
        @Min(1)
        @JsonProperty
        private int generators = 4;
        /** Where the files are written; {@code <dataDirectory>/exports} when not set. One folder for every server. */
        @JsonProperty
        private String directory;

        public java.time.Duration retention() {
            return retention.toJavaDuration();
        }

        public Optional<String> directory() {
            return Optional.ofNullable(directory).filter(d -> !d.isBlank());
        }

        public int generators() {
            return generators;
        }
    }
}
