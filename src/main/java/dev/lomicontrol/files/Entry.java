package dev.lomicontrol.files;

import java.util.Objects;

/** One visible entry of a directory listing; {@code byteLength} is 0 for directories. */
public record Entry(String name, String relativePath, EntryKind kind, long byteLength) {
    public Entry {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(relativePath, "relativePath");
        Objects.requireNonNull(kind, "kind");
    }
}
