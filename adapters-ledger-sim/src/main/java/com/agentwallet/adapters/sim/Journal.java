package com.agentwallet.adapters.sim;

import com.agentwallet.core.ledger.LedgerInstruction;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The simulated chain's durable history: one JSON line per instruction that reached the chain,
 * written before its outcome is answered. Replaying the lines through the program rebuilds
 * the chain exactly, since execution is deterministic in (state, instruction, chain time).
 */
final class Journal implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper()
            .registerModule(new Jdk8Module())
            .registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /** One line: an instruction that reached the chain at {@code at} (the program may have refused it). */
    record Entry(Instant at, LedgerInstruction instruction) {
    }

    private final Optional<Path> file;
    private final Optional<BufferedWriter> writer;

    private Journal(Optional<Path> file, Optional<BufferedWriter> writer) {
        this.file = file;
        this.writer = writer;
    }

    /** A journal kept in memory only: the chain is forgotten with the process. */
    static Journal inMemory() {
        return new Journal(Optional.empty(), Optional.empty());
    }

    /** Opens (or creates) the journal file, to be {@link #replay}ed and then appended to. */
    static Journal open(Path file) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            BufferedWriter writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            return new Journal(Optional.of(file), Optional.of(writer));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the simulator journal " + file, e);
        }
    }

    /**
     * Hands {@code each} the lines the journal held when it was opened, oldest first, one at a time:
     * none is kept once handed on, so a long history costs no memory after the start.
     */
    void replay(Consumer<Entry> each) {
        if (file.isEmpty()) {
            return;
        }
        try (BufferedReader lines = Files.newBufferedReader(file.get(), StandardCharsets.UTF_8)) {
            long position = 0;
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                position++;
                if (!line.isBlank()) {
                    each.accept(read(line, position));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the simulator journal " + file.get(), e);
        }
    }

    /** An instruction with its text as the journal writes it, made before its time on the chain is known. */
    record Written(LedgerInstruction instruction, Optional<String> text) {
    }

    /** The instruction's text, if this journal writes lines: the costly part of a line, made by the caller's thread. */
    Written written(LedgerInstruction instruction) {
        if (writer.isEmpty()) {
            return new Written(instruction, Optional.empty());
        }
        try {
            return new Written(instruction, Optional.of(JSON.writeValueAsString(instruction)));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("cannot write the simulator journal", e);
        }
    }

    /** Appends the line of an instruction that reached the chain at {@code at}. */
    void append(Written written, Instant at) {
        if (writer.isEmpty()) {
            return;
        }
        try {
            ObjectNode line = JSON.createObjectNode();
            line.put("at", at.toString());
            line.put("kind", written.instruction().getClass().getSimpleName());
            line.putRawValue("instruction", new RawValue(written.text().orElseThrow()));
            writer.get().write(JSON.writeValueAsString(line));
            writer.get().newLine();
            writer.get().flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the simulator journal", e);
        }
    }

    /**
     * The entry on line {@code position}. An administrative write journaled before writes carried a
     * sequence gets its line's position: the journal's order is the order it reached the chain, and
     * the books' sequence starts far above any line count.
     */
    private static Entry read(String text, long position) throws IOException {
        JsonNode line = JSON.readTree(text);
        Class<? extends LedgerInstruction> kind = kindNamed(line.get("kind").asText());
        JsonNode instruction = line.get("instruction");
        boolean sequenced = kind == LedgerInstruction.WritePolicy.class || kind == LedgerInstruction.SetSessionKey.class
                || kind == LedgerInstruction.UpdateWallet.class;
        if (sequenced && !instruction.has("sequence")) {
            ((ObjectNode) instruction).put("sequence", position);
        }
        return new Entry(Instant.parse(line.get("at").asText()), JSON.treeToValue(instruction, kind));
    }

    private static Class<? extends LedgerInstruction> kindNamed(String simpleName) throws IOException {
        for (Class<?> kind : LedgerInstruction.class.getPermittedSubclasses()) {
            if (kind.getSimpleName().equals(simpleName)) {
                return kind.asSubclass(LedgerInstruction.class);
            }
        }
        throw new IOException("unknown instruction kind in the simulator journal: " + simpleName);
    }

    @Override
    public void close() {
        writer.ifPresent(w -> {
            try {
                w.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }
}
