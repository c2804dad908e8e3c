package com.agentwallet.core.testing;

/**
 * The length of a long-running test: a short form that every build runs, which still meets each
 * fault and checks every invariant, and a long form, the soak, under the Maven profile {@code soak}
 * ({@code mvn -Psoak ...} sets {@code agentwallet.test.soak}). The test's own property, when given,
 * overrides both.
 */
public final class Soak {
    public static final String PROPERTY = "agentwallet.test.soak";

    private Soak() {
    }

    /** The system property {@code property} if given, else {@code soak} under the soak profile, else {@code build}. */
    public static long length(String property, long build, long soak) {
        return Long.getLong(property, Boolean.getBoolean(PROPERTY) ? soak : build);
    }
}
