package dev.lomicontrol.files;

import java.util.List;
import java.util.Objects;

/**
 * One directory's visible entries sorted by name. {@code filtered} is true when anything (secret,
 * link, hard-linked file, special file, non-UTF-8 name) was hidden; {@code total} counts visible
 * entries.
 */
public record Listing(String directoryRevision, List<Entry> entries, boolean filtered, int total) {
    public Listing {
        Objects.requireNonNull(directoryRevision, "directoryRevision");
        entries = List.copyOf(entries);
    }
}
