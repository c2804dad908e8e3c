package com.agentwallet.adapters.http.resource;

import com.agentwallet.adapters.http.auth.Public;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * {@code GET /v1/openapi.json}: the OpenAPI 3.1 description of /v1, so that clients and tools can
 * read the API without a credential. The bytes are the resource file {@value #DOCUMENT} as written,
 * the one source of the description, which the end-to-end tests hold every answer of the server to.
 */
@Path("/" + OpenApiResource.PATH)
public final class OpenApiResource {
    /** The path under /v1, which authentication lets through without a credential. */
    public static final String PATH = "openapi.json";
    /** Where the document lies on the class path. */
    public static final String DOCUMENT = "/openapi.json";

    private final byte[] document;

    public OpenApiResource() {
        try (InputStream in = OpenApiResource.class.getResourceAsStream(DOCUMENT)) {
            if (in == null) {
                throw new IllegalStateException("the OpenAPI document " + DOCUMENT + " is not on the class path");
            }
            this.document = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @GET
    @Public
    @Produces(MediaType.APPLICATION_JSON)
    public byte[] document() {
        return document.clone();
    }
}
