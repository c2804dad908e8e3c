package com.agentwallet.adapters.solana;

import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.ledger.LedgerAddress;
import com.agentwallet.core.ledger.solana.SolanaPrograms;
import com.agentwallet.core.port.LedgerAdapterFactory;
import com.agentwallet.core.port.LedgerContext;
import com.agentwallet.core.port.LedgerJournal;
import com.agentwallet.core.port.LedgerPort;
import org.p2p.solanaj.core.Account;
import org.p2p.solanaj.core.PublicKey;
import org.p2p.solanaj.rpc.RpcClient;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
 *   <li>four keys, each a solana-keygen JSON keypair file {@code <key>_keypair}, or else the
 *       environment variable named by {@code <key>_env} (default {@code AGENT_WALLET_<KEY>}) holding
 *       the JSON array or the base58 secret key, and all different (docs/PROGRAM.md, "Keys and
 *       custody"): {@code fee_payer} pays fees and rent; {@code registrar} opens organisations'
 *       treasuries; {@code authority_root} derives each organisation's authority;
 *       {@code session_root} derives the wallets' session keys. No key is ever logged;</li>
 *   <li>{@code timeout_ms} (default 60000) to wait for a confirmation, {@code poll_interval_ms}
 *       (default 400) between status polls, {@code rpc_timeout_ms} (default 10000) per RPC call;</li>
 * </ul>
 * Its submissions journal is the context's {@link LedgerJournal}, in the service's database.
 */
public final class SolanaLedgerFactory implements LedgerAdapterFactory {
    public static final String NAME = "solana";
    /** The adapter's keys by setting name, in {@link Keys}' order. */
    static final List<String> KEY_NAMES = List.of("fee_payer", "registrar", "authority_root", "session_root");
    /** What each key is for, in the error that names a missing one. */
    private static final Map<String, String> KEY_ROLES = Map.of("fee_payer", "a fee payer",
            "registrar", "the registrar named in the program's configuration",
            "authority_root", "the root of the organisations' authorities",
            "session_root", "the root of the session keys");
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
        Submissions journal = new Submissions(context.journal().orElseThrow(() -> new IllegalStateException(
                "the solana ledger keeps its submissions in the service's journal, and none was given")));
        return new SolanaLedger(rpc, commitment, address(context, "program_id", DEFAULT_PROGRAM_ID),
                new PublicKey(address(context, "usdc_mint", mint).bytes()), keys(context), journal,
                Duration.ofMillis(context.longSetting("timeout_ms", 60_000)),
                Duration.ofMillis(context.longSetting("poll_interval_ms", 400)));
    }

    private Keys keys(LedgerContext context) {
        List<Account> accounts = new ArrayList<>();
        KEY_NAMES.forEach(name -> accounts.add(keypair(context, name, KEY_ROLES.get(name))));
        try {
            return new Keys(accounts.get(0), accounts.get(1), accounts.get(2), accounts.get(3));
        } catch (IllegalArgumentException e) {
            throw new ValidationException("ledger.keys", e.getMessage());
        }
    }

    private Account keypair(LedgerContext context, String name, String role) {
        String setting = name + "_keypair";
        Optional<String> file = context.setting(setting);
        String source;
        String text;
        if (file.isPresent()) {
            source = "the keypair file " + file.get();
            try {
                text = Files.readString(Path.of(file.get()), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new ValidationException("ledger." + setting, "cannot read " + source + ": " + e.getMessage());
            }
        } else {
            String variable = context.setting(name + "_env", "AGENT_WALLET_" + name.toUpperCase(Locale.ROOT));
            source = "the environment variable " + variable;
            text = Optional.ofNullable(environment.apply(variable)).orElseThrow(() -> new ValidationException(
                    "ledger." + setting, "the solana ledger needs " + role + ": set '" + setting + "' to a "
                    + "keypair file or put the secret key in " + source));
        }
        return Keys.parse(text).orElseThrow(() -> new ValidationException("ledger." + setting,
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
