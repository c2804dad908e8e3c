package com.agentwallet.adapters.solana;

import com.agentwallet.core.ledger.LedgerOutcome;
import com.agentwallet.core.port.LedgerJournal;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The adapter's record of what it sent for each operation, in the service's {@link LedgerJournal}
 * that every server process shares, written before the transaction leaves: its one signed
 * transaction, and its final outcome once known. Resubmitting an operation, from any process, first
 * asks the cluster about that transaction, so an operation is never sent twice: a payment is never
 * made twice, across restarts and across processes.
 */
final class Submissions {
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

    private final LedgerJournal journal;

    Submissions(LedgerJournal journal) {
        this.journal = requireNonNull(journal, "journal is null");
    }

    /** The operation's signed transaction, if one was recorded: none, or one. */
    List<Attempt> attempts(String operationId) {
        return journal.attempt(operationId).map(Submissions::read).stream().toList();
    }

    Optional<LedgerOutcome> outcome(String operationId) {
        return journal.outcome(operationId);
    }

    /**
     * Records {@code attempt} as the operation's unless it has one; answers the operation's attempt,
     * the one to send and follow: {@code attempt}, or the one another process recorded first.
     */
    Attempt attempted(String operationId, Attempt attempt) {
        return read(journal.attempted(operationId, new LedgerJournal.Attempt(attempt.signature(), detail(attempt))));
    }

    /** Records the operation's final outcome unless it has one; answers the one recorded. */
    LedgerOutcome settled(String operationId, LedgerOutcome outcome) {
        return journal.settled(operationId, outcome);
    }

    private static String detail(Attempt attempt) {
        ObjectNode detail = JSON.createObjectNode().put("transaction", attempt.transaction())
                .put("last_valid_block_height", attempt.lastValidBlockHeight());
        attempt.programs().forEach(detail.putArray("programs")::add);
        attempt.nonceAccount().ifPresent(account -> detail.put("nonce_account", account));
        attempt.nonce().ifPresent(nonce -> detail.put("nonce", nonce));
        return detail.toString();
    }

    private static Attempt read(LedgerJournal.Attempt recorded) {
        try {
            JsonNode detail = JSON.readTree(recorded.detail());
            List<String> programs = new ArrayList<>();
            detail.get("programs").forEach(program -> programs.add(program.asText()));
            return new Attempt(recorded.signature(), detail.get("transaction").asText(), programs,
                    detail.get("last_valid_block_height").asLong(),
                    Optional.ofNullable(detail.get("nonce_account")).map(JsonNode::asText),
                    Optional.ofNullable(detail.get("nonce")).map(JsonNode::asText));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("the journaled Solana transaction " + recorded.signature() + " is unreadable", e);
        }
    }
}
