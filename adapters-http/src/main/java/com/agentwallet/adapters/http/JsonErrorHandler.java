package com.agentwallet.adapters.http;

import com.agentwallet.adapters.http.error.ApiException;
import com.agentwallet.adapters.http.error.ErrorResponses;
import com.agentwallet.core.id.IdGenerator;
import com.agentwallet.edge.error.ErrorDocs;
import com.agentwallet.edge.limit.RateLimits;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

import java.io.IOException;
import java.nio.ByteBuffer;

import static java.util.Objects.requireNonNull;

/**
 * The errors Jetty answers itself, before or outside the API (a malformed request line or header,
 * an ambiguous or undecodable path, a URI or headers over the size limit, a path outside /v1, a
 * method no servlet takes): the contract's JSON error body with a request id and the rate-limit
 * headers of the client's address, like every answer of the API, instead of Jetty's HTML page.
 * A 404 is {@code not_found}, a 405 {@code method_not_allowed}, a 413 {@code payload_too_large},
 * any other client error a 400 {@code validation_error} naming {@code path}, {@code headers} or
 * {@code request} (so is a 505: an HTTP version we do not speak is the client's mistake); a server
 * error is {@code internal_error}. The connection is closed after the answer, and the answer says
 * so: a request Jetty could not parse leaves the connection unusable, and a client that is not told
 * would send its next request on it and get no answer.
 */
public final class JsonErrorHandler extends ErrorHandler {
    private final ObjectMapper mapper;
    private final IdGenerator ids;
    private final RateLimits limits;
    private final ErrorDocs docs;

    /**
     * {@code mapper} writes the wire's JSON ({@link com.agentwallet.adapters.http.json.ApiJson});
     * {@code docs} makes each body's {@code docs} link.
     */
    public JsonErrorHandler(ObjectMapper mapper, IdGenerator ids, RateLimits limits, ErrorDocs docs) {
        this.mapper = requireNonNull(mapper, "mapper is null");
        this.ids = requireNonNull(ids, "ids is null");
        this.limits = requireNonNull(limits, "limits is null");
        this.docs = requireNonNull(docs, "docs is null");
        setCacheControl("no-store");
        setShowStacks(false);
    }

    /** Every method gets the body, not only GET, POST and HEAD (Jetty leaves HEAD's out on the wire). */
    @Override
    public boolean errorPageForMethod(String method) {
        return true;
    }

    @Override
    protected void generateResponse(Request request, Response response, int code, String message, Throwable cause,
                                    Callback callback) throws IOException {
        ApiException error = toApiException(code, cause == null || cause instanceof HttpException
                ? message : HttpStatus.getMessage(code));
        String requestId = Edge.newRequestId(ids);
        response.setStatus(error.status());
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        response.getHeaders().put(HttpHeader.CONNECTION, "close");
        response.getHeaders().put(Edge.REQUEST_ID, requestId);
        limits.takeForAddress(Request.getRemoteAddr(request)).headers()
                .forEach((name, value) -> response.getHeaders().put(name, value));
        byte[] body = mapper.writeValueAsBytes(ErrorResponses.body(error, docs).withRequestId(requestId));
        response.write(true, ByteBuffer.wrap(body), callback);
    }

    /** The contract's error for a status Jetty chose; {@code reason} is Jetty's words for it, never an exception's. */
    static ApiException toApiException(int status, String reason) {
        if (status == 404) {
            return ApiException.noSuchEndpoint();
        }
        if (status == 405) {
            return ApiException.of(405, "method_not_allowed", "This endpoint does not take the method");
        }
        if (status == 413) {
            return ApiException.of(413, "payload_too_large", "The request is larger than this API accepts");
        }
        if (status >= 500 && status != HttpStatus.HTTP_VERSION_NOT_SUPPORTED_505) {
            return ApiException.internalError(status);
        }
        String param = status == 414 ? "path" : status == 431 ? "headers" : "request";
        return ApiException.validation(param, "The request is malformed: " + (reason == null || reason.isBlank()
                ? HttpStatus.getMessage(status) : reason));
    }
}
