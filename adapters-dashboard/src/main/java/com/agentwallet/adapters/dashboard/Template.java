package com.agentwallet.adapters.dashboard;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * An HTML file from the jar's {@code templates/} with {@code {{name}}} slots. A slot takes a
 * {@link String}, which is escaped, or {@link Html}; a slot without a value is an error, so a
 * renamed slot cannot silently render empty.
 */
final class Template {
    private static final Pattern SLOT = Pattern.compile("\\{\\{([A-Za-z]+)}}");

    private final String name;
    private final String source;

    private Template(String name, String source) {
        this.name = name;
        this.source = source;
    }

    static Template load(String name) {
        try (InputStream in = Template.class.getResourceAsStream("templates/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no template " + name);
            }
            return new Template(name, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Html render(Map<String, ?> values) {
        Matcher slot = SLOT.matcher(source);
        StringBuilder out = new StringBuilder(source.length() + 256);
        while (slot.find()) {
            Object value = values.get(slot.group(1));
            requireNonNull(value, () -> "template " + name + " has no value for {{" + slot.group(1) + "}}");
            Html html;
            if (value instanceof Html markup) {
                html = markup;
            } else if (value instanceof String text) {
                html = Html.text(text);
            } else {
                throw new IllegalArgumentException("{{" + slot.group(1) + "}} takes a String or Html, not "
                        + value.getClass().getSimpleName());
            }
            slot.appendReplacement(out, Matcher.quoteReplacement(html.markup()));
        }
        slot.appendTail(out);
        return new Html(out.toString());
    }
}
