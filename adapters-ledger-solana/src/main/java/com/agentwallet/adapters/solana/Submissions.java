package com.agentwallet.adapters.solana;

import com.agentwallet.core.ledger.LedgerOutcome;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The adapter's record of what it sent for each operation, written (and forced to disk) before
 * the transaction leaves: every signed attempt, and each operation's final outcome once known.
 * Resubmitting an operation first asks the cluster about its attempts, so an operation is sent
 * again only when none of them can land any more: a payment is never made twice, across restarts.
 */
final class Submissions implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One signed transaction of an operation. It can land while the cluster's block height is at
     * most {@code lastValidBlockHeight}, or, for a durable-nonce transaction, while
     * {@code nonceAccount} still holds {@code nonce}.
     */
    record Attempt(String signature, String transaction, List<String> programs, long lastValidBlockHeight,
                   Optional<String> nonceAccount, Optional<String> nonce) {
        Attempt {
            programs = List.copyOf(programs);
        }

        boolean usesNonce() {
            return nonceAccount.isPresent();
        }
    }

    private final Optional<FileChannel> file;
    private final Map<String, List<Attempt>> attempts = new HashMap<>();
    private final Map<String, LedgerOutcome> outcomes = new HashMap<>();

    private Submissions(Optional<FileChannel> file) {
        this.file = file;
    }

    static Submissions inMemory() {
        return new Submissions(Optional.empty());
    }

    static Submissions open(Path path) {
        try {
            Files.createDirectories(path.toAbsolutePath().getParent());
            Submissions submissions = new Submissions(Optional.of(FileChannel.open(path, StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE, StandardOpenOption.APPEND)));
            for (String line : Files.readAllLines(path, StandardCharsets.UTF_8)) {
                if (!line.isBlank()) {
                    submissions.replay(JSON.readTree(line));
                }
            }
            return submissions;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the Solana submissions journal " + path, e);
        }
    }

    synchronized List<Attempt> attempts(String operationId) {
        return List.copyOf(attempts.getOrDefault(operationId, List.of()));
    }

    synchronized Optional<LedgerOutcome> outcome(String operationId) {
        return Optional.ofNullable(outcomes.get(operationId));
    }

    synchronized void attempted(String operationId, Attempt attempt) {
        ObjectNode line = JSON.createObjectNode().put("op", operationId).put("signature", attempt.signature())
                .put("transaction", attempt.transaction()).put("last_valid_block_height", attempt.lastValidBlockHeight());
        attempt.programs().forEach(line.putArray("programs")::add);
        attempt.nonceAccount().ifPresent(account -> line.put("nonce_account", account));
        attempt.nonce().ifPresent(nonce -> line.put("nonce", nonce));
        write(line);
        attempts.computeIfAbsent(operationId, k -> new ArrayList<>()).add(attempt);
    }

    synchronized void settled(String operationId, LedgerOutcome outcome) {
        ObjectNode line = JSON.createObjectNode().put("op", operationId);
        if (outcome instanceof LedgerOutcome.Confirmed confirmed) {
            line.put("outcome", "confirmed").put("signature", confirmed.signature()).put("slot", confirmed.slot());
        } else if (outcome instanceof LedgerOutcome.Rejected rejected) {
            line.put("outcome", "rejected").put("code", rejected.code()).put("message", rejected.message());
        } else {
            throw new IllegalArgumentException("only a final outcome is recorded, not " + outcome);
        }
        write(line);
        outcomes.put(operationId, outcome);
    }

    private void replay(JsonNode line) {
        String op = line.get("op").asText();
        if (line.has("outcome")) {
            outcomes.put(op, "confirmed".equals(line.get("outcome").asText())
                    ? new LedgerOutcome.Confirmed(line.get("signature").asText(), line.get("slot").asLong())
                    : new LedgerOutcome.Rejected(line.get("code").asText(), line.get("message").asText()));
            return;
        }
        List<String> programs = new ArrayList<>();
        line.get("programs").forEach(program -> programs.add(program.asText()));
        attempts.computeIfAbsent(op, k -> new ArrayList<>()).add(new Attempt(line.get("signature").asText(),
                line.get("transaction").asText(), programs, line.get("last_valid_block_height").asLong(),
                Optional.ofNullable(line.get("nonce_account")).map(JsonNode::asText),
                Optional.ofNullable(line.get("nonce")).map(JsonNode::asText)));
    }

    private void write(ObjectNode line) {
        if (file.isEmpty()) {
            return;
        }
        try {
            ByteBuffer bytes = ByteBuffer.wrap((JSON.writeValueAsString(line) + "\n").getBytes(StandardCharsets.UTF_8));
            while (bytes.hasRemaining()) {
                file.get().write(bytes);
            }
            file.get().force(false);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the Solana submissions journal", e);
        }
    }

    @Override
    public synchronized void close() {
        if (file.isPresent()) {
            try {
                file.get().close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
