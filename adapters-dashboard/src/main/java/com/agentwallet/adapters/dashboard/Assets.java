package com.agentwallet.adapters.dashboard;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Response;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The stylesheet and scripts, from the jar's {@code assets/}: nothing is fetched from elsewhere. */
@Path("assets")
public final class Assets {
    /** A plain file name: no folders, so no request can climb out of {@code assets/}. */
    private static final Pattern NAME = Pattern.compile("[a-z0-9-]+\\.(css|js)");
    private static final Map<String, String> TYPES = Map.of(
            "css", "text/css;charset=utf-8",
            "js", "text/javascript;charset=utf-8");

    @GET
    @Path("{name}")
    public Response asset(@PathParam("name") String name) {
        Matcher matcher = NAME.matcher(name);
        if (!matcher.matches()) {
            throw new NotFoundException();
        }
        try (InputStream in = Assets.class.getResourceAsStream("assets/" + name)) {
            if (in == null) {
                throw new NotFoundException();
            }
            return Response.ok(in.readAllBytes(), TYPES.get(matcher.group(1))).build();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
