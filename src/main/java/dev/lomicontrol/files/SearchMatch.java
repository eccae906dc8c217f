package dev.lomicontrol.files;

import java.util.Objects;

/** One match: file, the file's revision when scanned, 1-based line and UTF-16 column, length, and the line. */
public record SearchMatch(
        String relativePath, String diskRevision, int line, int columnUtf16, int lengthUtf16, String preview) {
    public SearchMatch {
        Objects.requireNonNull(relativePath, "relativePath");
        Objects.requireNonNull(diskRevision, "diskRevision");
        Objects.requireNonNull(preview, "preview");
    }
}
