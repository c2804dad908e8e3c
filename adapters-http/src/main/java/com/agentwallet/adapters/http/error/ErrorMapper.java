package com.agentwallet.adapters.http.error;

import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.port.LedgerUnavailableException;
import com.agentwallet.core.port.StorageUnavailableException;
import com.agentwallet.edge.error.ErrorDocs;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import jakarta.ws.rs.NotAllowedException;
import jakarta.ws.rs.NotSupportedException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * The one exception mapper: every failure leaves as the contract's error body. Input errors are
 * 400 naming the field; a database connection that broke or a ledger that did not confirm is 503
 * {@code service_unavailable}, to be retried, and logged as one line; anything unexpected is logged
 * here with its stack trace and answered 500 {@code internal_error} without one.
 */
public final class ErrorMapper implements ExceptionMapper<Throwable> {
    private static final Logger LOG = LoggerFactory.getLogger(ErrorMapper.class);

    private final ErrorDocs docs;

    /** {@code docs} makes each error body's {@code docs} link. */
    public ErrorMapper(ErrorDocs docs) {
        this.docs = requireNonNull(docs, "docs is null");
    }

    @Override
    public Response toResponse(Throwable failure) {
        return ErrorResponses.response(toApiException(failure), docs);
    }

    static ApiException toApiException(Throwable failure) {
        if (failure instanceof ApiException api) {
            return api;
        }
        if (failure instanceof PayloadTooLargeException tooLarge) {
            return tooLarge.toApiException();
        }
        if (failure instanceof ValidationException invalid) {
            return ApiException.validation(invalid.param(), invalid.getMessage());
        }
        if (failure instanceof UnrecognizedPropertyException unknown) {
            String field = path(unknown);
            return ApiException.validation(field, "Unknown field '" + field + "'; allowed here: "
                    + unknown.getKnownPropertyIds().stream().map(String::valueOf).sorted()
                    .collect(Collectors.joining(", ")));
        }
        if (failure instanceof JsonMappingException mapping && !mapping.getPath().isEmpty()) {
            String field = path(mapping);
            return ApiException.validation(field, "The field '" + field + "' has the wrong type or value: "
                    + mapping.getOriginalMessage().lines().findFirst().orElse(""));
        }
        if (failure instanceof JsonProcessingException json) {
            return ApiException.validation("body", "The request body is not valid: " + json.getOriginalMessage());
        }
        if (failure instanceof WebApplicationException web) {
            return fromStatus(web);
        }
        if (failure instanceof StorageUnavailableException || failure instanceof LedgerUnavailableException) {
            LOG.warn("Answered 503 service_unavailable: {}", failure.getMessage());
            return ApiException.unavailable(failure instanceof StorageUnavailableException
                    ? "The database could not complete the request (its connection broke, or it rolled the work"
                    + " back for a reason of the moment); nothing is half-done. Retry it: a"
                    + " payment with the same idempotency_key is booked at most once"
                    : "The ledger did not confirm; nothing was changed. Retry the request");
        }
        LOG.error("Unexpected failure", failure);
        return ApiException.internalError(500);
    }

    private static ApiException fromStatus(WebApplicationException web) {
        int status = web.getResponse().getStatus();
        if (status == 404) {
            return ApiException.noSuchEndpoint();
        }
        if (web instanceof NotAllowedException) {
            return ApiException.of(405, "method_not_allowed", "This endpoint does not take the method; allowed: "
                    + web.getResponse().getAllowedMethods());
        }
        if (web instanceof NotSupportedException) {
            return ApiException.validation("body", "Request bodies must be JSON (Content-Type: application/json)");
        }
        if (status >= 500) {
            LOG.error("Server error", web);
            return ApiException.internalError(500);
        }
        return ApiException.validation("request", Response.Status.fromStatusCode(status) == null
                ? "The request could not be processed" : Response.Status.fromStatusCode(status).getReasonPhrase());
    }

    private static String path(JsonMappingException mapping) {
        StringBuilder path = new StringBuilder();
        for (JsonMappingException.Reference reference : mapping.getPath()) {
            if (reference.getFieldName() != null) {
                path.append(path.length() == 0 ? "" : ".").append(reference.getFieldName());
            } else if (reference.getIndex() >= 0) {
                path.append('[').append(reference.getIndex()).append(']');
            }
        }
        return path.length() == 0 ? "body" : path.toString();
    }
}
