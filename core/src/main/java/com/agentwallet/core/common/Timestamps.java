package com.agentwallet.core.common;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;

/** The contract's timestamp form: ISO 8601 UTC with {@code Z} and millisecond precision. */
public final class Timestamps {
    /** The form of years outside 0–9999 (a sign, or more digits); the others are written by hand, faster. */
    private static final DateTimeFormatter FORMAT =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
    private static final int LAST_FOUR_DIGIT_YEAR = 9999;

    private Timestamps() {
    }

    public static String format(Instant instant) {
        LocalDateTime utc = LocalDateTime.ofEpochSecond(instant.getEpochSecond(), instant.getNano(), ZoneOffset.UTC);
        if (utc.getYear() < 0 || utc.getYear() > LAST_FOUR_DIGIT_YEAR) {
            return FORMAT.format(instant);
        }
        StringBuilder text = new StringBuilder(24);
        digits(text, utc.getYear(), 4).append('-');
        digits(text, utc.getMonthValue(), 2).append('-');
        digits(text, utc.getDayOfMonth(), 2).append('T');
        digits(text, utc.getHour(), 2).append(':');
        digits(text, utc.getMinute(), 2).append(':');
        digits(text, utc.getSecond(), 2).append('.');
        return digits(text, utc.getNano() / 1_000_000, 3).append('Z').toString();
    }

    /** Appends {@code value} zero-padded to {@code width} digits. */
    private static StringBuilder digits(StringBuilder text, int value, int width) {
        String plain = Integer.toString(value);
        for (int i = plain.length(); i < width; i++) {
            text.append('0');
        }
        return text.append(plain);
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
