package com.agentwallet.core.common;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;

/** The contract's timestamp form: ISO 8601 UTC with {@code Z} and millisecond precision. */
public final class Timestamps {
    private static final DateTimeFormatter FORMAT =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    private Timestamps() {
    }

    public static String format(Instant instant) {
        return FORMAT.format(instant);
    }

    /** Parses any ISO 8601 instant with an offset; precision below a millisecond is dropped. */
    public static Instant parse(String text, String param) {
        try {
            return DateTimeFormatter.ISO_OFFSET_DATE_TIME.parse(text, Instant::from).truncatedTo(ChronoUnit.MILLIS);
        } catch (DateTimeParseException | NullPointerException e) {
            throw new ValidationException(param,
                    "'" + param + "' must be an ISO 8601 timestamp such as \"2026-04-01T12:00:00.000Z\"");
        }
    }
}
