package com.agentwallet.bench;

import com.agentwallet.core.crypto.Base58;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * Base58 text of a Solana address (32 bytes) and of a signature (64 bytes), which the ledger
 * adapters write for every operation: the simulator for each signature it makes.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class Base58Benchmark {
    @Param({"32", "64"})
    int bytes;

    private byte[] input;
    private String text;

    @Setup
    public void setUp() {
        input = new byte[bytes];
        new Random(58).nextBytes(input);
        text = Base58.encode(input);
    }

    @Benchmark
    public String encode() {
        return Base58.encode(input);
    }

    @Benchmark
    public Object decode() {
        return Base58.decode(text);
    }
}
