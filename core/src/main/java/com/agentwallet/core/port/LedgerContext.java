package com.agentwallet.core.port;

import com.agentwallet.core.common.ValidationException;

import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import static java.util.Objects.requireNonNull;

/**
 * What a ledger plugin is created with: the service's clock, the folder where it may keep state,
 * its own settings as plain strings (the configuration file's {@code ledger:} section), and the
 * journal of its submissions that every server process shares, which the server always provides.
 */
public record LedgerContext(Clock clock, Path dataDirectory, Map<String, String> settings,
                            Optional<LedgerJournal> journal) {
    public LedgerContext {
        requireNonNull(clock, "clock is null");
        requireNonNull(dataDirectory, "dataDirectory is null");
        settings = Map.copyOf(settings);
        requireNonNull(journal, "journal is null");
    }

    /** A context without a shared journal, for a plugin that needs none (the simulator). */
    public LedgerContext(Clock clock, Path dataDirectory, Map<String, String> settings) {
        this(clock, dataDirectory, settings, Optional.empty());
    }

    public LedgerContext(Clock clock, Path dataDirectory, Map<String, String> settings, LedgerJournal journal) {
        this(clock, dataDirectory, settings, Optional.of(journal));
    }

    public Optional<String> setting(String key) {
        return Optional.ofNullable(settings.get(key));
    }

    public String setting(String key, String fallback) {
        return settings.getOrDefault(key, fallback);
    }

    public long longSetting(String key, long fallback) {
        return parse(key, fallback, Long::parseLong);
    }

    private <T> T parse(String key, T fallback, Function<String, T> parser) {
        String value = settings.get(key);
        if (value == null) {
            return fallback;
        }
        try {
            return parser.apply(value.trim());
        } catch (NumberFormatException e) {
            throw new ValidationException("ledger." + key, "ledger setting '" + key + "' is not a number: " + value);
        }
    }
}
