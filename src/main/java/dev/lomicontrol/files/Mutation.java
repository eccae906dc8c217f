package dev.lomicontrol.files;

import java.util.Objects;
import java.util.Optional;

/**
 * Result of a mutation: the revisions the agent needs for its next call. {@code diskRevision} is
 * present for files, {@code directoryRevision} for directories; {@code parentRevision} is the
 * revision of the directory that now holds the entry.
 */
public record Mutation(
        String relativePath,
        EntryKind kind,
        Optional<String> diskRevision,
        String parentRevision,
        Optional<String> directoryRevision) {
    public Mutation {
        Objects.requireNonNull(relativePath, "relativePath");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(diskRevision, "diskRevision");
        Objects.requireNonNull(parentRevision, "parentRevision");
        Objects.requireNonNull(directoryRevision, "directoryRevision");
    }
}
