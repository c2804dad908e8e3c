package com.agentwallet.bench.service;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.DoubleSummaryStatistics;

import static org.assertj.core.api.Assertions.assertThat;

class DisturbancesTest {
    @Test
    void thePausesThatEndedInTheRun(@TempDir Path temp) throws Exception {
        Path gcLog = temp.resolve("server-gc.log");
        Files.writeString(gcLog, """
                [2026-11-23T00:51:10.000+0000] Using G1
                [2026-11-23T00:51:11.900+0000] GC(215) Pause Young (Normal) (G1 Evacuation Pause) 170M->120M(1024M) 9.000ms
                [2026-11-23T00:51:12.735+0000] GC(216) Pause Young (Normal) (G1 Evacuation Pause) 172M->126M(1024M) 21.581ms
                [2026-11-23T00:51:13.100+0000] GC(217) Pause Remark 130M->128M(1024M) 1.250ms
                [2026-11-23T00:51:13.500+0000] GC(217) Concurrent Mark Cycle 412.000ms
                [2026-11-23T00:51:14.100+0000] GC(218) Pause Young (Normal) (G1 Evacuation Pause) 180M->130M(1024M) 4.000ms
                """);
        DoubleSummaryStatistics pauses = Disturbances.pauses(gcLog, Instant.parse("2026-11-23T00:51:12Z"),
                Instant.parse("2026-11-23T00:51:14Z"));
        assertThat(pauses.getCount()).isEqualTo(2);
        assertThat(pauses.getMax()).isEqualTo(21.581);
        assertThat(pauses.getSum()).isEqualTo(22.831);
    }

    @Test
    void noLogNoPauses(@TempDir Path temp) {
        assertThat(Disturbances.pauses(temp.resolve("none.log"), Instant.EPOCH, Instant.now()).getCount()).isZero();
    }
}
