package com.agentwallet.bench;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class MachineCpuTest {
    @Test
    void readsBusyStolenAndAllTicksAndTheContextSwitches() {
        // user nice system idle iowait irq softirq steal
        MachineCpu cpu = MachineCpu.of(List.of("cpu  100 10 50 800 40 0 5 20 0 0", "cpu0 1 2 3 4 5 6 7 8",
                "intr 12345", "ctxt 987654", "btime 1"));
        assertThat(cpu).isEqualTo(new MachineCpu(185, 20, 1025, 987654));
    }

    @Test
    void sharesAreOfTheTicksBetweenTwoReadings() {
        MachineCpu before = new MachineCpu(100, 10, 1000, 5000);
        MachineCpu after = new MachineCpu(250, 30, 1200, 6500);
        assertThat(after.busySince(before)).isCloseTo(0.75, within(1e-12));
        assertThat(after.stolenSince(before)).isCloseTo(0.10, within(1e-12));
        assertThat(after.switchesSince(before)).isEqualTo(1500);
        assertThat(before.busySince(before)).isNaN();
    }

    @Test
    void linesNotAsExpectedReadAsZeros() {
        assertThat(MachineCpu.of(List.of("cpu  x y"))).isEqualTo(new MachineCpu(0, 0, 0, 0));
        assertThat(MachineCpu.of(List.of())).isEqualTo(new MachineCpu(0, 0, 0, 0));
    }
}
