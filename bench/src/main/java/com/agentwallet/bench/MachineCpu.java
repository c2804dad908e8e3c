package com.agentwallet.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The machine's CPU time so far, in clock ticks of all its cores, from the first line of
 * {@code /proc/stat}: busy (everything but idle and waiting for the disk, stolen time included),
 * stolen (time the hypervisor gave to other guests while this one had work), and all of it; and the
 * context switches of all its cores since boot (its {@code ctxt} line). Zeros where there is no
 * {@code /proc/stat}.
 */
public record MachineCpu(long busy, long stolen, long total, long switches) {
    public static MachineCpu now() {
        try {
            return of(Files.readAllLines(Path.of("/proc/stat")));
        } catch (IOException e) {
            return new MachineCpu(0, 0, 0, 0);
        }
    }

    /** The figures of {@code /proc/stat}'s lines; zeros where they are not as expected. */
    static MachineCpu of(List<String> lines) {
        try {
            String[] fields = lines.get(0).trim().split("\\s+");
            long[] ticks = Arrays.stream(fields, 1, Math.min(fields.length, 9)).mapToLong(Long::parseLong).toArray();
            long total = Arrays.stream(ticks).sum();
            long idle = ticks[3] + (ticks.length > 4 ? ticks[4] : 0);
            long switches = lines.stream().filter(line -> line.startsWith("ctxt ")).findFirst()
                    .map(line -> Long.parseLong(line.substring(5).trim())).orElse(0L);
            return new MachineCpu(total - idle, ticks.length > 7 ? ticks[7] : 0, total, switches);
        } catch (RuntimeException e) {
            return new MachineCpu(0, 0, 0, 0);
        }
    }

    /** The context switches of the whole machine since {@code before}. */
    public long switchesSince(MachineCpu before) {
        return switches - before.switches;
    }

    /** The share of the machine's time since {@code before} that it was busy; NaN if none was counted. */
    public double busySince(MachineCpu before) {
        return share(busy - before.busy, before);
    }

    /** The share of the machine's time since {@code before} that the hypervisor took; NaN if none was counted. */
    public double stolenSince(MachineCpu before) {
        return share(stolen - before.stolen, before);
    }

    private double share(long ticks, MachineCpu before) {
        return total == before.total ? Double.NaN : (double) ticks / (total - before.total);
    }
}
