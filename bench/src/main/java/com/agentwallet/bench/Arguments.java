package com.agentwallet.bench;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * A benchmark's command line, read option by option: {@code --name value} or {@code --flag}. Bad
 * input is a {@link UsageException} that names the option and what it takes.
 */
public final class Arguments {
    /** What is wrong with the command line, said so that the user can mend it. */
    public static final class UsageException extends IllegalArgumentException {
        public UsageException(String message) {
            super(message);
        }
    }

    private final List<String> args;
    private int next;
    private String option = "";

    public Arguments(String... args) {
        this.args = List.of(args);
    }

    /**
     * The options {@code parse} reads from {@code args}. On {@code -h} or {@code --help} prints
     * {@code usage} and exits 0; on bad input prints what is wrong and {@code usage}, and exits 2.
     */
    public static <T> T parseOrExit(String[] args, String usage, Function<String[], T> parse) {
        if (Arrays.asList(args).contains("-h") || Arrays.asList(args).contains("--help")) {
            System.out.println(usage);
            System.exit(0);
        }
        try {
            return parse.apply(args);
        } catch (UsageException e) {
            System.err.println(e.getMessage());
            System.err.println(usage);
            System.exit(2);
            throw e;
        }
    }

    public boolean hasNext() {
        return next < args.size();
    }

    /** The next option's name. */
    public String next() {
        option = args.get(next++);
        return option;
    }

    /** The value of the option just read. */
    public String value() {
        if (!hasNext()) {
            throw new UsageException(option + " needs a value");
        }
        return args.get(next++);
    }

    public int positive() {
        int n = whole(value());
        if (n <= 0) {
            throw invalid("must be positive, not " + n);
        }
        return n;
    }

    public int notNegative() {
        int n = whole(value());
        if (n < 0) {
            throw invalid("must not be negative, not " + n);
        }
        return n;
    }

    public Path path() {
        return Path.of(value());
    }

    /** Positive whole numbers, comma-separated: {@code 16,32,64}. */
    public List<Integer> positives() {
        String value = value();
        try {
            List<Integer> numbers = Arrays.stream(value.split(",", -1)).map(String::trim).map(Integer::parseInt).toList();
            if (numbers.stream().allMatch(n -> n > 0)) {
                return numbers;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw invalid("takes positive whole numbers, comma-separated, not '" + value + "'");
    }

    /** Numbers, comma-separated: {@code 0.2,0.3}. */
    public List<Double> numbers() {
        String value = value();
        try {
            return Arrays.stream(value.split(",", -1)).map(String::trim).map(Double::parseDouble).toList();
        } catch (NumberFormatException e) {
            throw invalid("takes numbers, comma-separated, not '" + value + "'");
        }
    }

    /** "{@code option} {@code what}": the option just read is wrong. */
    public UsageException invalid(String what) {
        return new UsageException(option + " " + what);
    }

    public UsageException unknown() {
        return new UsageException("unknown option " + option);
    }

    private int whole(String value) {
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw invalid("takes a whole number, not '" + value + "'");
        }
    }
}
