package com.agentwallet.bootstrap;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.core.Configuration;
import io.dropwizard.util.Duration;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The server's configuration file. With no {@code database.url} the books live in the embedded
 * PostgreSQL under {@code dataDirectory}; {@code ledger.type} picks the ledger plugin by name.
 * Secrets can come from the environment ({@code ${AGENT_WALLET_DB_PASSWORD}}, substitution is on).
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

    public java.time.Duration getCoSignWindow() {
        return coSignWindow.toJavaDuration();
    }

    /** An external PostgreSQL by JDBC URL, or (no URL) the embedded one. */
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
}
