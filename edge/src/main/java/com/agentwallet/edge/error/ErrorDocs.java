package com.agentwallet.edge.error;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Where an error body's {@code docs} link points: {@code base} followed by the code. By default the
 * server's own page {@value #PATH} (a link relative to the server the client called, so it holds
 * behind any host name or proxy); a deployment that publishes the page elsewhere configures a base
 * of its own.
 */
public record ErrorDocs(String base) {
    /** The path of the page that documents every code of {@link ErrorCatalogue}. */
    public static final String PATH = "/docs/errors";
    /** Links to the server's own page, {@code /docs/errors#<code>}. */
    public static final ErrorDocs SERVED = new ErrorDocs(PATH + "#");

    /** {@code base} is an absolute http(s) URL or a path starting with {@code /}, such as {@code https://example.com/errors#}. */
    public ErrorDocs {
        requireNonNull(base, "base is null");
        URI uri;
        try {
            uri = new URI(base + "code");
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("the error docs base is not a URL: " + base, e);
        }
        boolean web = uri.isAbsolute() && ("https".equalsIgnoreCase(uri.getScheme())
                || "http".equalsIgnoreCase(uri.getScheme())) && uri.getHost() != null;
        if (!web && !(base.startsWith("/") && !base.startsWith("//"))) {
            throw new IllegalArgumentException("the error docs base must be an http(s) URL or a path starting with /: "
                    + base);
        }
    }

    /** The configured base, or the server's own page without one. */
    public static ErrorDocs of(Optional<String> configuredBase) {
        return configuredBase.filter(base -> !base.isBlank()).map(ErrorDocs::new).orElse(SERVED);
    }

    /** The link of {@code code}, which {@link ErrorCatalogue} must list. */
    public String link(String code) {
        return base + ErrorCatalogue.require(code);
    }
}
