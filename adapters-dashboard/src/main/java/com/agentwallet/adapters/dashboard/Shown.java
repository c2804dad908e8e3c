package com.agentwallet.adapters.dashboard;

import com.agentwallet.core.common.Timestamps;
import com.agentwallet.core.money.Usdc;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Map;

/** How the pages show times, durations and amounts, the same on every page. */
final class Shown {
    private static final Template TIME = Template.load("time.html");
    private static final DateTimeFormatter MINUTE = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm").withZone(ZoneOffset.UTC);

    private Shown() {
    }

    /** To the minute in UTC, the exact instant in its {@code datetime}. */
    static Html time(Instant instant) {
        return TIME.render(Map.of("iso", Timestamps.format(instant), "shown", MINUTE.format(instant)));
    }

    /** The wire's exact decimal and the currency: {@code "12.50 USDC"}. */
    static String usdc(Usdc amount) {
        return amount + " USDC";
    }

    /** How long ago, to the minute: "just now", "3 min ago", "2 h 5 min ago". */
    static String age(Duration age) {
        return age.toMinutes() < 1 ? "just now" : span(age) + " ago";
    }

    /** A duration to the minute, in its two largest units: "3 min", "2 h 5 min", "1 d 4 h". */
    static String span(Duration duration) {
        long minutes = Math.max(duration.toMinutes(), 0);
        if (minutes < 60) {
            return Math.max(minutes, 1) + " min";
        }
        if (minutes < 24 * 60) {
            return minutes / 60 + " h " + minutes % 60 + " min";
        }
        return minutes / (24 * 60) + " d " + minutes / 60 % 24 + " h";
    }
}
