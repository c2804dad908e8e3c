package com.agentwallet.adapters.http;

import com.agentwallet.adapters.http.error.ApiException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The contract's error for each status Jetty answers itself. */
class JsonErrorHandlerTest {

    @Test
    void aPathOutsideTheApiIsNotFoundAndAnUnknownMethodNotAllowed() {
        assertThat(JsonErrorHandler.toApiException(404, "Not Found").code()).isEqualTo("not_found");
        ApiException method = JsonErrorHandler.toApiException(405, "Method Not Allowed");
        assertThat(method.status()).isEqualTo(405);
        assertThat(method.code()).isEqualTo("method_not_allowed");
    }

    @Test
    void aMalformedRequestIsAValidationErrorInJettysWords() {
        ApiException error = JsonErrorHandler.toApiException(400, "Ambiguous URI path separator");

        assertThat(error.status()).isEqualTo(400);
        assertThat(error.code()).isEqualTo("validation_error");
        assertThat(error.param()).contains("request");
        assertThat(error.getMessage()).contains("Ambiguous URI path separator");
    }

    @Test
    void anOverlongUriOrHeadersNameThePartAtFault() {
        assertThat(JsonErrorHandler.toApiException(414, "URI Too Long").param()).contains("path");
        assertThat(JsonErrorHandler.toApiException(431, "Request Header Fields Too Large").param()).contains("headers");
        assertThat(JsonErrorHandler.toApiException(431, null).status()).isEqualTo(400);
    }

    @Test
    void anHttpVersionWeDoNotSpeakIsTheClientsMistake() {
        ApiException error = JsonErrorHandler.toApiException(505, "HTTP Version Not Supported");

        assertThat(error.status()).isEqualTo(400);
        assertThat(error.code()).isEqualTo("validation_error");
    }

    @Test
    void aBodyTooLargeAndAServerErrorKeepTheirStatus() {
        assertThat(JsonErrorHandler.toApiException(413, null).code()).isEqualTo("payload_too_large");
        ApiException error = JsonErrorHandler.toApiException(500, "java.lang.IllegalStateException: boom");
        assertThat(error.status()).isEqualTo(500);
        assertThat(error.code()).isEqualTo("internal_error");
        assertThat(error.getMessage()).doesNotContain("Exception");
    }
}
