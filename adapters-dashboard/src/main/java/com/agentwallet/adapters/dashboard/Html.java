package com.agentwallet.adapters.dashboard;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Markup safe to put in a page: written by this adapter, or text escaped by {@link #text}. Pages
 * are built only from these, so a value from a user or the database cannot become markup.
 */
public record Html(String markup) {
    public static final Html EMPTY = new Html("");

    public Html {
        requireNonNull(markup, "markup is null");
    }

    /** {@code text} escaped for an element's content or a quoted attribute value. */
    public static Html text(String text) {
        StringBuilder out = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return new Html(out.toString());
    }

    public static Html join(List<Html> parts) {
        StringBuilder out = new StringBuilder();
        parts.forEach(part -> out.append(part.markup));
        return new Html(out.toString());
    }
}
