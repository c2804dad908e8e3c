package com.agentwallet.adapters.http.webhook;

import com.agentwallet.core.common.ValidationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ResolvingReceiverGuardTest {
    private final ResolvingReceiverGuard guard = new ResolvingReceiverGuard(false);

    @ParameterizedTest(name = "{0} is not public")
    @ValueSource(strings = {
            "0.0.0.0", "0.1.2.3", "10.0.0.1", "10.255.255.255", "100.64.0.1", "100.127.255.254", "127.0.0.1",
            "127.1.2.3", "169.254.169.254", "172.16.0.1", "172.31.255.255", "192.0.0.8", "192.0.2.1",
            "192.88.99.1", "192.168.1.1", "198.18.0.1", "198.19.255.255", "198.51.100.7", "203.0.113.9",
            "224.0.0.1", "239.255.255.250", "240.0.0.1", "255.255.255.255",
            "::", "::1", "::ffff:127.0.0.1", "::ffff:10.1.2.3", "::127.0.0.1", "64:ff9b::7f00:1",
            "64:ff9b::a9fe:a9fe", "2002:7f00:1::", "2002:c0a8:101::1", "2001::1", "2001:0:4136:e378::1",
            "2001:db8::1", "100::1", "fc00::1", "fd12:3456::1", "fe80::1", "febf::1", "fec0::1", "ff02::1"})
    void refuses(String address) throws UnknownHostException {
        assertThat(ResolvingReceiverGuard.isPrivate(InetAddress.getByName(address))).isTrue();
    }

    @ParameterizedTest(name = "{0} is public")
    @ValueSource(strings = {
            "1.1.1.1", "8.8.8.8", "9.255.255.255", "11.0.0.1", "100.63.255.255", "100.128.0.1", "126.255.255.255",
            "128.0.0.1", "169.253.255.255", "172.15.255.255", "172.32.0.1", "192.0.1.1", "192.167.255.255",
            "192.169.0.1", "198.17.255.255", "198.20.0.1", "223.255.255.255",
            "2606:4700:4700::1111", "2a00:1450:4001::200e", "64:ff9b::808:808", "2002:808:808::1", "::ffff:8.8.8.8"})
    void permits(String address) throws UnknownHostException {
        assertThat(ResolvingReceiverGuard.isPrivate(InetAddress.getByName(address))).isFalse();
    }

    @Test
    void aHostThatNamesAPrivateAddressIsRefusedWithTheField() {
        assertThatThrownBy(() -> guard.requirePermitted(URI.create("https://[::ffff:169.254.169.254]/hook")))
                .isInstanceOfSatisfying(ValidationException.class, refused -> {
                    assertThat(refused.param()).isEqualTo("url");
                    assertThat(refused.getMessage()).contains("169.254.169.254");
                });
        assertThatThrownBy(() -> guard.requirePermitted(URI.create("https://localhost/hook")))
                .isInstanceOf(ValidationException.class);
    }

    @Test
    void theDevelopmentSwitchLetsLocalReceiversThrough() {
        assertThatCode(() -> new ResolvingReceiverGuard(true).requirePermitted(URI.create("https://127.0.0.1/hook")))
                .doesNotThrowAnyException();
        assertThatCode(() -> guard.requirePermitted(URI.create("https://8.8.8.8/hook"))).doesNotThrowAnyException();
    }
}
