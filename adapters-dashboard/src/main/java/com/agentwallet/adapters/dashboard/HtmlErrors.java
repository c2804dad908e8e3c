package com.agentwallet.adapters.dashboard;

import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;

import java.util.Optional;

/** Errors inside the dashboard are pages, not the API's JSON: an unknown path, a wrong method. */
final class HtmlErrors implements ExceptionMapper<WebApplicationException> {
    @Override
    public Response toResponse(WebApplicationException exception) {
        Response original = exception.getResponse();
        Html page = Pages.error(Optional.empty(), original.getStatus(), original.getStatusInfo().getReasonPhrase());
        return Response.fromResponse(original).entity(page.markup())
                .type(MediaType.TEXT_HTML + ";charset=utf-8").build();
    }
}
