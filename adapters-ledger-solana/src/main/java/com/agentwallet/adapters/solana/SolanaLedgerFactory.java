package com.agentwallet.adapters.solana;

import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.ledger.LedgerAddress;
import com.agentwallet.core.ledger.solana.SolanaPrograms;
import com.agentwallet.core.port.LedgerAdapterFactory;
import com.agentwallet.core.port.LedgerContext;
import com.agentwallet.core.port.LedgerPort;
import org.p2p.solanaj.core.Account;
import org.p2p.solanaj.core.PublicKey;
import org.p2p.solanaj.rpc.RpcClient;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The {@code solana} ledger plugin. Settings:
 * <ul>
 *   <li>{@code rpc_url} (required): the cluster's JSON-RPC endpoint;</li>
 *   <li>{@code cluster}: {@code devnet} (default), {@code mainnet} or {@code localnet}, which picks the
 *       default USDC mint;</li>
 *   <li>{@code usdc_mint}: overrides the cluster's USDC mint;</li>
 *   <li>{@code program_id}: the deployed wallet program;</li>
 *   <li>{@code commitment}: {@code processed}, {@code confirmed} (default) or {@code finalized};</li>
 *   <li>{@code fee_payer_keypair}: a solana-keygen JSON keypair file; or else the environment
 *       variable named by {@code fee_payer_env} (default {@code AGENT_WALLET_FEE_PAYER}) holding the
 *       JSON array or the base58 secret key. The key is never logged;</li>
 *   <li>{@code timeout_ms} (default 60000) to wait for a confirmation, {@code poll_interval_ms}
 *       (default 400) between status polls, {@code rpc_timeout_ms} (default 10000) per RPC call;</li>
 *   <li>{@code persist} ({@code true}: the submissions journal is kept under {@code <data>/ledger-solana/}).</li>
 * </ul>
 */
public final class SolanaLedgerFactory implements LedgerAdapterFactory {
    public static final String NAME = "solana";
    public static final String DEFAULT_FEE_PAYER_ENV = "AGENT_WALLET_FEE_PAYER";
    /** The USDC mints of the clusters (localnet uses devnet's address for its own mint). */
    static final Map<String, String> USDC_MINTS = Map.of(
            "mainnet", "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
            "devnet", SolanaPrograms.DEVNET_USDC_MINT.base58(),
            "localnet", SolanaPrograms.DEVNET_USDC_MINT.base58());
    static final String DEFAULT_PROGRAM_ID = "AgentWa11etProgram1111111111111111111111111";

    private final Function<String, String> environment;

    public SolanaLedgerFactory() {
        this(System::getenv);
    }

    SolanaLedgerFactory(Function<String, String> environment) {
        this.environment = environment;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public LedgerPort create(LedgerContext context) {
        String rpcUrl = context.setting("rpc_url").orElseThrow(() -> new ValidationException("ledger.rpc_url",
                "the solana ledger needs 'rpc_url', the cluster's JSON-RPC endpoint"));
        String cluster = context.setting("cluster", "devnet");
        String mint = context.setting("usdc_mint").orElseGet(() -> Optional.ofNullable(USDC_MINTS.get(cluster))
                .orElseThrow(() -> new ValidationException("ledger.cluster",
                        "ledger setting 'cluster' must be one of " + USDC_MINTS.keySet() + ", not " + cluster)));
        Commitment commitment = Commitment.parse(context.setting("commitment", "confirmed"));
        int rpcTimeout = (int) context.longSetting("rpc_timeout_ms", 10_000);
        SolanaRpc rpc = new SolanaRpc(new RpcClient(rpcUrl, rpcTimeout, rpcTimeout, rpcTimeout), commitment);
        Submissions journal = Boolean.parseBoolean(context.setting("persist", "true"))
                ? Submissions.open(context.dataDirectory().resolve("ledger-solana").resolve("submissions.jsonl"))
                : Submissions.inMemory();
        return new SolanaLedger(rpc, commitment, address(context, "program_id", DEFAULT_PROGRAM_ID),
                new PublicKey(address(context, "usdc_mint", mint).bytes()), new Keys(feePayer(context)), journal,
                Duration.ofMillis(context.longSetting("timeout_ms", 60_000)),
                Duration.ofMillis(context.longSetting("poll_interval_ms", 400)));
    }

    private Account feePayer(LedgerContext context) {
        Optional<String> file = context.setting("fee_payer_keypair");
        String source;
        String text;
        if (file.isPresent()) {
            source = "the keypair file " + file.get();
            try {
                text = Files.readString(Path.of(file.get()), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new ValidationException("ledger.fee_payer_keypair", "cannot read " + source + ": " + e.getMessage());
            }
        } else {
            String variable = context.setting("fee_payer_env", DEFAULT_FEE_PAYER_ENV);
            source = "the environment variable " + variable;
            text = Optional.ofNullable(environment.apply(variable)).orElseThrow(() -> new ValidationException(
                    "ledger.fee_payer_keypair", "the solana ledger needs a fee payer: set 'fee_payer_keypair' to a "
                    + "keypair file or put the secret key in " + source));
        }
        return Keys.parse(text).orElseThrow(() -> new ValidationException("ledger.fee_payer_keypair",
                source + " does not hold a 64-byte Ed25519 secret key (solana-keygen JSON or base58)"));
    }

    private static LedgerAddress address(LedgerContext context, String key, String fallback) {
        String value = context.setting(key, fallback).trim();
        if (!LedgerAddress.isValid(value)) {
            throw new ValidationException("ledger." + key, "ledger setting '" + key + "' is not a base58 address: " + value);
        }
        return new LedgerAddress(value);
    }
}
