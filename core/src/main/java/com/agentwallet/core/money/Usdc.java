package com.agentwallet.core.money;

import com.agentwallet.core.common.ValidationException;

import java.util.regex.Pattern;

/**
 * An amount of USDC as an exact count of micro-USDC (6 decimals). Never negative, never rounded,
 * and arithmetic that would overflow a {@code long} throws instead of wrapping.
 */
public record Usdc(long micros) implements Comparable<Usdc> {
    /** The currency's code on the wire, in every resource and event that carries an amount. */
    public static final String CURRENCY = "USDC";
    public static final int DECIMALS = 6;
    public static final long MICROS_PER_USDC = 1_000_000L;
    public static final Usdc ZERO = new Usdc(0);

    private static final Pattern DECIMAL = Pattern.compile("^[0-9]+(\\.[0-9]{1," + DECIMALS + "})?$");
    /** Enough integer digits for any amount a {@code long} of micros can hold (9.2 trillion USDC). */
    private static final int MAX_INTEGER_DIGITS = 13;

    public Usdc {
        if (micros < 0) {
            throw new IllegalArgumentException("negative amount: " + micros);
        }
    }

    public static Usdc ofMicros(long micros) {
        return new Usdc(micros);
    }

    public static Usdc ofWhole(long usdc) {
        return new Usdc(Math.multiplyExact(usdc, MICROS_PER_USDC));
    }

    /**
     * Parses the wire form: digits, optionally a point and 1 to 6 decimals. No sign, no exponent,
     * no rounding: anything else is a validation error naming {@code param}.
     */
    public static Usdc parse(String decimal, String param) {
        if (decimal == null || !DECIMAL.matcher(decimal).matches()) {
            throw new ValidationException(param,
                    "'" + param + "' must be a decimal string with at most " + DECIMALS + " decimals, such as \"12.50\"");
        }
        int point = decimal.indexOf('.');
        String whole = point < 0 ? decimal : decimal.substring(0, point);
        String fraction = point < 0 ? "" : decimal.substring(point + 1);
        String wholeDigits = stripLeadingZeros(whole);
        if (wholeDigits.length() > MAX_INTEGER_DIGITS) {
            throw tooLarge(param);
        }
        try {
            long micros = Math.addExact(
                    Math.multiplyExact(Long.parseLong(wholeDigits), MICROS_PER_USDC),
                    Long.parseLong(fraction + "0".repeat(DECIMALS - fraction.length())));
            return new Usdc(micros);
        } catch (ArithmeticException overflow) {
            throw tooLarge(param);
        }
    }

    public static Usdc parse(String decimal) {
        return parse(decimal, "amount");
    }

    /** Parses an amount that must be more than zero, as every payment, funding and escrow needs. */
    public static Usdc parsePositive(String decimal, String param) {
        Usdc amount = parse(decimal, param);
        if (amount.isZero()) {
            throw new ValidationException(param, "'" + param + "' must be greater than zero");
        }
        return amount;
    }

    public Usdc plus(Usdc other) {
        return new Usdc(Math.addExact(micros, other.micros));
    }

    /** The difference; throws when it would be negative, because a negative amount does not exist. */
    public Usdc minus(Usdc other) {
        return new Usdc(Math.subtractExact(micros, other.micros));
    }

    public boolean isZero() {
        return micros == 0;
    }

    public boolean isLessThan(Usdc other) {
        return micros < other.micros;
    }

    public boolean isAtLeast(Usdc other) {
        return micros >= other.micros;
    }

    public boolean exceeds(Usdc other) {
        return micros > other.micros;
    }

    @Override
    public int compareTo(Usdc other) {
        return Long.compare(micros, other.micros);
    }

    /** The wire form: at least 2 and at most 6 decimals ({@code "0.00"}, {@code "12.50"}, {@code "0.000001"}). */
    @Override
    public String toString() {
        long fraction = micros % MICROS_PER_USDC;
        int decimals = DECIMALS;
        while (decimals > 2 && fraction % 10 == 0) {
            fraction /= 10;
            decimals--;
        }
        String digits = Long.toString(fraction);
        return (micros / MICROS_PER_USDC) + "." + "0".repeat(decimals - digits.length()) + digits;
    }

    private static String stripLeadingZeros(String digits) {
        int start = 0;
        while (start < digits.length() - 1 && digits.charAt(start) == '0') {
            start++;
        }
        return digits.substring(start);
    }

    private static ValidationException tooLarge(String param) {
        return new ValidationException(param, "'" + param + "' is larger than the largest supported amount");
    }
}
