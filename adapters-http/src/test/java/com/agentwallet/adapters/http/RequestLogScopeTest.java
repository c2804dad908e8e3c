package com.agentwallet.adapters.http;

import com.agentwallet.edge.log.RequestLogContext;
import jakarta.servlet.FilterChain;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A request's id is in the logging context while it is served, and gone after, on the same thread. */
class RequestLogScopeTest {
    private final RequestLogScope scope = new RequestLogScope();
    private final List<String> seen = new ArrayList<>();

    @AfterEach
    void noIdLeftForTheNextTest() {
        MDC.remove(RequestLogContext.REQUEST_ID);
    }

    @Test
    void theIdOfARequestIsGoneOnceItIsAnswered() throws Exception {
        scope.doFilter(null, null, serving("req_first"));

        assertThat(seen).containsExactly("req_first");
        assertThat(MDC.get(RequestLogContext.REQUEST_ID)).as("after the request").isNull();
    }

    @Test
    void theNextRequestOnThePooledThreadLogsUnderNoIdButItsOwn() throws Exception {
        scope.doFilter(null, null, serving("req_first"));
        scope.doFilter(null, null, (request, response) -> seen.add(MDC.get(RequestLogContext.REQUEST_ID)));

        assertThat(seen).containsExactly("req_first", null);
    }

    @Test
    void theIdIsGoneAfterARequestThatThrew() {
        FilterChain failing = (request, response) -> {
            serving("req_failed").doFilter(request, response);
            throw new IOException("the client went away");
        };

        assertThatThrownBy(() -> scope.doFilter(null, null, failing)).isInstanceOf(IOException.class);
        assertThat(seen).containsExactly("req_failed");
        assertThat(MDC.get(RequestLogContext.REQUEST_ID)).as("after the failed request").isNull();
    }

    /** A request that is given {@code requestId}, as Edge gives one, and notes the id a line logged now carries. */
    private FilterChain serving(String requestId) {
        return (request, response) -> {
            RequestLogContext.enter(requestId);
            seen.add(MDC.get(RequestLogContext.REQUEST_ID));
        };
    }
}
