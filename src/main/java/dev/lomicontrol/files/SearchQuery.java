package dev.lomicontrol.files;

import java.util.List;
import java.util.Objects;

/**
 * What to search for: literal or regex text, case sensitivity, whole-word matching, and glob
 * filters on the relative path ({@code include} empty = everything; {@code exclude} wins).
 */
public record SearchQuery(
        String text,
        boolean regex,
        boolean caseSensitive,
        boolean wholeWord,
        List<String> include,
        List<String> exclude) {
    public SearchQuery {
        Objects.requireNonNull(text, "text");
        include = List.copyOf(include);
        exclude = List.copyOf(exclude);
    }

    /** A case-sensitive literal search with no filters. */
    public static SearchQuery literal(String text) {
        return new SearchQuery(text, false, true, false, List.of(), List.of());
    }
}
