package com.agentwallet.core.ledger;

import com.agentwallet.core.crypto.Ed25519Curve;
import com.agentwallet.core.crypto.Hashing;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Solana's program-derived addresses: {@code create_program_address} and
 * {@code find_program_address} exactly as the runtime and every SDK compute them.
 */
public record ProgramAddress(LedgerAddress address, int bump) {
    public static final int MAX_SEEDS = 16;
    public static final int MAX_SEED_LENGTH = 32;
    private static final byte[] MARKER = "ProgramDerivedAddress".getBytes(StandardCharsets.UTF_8);
    /** The contract's seed prefix of wallet accounts. */
    private static final byte[] WALLET_SEED = "agent-wallet".getBytes(StandardCharsets.UTF_8);
    /** The contract's seed prefix of policy accounts. */
    private static final byte[] POLICY_SEED = "policy".getBytes(StandardCharsets.UTF_8);

    public ProgramAddress {
        requireNonNull(address, "address is null");
        if (bump < 0 || bump > 255) {
            throw new IllegalArgumentException("bump out of range: " + bump);
        }
    }

    /** SHA-256 of the seeds, the program id and the marker; empty when that lands on the curve. */
    public static Optional<LedgerAddress> create(List<byte[]> seeds, LedgerAddress programId) {
        if (seeds.size() > MAX_SEEDS) {
            throw new IllegalArgumentException("at most " + MAX_SEEDS + " seeds");
        }
        ByteArrayOutputStream input = new ByteArrayOutputStream();
        for (byte[] seed : seeds) {
            if (seed.length > MAX_SEED_LENGTH) {
                throw new IllegalArgumentException("a seed has at most " + MAX_SEED_LENGTH + " bytes");
            }
            input.writeBytes(seed);
        }
        input.writeBytes(programId.bytes());
        input.writeBytes(MARKER);
        byte[] hash = Hashing.sha256(input.toByteArray());
        return Ed25519Curve.isOnCurve(hash) ? Optional.empty() : Optional.of(LedgerAddress.of(hash));
    }

    /** The first bump from 255 down whose address is off the curve, with that address. */
    public static ProgramAddress find(List<byte[]> seeds, LedgerAddress programId) {
        for (int bump = 255; bump >= 0; bump--) {
            byte[] bumpSeed = {(byte) bump};
            List<byte[]> withBump = new ArrayList<>(seeds);
            withBump.add(bumpSeed);
            Optional<LedgerAddress> address = create(withBump, programId);
            if (address.isPresent()) {
                return new ProgramAddress(address.get(), bump);
            }
        }
        throw new IllegalStateException("no viable bump for these seeds");
    }

    /** A wallet's address: seeds {@code ["agent-wallet", sha256(org_id), sha256(agent_id)]}. */
    public static ProgramAddress wallet(LedgerAddress programId, String orgId, String agentId) {
        return find(List.of(WALLET_SEED, Hashing.sha256(orgId.getBytes(StandardCharsets.UTF_8)),
                Hashing.sha256(agentId.getBytes(StandardCharsets.UTF_8))), programId);
    }

    /** A policy's address: seeds {@code ["policy", sha256(org_id), sha256(policy_id)]}. */
    public static ProgramAddress policy(LedgerAddress programId, byte[] orgHash, String policyId) {
        return find(List.of(POLICY_SEED, orgHash, Hashing.sha256(policyId.getBytes(StandardCharsets.UTF_8))), programId);
    }
}
