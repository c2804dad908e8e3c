package com.agentwallet.adapters.http;

import com.agentwallet.edge.log.RequestLogContext;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;

import java.io.IOException;

/**
 * The server's outermost filter, on every path of the application's connectors: whatever a request
 * put in the logging context ({@link RequestLogContext}) is gone once it has been answered, thrown
 * or not, so that the next request on the same pooled thread logs under no id but its own.
 */
public final class RequestLogScope implements Filter {
    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        try {
            chain.doFilter(request, response);
        } finally {
            RequestLogContext.leave();
        }
    }
}
