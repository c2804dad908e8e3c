package com.agentwallet.adapters.http;

import com.agentwallet.adapters.http.error.PayloadTooLargeException;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BoundedBodyTest {

    @Test
    void aBodyOfExactlyTheLimitIsReadWhole() throws IOException {
        assertThat(bounded(100, 100).readAllBytes()).hasSize(100);
    }

    @Test
    void oneByteOverTheLimitIsRefusedWhileReading() {
        assertThatThrownBy(() -> bounded(101, 100).readAllBytes()).isInstanceOf(PayloadTooLargeException.class);
    }

    @Test
    void skippedAndSingleBytesCountToo() throws IOException {
        InputStream body = bounded(101, 100);

        assertThat(body.skip(100)).isEqualTo(100);
        assertThatThrownBy(body::read).isInstanceOf(PayloadTooLargeException.class);
    }

    @Test
    void itsAnswerIsA413PayloadTooLarge() {
        assertThat(new PayloadTooLargeException(100).toApiException().status()).isEqualTo(413);
        assertThat(new PayloadTooLargeException(100).toApiException().code()).isEqualTo("payload_too_large");
    }

    private static InputStream bounded(int length, long maxBytes) {
        return new BoundedBody(new ByteArrayInputStream(new byte[length]), maxBytes);
    }
}
