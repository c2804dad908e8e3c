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

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The simulated chain's durable history: one JSON line per instruction that reached the chain,
 * written before its outcome is answered. Replaying the lines through the program rebuilds
 * the chain exactly, since execution is deterministic in (state, instruction, chain time).
 *
 * <p>Several server processes on one machine may share the file: a submission {@link #hold}s the
 * file's lock, {@link #catchUp reads} the lines the others appended since, and appends its own
 * before it lets go, so every process applies the same lines in the same order. A line a killed
 * process left half written never ends in a newline: no one reads it, and the next append
 * overwrites it.
 */
final class Journal implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper()
            .registerModule(new Jdk8Module())
            .registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    private static final int READ_BUFFER = 1 << 16;
    /**
     * One lock per file within this JVM, taken before the file's: a JVM may hold a file's lock only
     * once, and two simulators over one file in one JVM would otherwise fail rather than wait.
     */
    private static final Map<Path, ReentrantLock> IN_THIS_JVM = new ConcurrentHashMap<>();

    /** One line: an instruction that reached the chain at {@code at} (the program may have refused it). */
    record Entry(Instant at, LedgerInstruction instruction) {
    }

    private final Optional<Path> file;
    private final Optional<FileChannel> channel;
    /** Bytes of the whole lines read or written so far: where the next line starts. */
    private long consumed;
    /** Their number: an old line without a sequence gets its position as one. */
    private long lines;

    private Journal(Optional<Path> file, Optional<FileChannel> channel) {
        this.file = file;
        this.channel = channel;
    }

    /** A journal kept in memory only: the chain is forgotten with the process. */
    static Journal inMemory() {
        return new Journal(Optional.empty(), Optional.empty());
    }

    /** Opens (or creates) the journal file, to be {@link #catchUp caught up} with and then appended to. */
    static Journal open(Path file) {
        Path absolute = file.toAbsolutePath().normalize();
        try {
            Files.createDirectories(absolute.getParent());
            return new Journal(Optional.of(absolute), Optional.of(FileChannel.open(absolute, StandardOpenOption.CREATE,
                    StandardOpenOption.READ, StandardOpenOption.WRITE)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the simulator journal " + file, e);
        }
    }

    /** The file's lock, held until closed; the caller holds its simulator's monitor. */
    interface Hold extends AutoCloseable {
        @Override
        void close();
    }

    /** Takes the file's lock, waiting while another process (or simulator of this JVM) appends. */
    Hold hold() {
        if (channel.isEmpty()) {
            return () -> { };
        }
        ReentrantLock local = IN_THIS_JVM.computeIfAbsent(file.get(), path -> new ReentrantLock());
        local.lock();
        try {
            FileLock lock = channel.get().lock();
            return () -> {
                try {
                    lock.release();
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot release the simulator journal's lock", e);
                } finally {
                    local.unlock();
                }
            };
        } catch (IOException | RuntimeException e) {
            local.unlock();
            throw e instanceof IOException io ? new UncheckedIOException("cannot lock the simulator journal", io)
                    : (RuntimeException) e;
        }
    }

    /**
     * Hands {@code each} the whole lines written since the last call, by this process or another,
     * oldest first, one at a time: none is kept once handed on, so a long history costs no memory
     * after the start.
     */
    void catchUp(Consumer<Entry> each) {
        if (channel.isEmpty()) {
            return;
        }
        try {
            ByteBuffer buffer = ByteBuffer.allocate(READ_BUFFER);
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            long at = consumed;
            for (int read = channel.get().read(buffer, at); read > 0; read = channel.get().read(buffer.clear(), at)) {
                at += read;
                buffer.flip();
                while (buffer.hasRemaining()) {
                    byte next = buffer.get();
                    if (next != '\n') {
                        line.write(next);
                        continue;
                    }
                    String text = line.toString(StandardCharsets.UTF_8);
                    line.reset();
                    lines++;
                    if (!text.isBlank()) {
                        each.accept(read(text, lines));
                    }
                    consumed += text.getBytes(StandardCharsets.UTF_8).length + 1;
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
        if (channel.isEmpty()) {
            return new Written(instruction, Optional.empty());
        }
        try {
            return new Written(instruction, Optional.of(JSON.writeValueAsString(instruction)));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("cannot write the simulator journal", e);
        }
    }

    /**
     * Appends the line of an instruction that reached the chain at {@code at}; under {@link #hold},
     * once caught up, so that anything past the whole lines is a line left half written.
     */
    void append(Written written, Instant at) {
        if (channel.isEmpty()) {
            return;
        }
        try {
            ObjectNode line = JSON.createObjectNode();
            line.put("at", at.toString());
            line.put("kind", written.instruction().getClass().getSimpleName());
            line.putRawValue("instruction", new RawValue(written.text().orElseThrow()));
            ByteBuffer bytes = ByteBuffer.wrap((JSON.writeValueAsString(line) + "\n").getBytes(StandardCharsets.UTF_8));
            FileChannel file = channel.get();
            if (file.size() > consumed) {
                file.truncate(consumed);
            }
            long position = consumed;
            while (bytes.hasRemaining()) {
                position += file.write(bytes, position);
            }
            consumed = position;
            lines++;
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
        if (channel.isEmpty()) {
            return;
        }
        try {
            channel.get().close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
