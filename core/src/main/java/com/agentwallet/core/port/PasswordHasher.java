package com.agentwallet.core.port;

/** A slow, salted, memory-hard password hash; its string names its own parameters and salt. */
public interface PasswordHasher {
    String hash(String password);

    /** Whether {@code password} is the one {@code hash} was made from; false for a malformed hash. */
    boolean matches(String password, String hash);
}
