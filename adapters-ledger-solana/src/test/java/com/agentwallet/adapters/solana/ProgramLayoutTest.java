package com.agentwallet.adapters.solana;

import com.agentwallet.core.crypto.Hashing;
import com.agentwallet.core.ledger.solana.PayInstruction;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.policy.PolicyRules;
import com.agentwallet.core.wallet.WalletStatus;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.p2p.solanaj.core.PublicKey;
import org.p2p.solanaj.core.TransactionInstruction;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Holds the adapter's hand-written encoders and account offsets to programs/agent-wallet/layout.json,
 * the one description of the program's byte layouts: every sample of layout-corpus.json must encode
 * to its bytes. The build copies both files into the test resources.
 */
class ProgramLayoutTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNode LAYOUT = read("/agent-wallet/layout.json");
    private static final JsonNode CORPUS = read("/agent-wallet/layout-corpus.json");
    private static final PublicKey ANY = new PublicKey(filled(9));
    private static final ProgramInstructions PROGRAM = new ProgramInstructions(ANY, ANY);
    private static final int FLAG_MAX_PER_TX = 1;
    private static final int FLAG_MAX_PER_DAY = 2;
    private static final int FLAG_MAX_PER_MONTH = 4;
    private static final int FLAG_VELOCITY_CAP = 8;
    private static final int FLAG_EXPIRY = 16;

    /** Each instruction's data as the adapter builds it from a sample's values. */
    private static final Map<String, Function<JsonNode, TransactionInstruction>> ENCODERS = Map.ofEntries(
            Map.entry("init_treasury", v -> PROGRAM.initTreasury(ANY, ANY, ANY, ANY, v.get("bump").asInt(), ANY,
                    v.get("token_bump").asInt(), bytes(v.get("org_hash")), key(v.get("authority")))),
            Map.entry("create_wallet", v -> PROGRAM.createWallet(ANY, ANY, ANY, ANY, v.get("bump").asInt(), ANY,
                    v.get("token_bump").asInt(), ANY, bytes(v.get("agent_hash")))),
            Map.entry("set_session_key", v -> PROGRAM.setSessionKey(ANY, ANY, ANY, key(v.get("session_key")),
                    Instant.ofEpochSecond(v.get("expires_at").asLong()), v.get("sequence").asLong())),
            Map.entry("write_policy", ProgramLayoutTest::writePolicy),
            Map.entry("write_policy_entries", v -> {
                assertThat(v.get("count").asInt()).as("the adapter counts the entries it is given")
                        .isEqualTo(v.get("entries").size());
                return PROGRAM.writePolicyEntries(ANY, ANY, ANY, v.get("sequence").asLong(), v.get("start").asInt(),
                        entries(v.get("entries")));
            }),
            Map.entry("update_wallet", v -> PROGRAM.updateWallet(ANY, ANY, ANY, ANY, status(v.get("status").asInt()),
                    v.get("sequence").asLong())),
            Map.entry("fund", v -> PROGRAM.move(Instructions.FUND, ANY, ANY, ANY, ANY, ANY, micros(v.get("amount")))),
            Map.entry("withdraw", v -> PROGRAM.move(Instructions.WITHDRAW, ANY, ANY, ANY, ANY, ANY,
                    micros(v.get("amount")))),
            Map.entry("pay", v -> Instructions.solanaj(PayInstruction.of(SolanaAddresses.address(ANY),
                    SolanaAddresses.address(ANY), SolanaAddresses.address(ANY), SolanaAddresses.address(ANY),
                    SolanaAddresses.address(ANY), SolanaAddresses.address(ANY), SolanaAddresses.address(ANY),
                    micros(v.get("amount")), v.get("counted_at").asLong(), Optional.empty()))),
            Map.entry("escrow_lock", v -> PROGRAM.escrowLock(ANY, ANY, ANY, ANY, ANY, ANY, v.get("bump").asInt(), ANY,
                    v.get("vault_bump").asInt(), bytes(v.get("escrow_hash")), key(v.get("receiver")),
                    micros(v.get("amount")), v.get("deadline").asLong(),
                    v.get("has_expected_proof").asInt() == 1 ? Optional.of(bytes(v.get("expected_proof")))
                            : Optional.empty())),
            Map.entry("escrow_release", v -> PROGRAM.escrowRelease(ANY, ANY, ANY, ANY, ANY, ANY, bytes(v.get("proof")))),
            Map.entry("escrow_dispute", v -> PROGRAM.escrowDispute(ANY, ANY, ANY)),
            Map.entry("escrow_resolve", v -> PROGRAM.escrowResolve(ANY, ANY, ANY, ANY, ANY, ANY, ANY,
                    v.get("outcome").asInt())),
            Map.entry("escrow_refund", v -> PROGRAM.escrowRefund(ANY, ANY, ANY, ANY, ANY)));

    /**
     * Instructions the adapter never sends: {@code deploy.mjs} configures the program, and an
     * organisation that takes its authority elsewhere signs {@code set_authority} with its own tools.
     */
    private static final Set<String> NOT_SENT = Set.of("configure", "set_authority");

    private static final Map<String, Integer> TAGS = Map.ofEntries(
            Map.entry("init_treasury", Instructions.INIT_TREASURY),
            Map.entry("create_wallet", Instructions.CREATE_WALLET),
            Map.entry("set_session_key", Instructions.SET_SESSION_KEY),
            Map.entry("write_policy", Instructions.WRITE_POLICY),
            Map.entry("write_policy_entries", Instructions.WRITE_POLICY_ENTRIES),
            Map.entry("update_wallet", Instructions.UPDATE_WALLET),
            Map.entry("fund", Instructions.FUND),
            Map.entry("withdraw", Instructions.WITHDRAW),
            Map.entry("pay", PayInstruction.TAG),
            Map.entry("escrow_lock", Instructions.ESCROW_LOCK),
            Map.entry("escrow_release", Instructions.ESCROW_RELEASE),
            Map.entry("escrow_dispute", Instructions.ESCROW_DISPUTE),
            Map.entry("escrow_resolve", Instructions.ESCROW_RESOLVE),
            Map.entry("escrow_refund", Instructions.ESCROW_REFUND));

    @TestFactory
    Stream<DynamicTest> everyCorpusSampleEncodesToItsBytes() {
        List<JsonNode> samples = list(CORPUS.get("samples")).stream()
                .filter(sample -> !NOT_SENT.contains(sample.get("instruction").asText())).toList();
        assertThat(samples).isNotEmpty();
        return samples.stream().map(sample -> DynamicTest.dynamicTest(sample.get("instruction").asText(), () -> {
            String name = sample.get("instruction").asText();
            assertThat(ENCODERS).as("an encoder of %s", name).containsKey(name);
            byte[] data = ENCODERS.get(name).apply(sample.get("values")).getData();
            assertThat(HexFormat.of().formatHex(data)).isEqualTo(sample.get("hex").asText());
        }));
    }

    @Test
    void everyInstructionHasAnEncoderAndItsTag() {
        List<JsonNode> instructions = list(LAYOUT.get("instructions")).stream()
                .filter(ix -> !NOT_SENT.contains(ix.get("name").asText())).toList();
        assertThat(list(LAYOUT.get("instructions"))).extracting(ix -> ix.get("name").asText()).containsAll(NOT_SENT);
        assertThat(instructions).extracting(ix -> ix.get("name").asText())
                .containsExactlyInAnyOrderElementsOf(ENCODERS.keySet())
                .containsExactlyInAnyOrderElementsOf(TAGS.keySet());
        for (JsonNode ix : instructions) {
            assertThat(TAGS.get(ix.get("name").asText())).as(ix.get("name").asText())
                    .isEqualTo(ix.get("discriminator").asInt());
        }
    }

    @Test
    void accountOffsetsAreTheDescriptions() {
        assertThat(ProgramAccounts.WALLET_ORG_HASH).isEqualTo(offset("wallet", "org_hash"));
        assertThat(ProgramAccounts.WALLET_TREASURY).isEqualTo(offset("wallet", "treasury"));
        assertThat(ProgramAccounts.WALLET_POLICY).isEqualTo(offset("wallet", "policy"));
        assertThat(ProgramAccounts.POLICY_FLAGS).isEqualTo(offset("policy", "flags"));
        assertThat(ProgramAccounts.POLICY_CO_SIGNER).isEqualTo(offset("policy", "co_signer"));
        assertThat(ProgramAccounts.KIND_POLICY).isEqualTo(account("policy").get("kind").asInt());
        assertThat(ProgramAccounts.TREASURY_AUTHORITY).isEqualTo(offset("treasury", "authority"));
        assertThat(ProgramAccounts.TREASURY_MINT).isEqualTo(offset("treasury", "mint"));
        assertThat(ProgramAccounts.TREASURY_SIZE).isEqualTo(account("treasury").get("size").asInt());
        assertThat(ProgramAccounts.KIND_TREASURY).isEqualTo(account("treasury").get("kind").asInt());
        assertThat(ProgramAccounts.ESCROW_RENT_PAYER).isEqualTo(offset("escrow", "rent_payer"));
        assertThat(ProgramAccounts.ESCROW_SIZE).isEqualTo(account("escrow").get("size").asInt());
        assertThat(ProgramAccounts.KIND_ESCROW).isEqualTo(account("escrow").get("kind").asInt());
    }

    @Test
    void aPolicyLaidOutByTheDescriptionDecodes() {
        JsonNode policy = account("policy");
        byte[] data = new byte[policy.get("size").asInt()];
        data[offset(LAYOUT.get("header"), "kind")] = (byte) policy.get("kind").asInt();
        data[offset("policy", "flags")] = (byte) ProgramAccounts.FLAG_CO_SIGN;
        byte[] coSigner = filled(7);
        System.arraycopy(coSigner, 0, data, offset("policy", "co_signer"), 32);

        assertThat(ProgramAccounts.isPolicy(data)).isTrue();
        assertThat(ProgramAccounts.coSigner(data)).contains(new PublicKey(coSigner));
        data[offset("policy", "flags")] = 0;
        assertThat(ProgramAccounts.coSigner(data)).isEmpty();
    }

    private static TransactionInstruction writePolicy(JsonNode v) {
        int flags = v.get("flags").asInt();
        PolicyRules rules = new PolicyRules(
                optional(flags, FLAG_MAX_PER_TX, micros(v.get("max_per_tx"))),
                optional(flags, FLAG_MAX_PER_DAY, micros(v.get("max_per_day"))),
                optional(flags, FLAG_MAX_PER_MONTH, micros(v.get("max_per_month"))),
                optional(flags, FLAG_VELOCITY_CAP, v.get("velocity_cap").asInt()),
                List.of(), Set.of(),
                optional(flags, FLAG_EXPIRY, Instant.ofEpochSecond(v.get("expiry").asLong())),
                optional(flags, ProgramAccounts.FLAG_CO_SIGN, micros(v.get("co_sign_threshold"))),
                optional(flags, ProgramAccounts.FLAG_CO_SIGN, key(v.get("co_signer")).toBase58()));
        List<byte[]> entries = entries(v.get("entries"));
        assertThat(v.get("entries_in_data").asInt()).as("the adapter sends the entries it is given")
                .isEqualTo(entries.size());
        return PROGRAM.writePolicy(ANY, ANY, ANY, ANY, v.get("bump").asInt(), bytes(v.get("policy_hash")),
                v.get("sequence").asLong(), rules, v.get("allowed_count").asInt(), v.get("blocked_count").asInt(),
                entries);
    }

    private static <T> Optional<T> optional(int flags, int flag, T value) {
        return (flags & flag) != 0 ? Optional.of(value) : Optional.empty();
    }

    private static WalletStatus status(int code) {
        for (WalletStatus status : WalletStatus.values()) {
            if (ProgramInstructions.statusCode(status) == code) {
                return status;
            }
        }
        throw new IllegalArgumentException("no wallet status has code " + code);
    }

    private static Usdc micros(JsonNode value) {
        return Usdc.ofMicros(Long.parseUnsignedLong(value.asText()));
    }

    /** A corpus value of bytes: hex, or {"sha256": text} for the hash of an id. */
    private static byte[] bytes(JsonNode value) {
        return value.isObject()
                ? Hashing.sha256(value.get("sha256").asText().getBytes(StandardCharsets.UTF_8))
                : HexFormat.of().parseHex(value.asText());
    }

    private static PublicKey key(JsonNode value) {
        return new PublicKey(bytes(value));
    }

    private static List<byte[]> entries(JsonNode values) {
        List<byte[]> entries = new ArrayList<>();
        values.forEach(value -> entries.add(bytes(value)));
        return entries;
    }

    private static JsonNode account(String name) {
        return list(LAYOUT.get("accounts")).stream().filter(a -> a.get("name").asText().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("layout.json has no account " + name));
    }

    private static int offset(String account, String field) {
        return offset(account(account), field);
    }

    private static int offset(JsonNode layout, String field) {
        return list(layout.get("fields")).stream().filter(f -> f.get("name").asText().equals(field)).findFirst()
                .orElseThrow(() -> new AssertionError("layout.json has no field " + field)).get("offset").asInt();
    }

    private static List<JsonNode> list(JsonNode array) {
        return StreamSupport.stream(array.spliterator(), false).toList();
    }

    private static byte[] filled(int value) {
        byte[] bytes = new byte[32];
        Arrays.fill(bytes, (byte) value);
        return bytes;
    }

    private static JsonNode read(String resource) {
        try (InputStream in = ProgramLayoutTest.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is not on the test classpath (the pom copies it)");
            }
            return JSON.readTree(in);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
