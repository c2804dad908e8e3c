package com.agentwallet.bench;

import com.agentwallet.core.crypto.Base58;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class BenchmarkSupportTest {
    @Test
    void aRatioHasTwoDecimalsAndNeedsBothRates() {
        assertThat(BenchmarkSupport.ratio(Optional.of(1214.7), Optional.of(1629.9))).isEqualTo("0.75");
        assertThat(BenchmarkSupport.ratio(Optional.of(1604.4), Optional.of(296.2))).isEqualTo("5.42");
        assertThat(BenchmarkSupport.ratio(Optional.of(1.0), Optional.empty())).isEqualTo("-");
        assertThat(BenchmarkSupport.ratio(Optional.empty(), Optional.of(1.0))).isEqualTo("-");
    }

    @Test
    void aRateHasOneDecimal() {
        assertThat(BenchmarkSupport.rate(Optional.of(1708.5123))).isEqualTo("1708.5");
        assertThat(BenchmarkSupport.rate(Optional.empty())).isEqualTo("-");
    }

    @Test
    void anExternalAddressIsThirtyTwoBytesOfBase58ByName() {
        String payee = BenchmarkSupport.externalAddress("payee");
        assertThat(Base58.decode(payee, 32)).isPresent();
        assertThat(BenchmarkSupport.externalAddress("payee")).isEqualTo(payee);
        assertThat(BenchmarkSupport.externalAddress("other")).isNotEqualTo(payee);
    }
}
