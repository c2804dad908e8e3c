package com.agentwallet.adapters.solana;

import com.agentwallet.core.port.LedgerContext;
import com.agentwallet.core.port.LedgerJournal;
import com.agentwallet.core.testing.InMemoryLedgerJournal;
import com.agentwallet.core.port.LedgerPlugins;
import com.agentwallet.core.port.LedgerPort;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.p2p.solanaj.core.Account;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The project's local validator stand-in ({@code programs/agent-wallet/localnet}, LiteSVM behind
 * Solana's JSON-RPC) as a child process of the test JVM, with the built wallet program loaded and
 * configured (its registrar is this localnet's), and a fee payer funded with SOL and USDC. It exits
 * with the JVM (its stdin closes). The service's four keys are made here, one of each.
 */
public final class Localnet implements AutoCloseable {
    /** The built program's folder; Maven passes it, an IDE run finds it beside the module. */
    private static final String PROGRAM_DIR = System.getProperty("agentwallet.program.dir", "../programs/agent-wallet");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long SOL = 1_000_000_000L;
    private static final long FLOAT_MICROS = 1_000_000_000_000_000L;

    private final Process process;
    private final String rpcUrl;
    private final Account feePayer;
    private final Account registrar;
    private final Account authorityRoot = new Account();
    private final Account sessionRoot = new Account();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private Localnet(Process process, String rpcUrl, Account feePayer, Account registrar) {
        this.process = process;
        this.rpcUrl = rpcUrl;
        this.feePayer = feePayer;
        this.registrar = registrar;
    }

    /** Starts a localnet whose fee payer holds 1,000 SOL and a billion USDC. */
    public static Localnet start() {
        Account feePayer = new Account();
        Account registrar = new Account();
        Path directory = Path.of(PROGRAM_DIR).toAbsolutePath().normalize();
        if (!Files.exists(directory.resolve("target/agent_wallet.so"))) {
            throw new IllegalStateException("the wallet program is not built: run `mvn -pl programs/agent-wallet verify` "
                    + "(or `node build.mjs` in " + directory + ")");
        }
        try {
            Path registrarFile = Files.createTempFile("localnet-registrar", ".json");
            registrarFile.toFile().deleteOnExit();
            Files.writeString(registrarFile, keypairJson(registrar));
            List<String> command = new ArrayList<>(List.of("node", "localnet/server.mjs", "--port", "0",
                    "--exit-on-stdin-close", "--airdrop", feePayer.getPublicKeyBase58() + ":" + 1_000 * SOL,
                    "--usdc", feePayer.getPublicKeyBase58() + ":" + FLOAT_MICROS, "--registrar", registrarFile.toString()));
            Process process = new ProcessBuilder(command).directory(directory.toFile())
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            String ready = out.readLine();
            if (ready == null) {
                throw new IllegalStateException("localnet exited before it was ready: " + process.waitFor());
            }
            return new Localnet(process, JSON.readTree(ready).get("rpc_url").asText(), feePayer, registrar);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start localnet in " + directory, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public String rpcUrl() {
        return rpcUrl;
    }

    public Account feePayer() {
        return feePayer;
    }

    /** The registrar the program's configuration names. */
    public Account registrar() {
        return registrar;
    }

    /** The four keys {@link #ledgerSettings} gives a ledger on this localnet. */
    Keys keys() {
        return new Keys(feePayer, registrar, authorityRoot, sessionRoot);
    }

    /** A secret key as solana-keygen writes it. */
    private static String keypairJson(Account account) {
        StringBuilder json = new StringBuilder("[");
        for (byte b : account.getSecretKey()) {
            json.append(json.length() > 1 ? "," : "").append(b & 0xff);
        }
        return json.append(']').toString();
    }

    /**
     * The settings of a {@code solana} ledger on this localnet, its fee payer's keypair written to
     * {@code keypairFile} and its other keys beside it ({@code registrar.json}, {@code authority-root.json},
     * {@code session-root.json}).
     */
    public Map<String, String> ledgerSettings(Path keypairFile) {
        Path folder = keypairFile.toAbsolutePath().getParent();
        Map<String, String> settings = new HashMap<>(Map.of("rpc_url", rpcUrl, "cluster", "localnet",
                "commitment", "confirmed", "poll_interval_ms", "20", "timeout_ms", "20000"));
        Map<String, Account> keys = Map.of("fee_payer", feePayer, "registrar", registrar, "authority_root", authorityRoot,
                "session_root", sessionRoot);
        try {
            Files.createDirectories(folder);
            for (Map.Entry<String, Account> key : keys.entrySet()) {
                Path file = key.getKey().equals("fee_payer") ? keypairFile
                        : folder.resolve(key.getKey().replace('_', '-') + ".json");
                Files.writeString(file, keypairJson(key.getValue()));
                settings.put(key.getKey() + "_keypair", file.toString());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Map.copyOf(settings);
    }

    /**
     * A {@code solana} ledger on this localnet, found as the server finds it, keeping its keys under
     * {@code data}, its journal in memory, and pushing {@code clock} to the chain before every call.
     */
    public ClockedLedger ledger(Clock clock, Path data) {
        return ledger(clock, data, new InMemoryLedgerJournal());
    }

    /** {@link #ledger(Clock, Path)} with {@code journal}, which ledgers share as server processes share the database. */
    public ClockedLedger ledger(Clock clock, Path data, LedgerJournal journal) {
        LedgerPort ledger = LedgerPlugins.find(SolanaLedgerFactory.NAME, getClass().getClassLoader())
                .create(new LedgerContext(clock, data, ledgerSettings(data.resolve("fee-payer.json")), journal));
        return new ClockedLedger(ledger, clock, this);
    }

    /**
     * Opens {@code owner}'s USDC token account (its associated token account, the localnet's faucet
     * pays), as a recipient must hold one before the Solana adapter pays it.
     */
    public void openUsdcAccount(String owner) {
        call("localnet_mintUsdc", "[\"" + owner + "\", \"0\"]");
    }

    /** Pins the chain's clock (the Clock sysvar) to {@code instant}, rounded down to the second. */
    public void setTime(Instant instant) {
        call("localnet_setTime", "[" + instant.getEpochSecond() + "]");
    }

    /** Sends one JSON-RPC request and answers its {@code result}; an error answer fails the test. */
    public JsonNode call(String method, String paramsJson) {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method + "\",\"params\":" + paramsJson + "}";
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(rpcUrl))
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                    HttpResponse.BodyHandlers.ofString());
            JsonNode answer = JSON.readTree(response.body());
            if (answer.has("error")) {
                throw new IllegalStateException(method + " failed: " + answer.get("error"));
            }
            return answer.get("result");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
