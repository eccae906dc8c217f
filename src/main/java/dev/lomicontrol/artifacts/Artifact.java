package dev.lomicontrol.artifacts;

import java.time.Instant;

/**
 * The metadata of one stored artifact: who owns it, which project file it copies (and that file's
 * disk revision at import), the SHA-256 and length of the stored bytes, and when it expires.
 */
public record Artifact(
        String id,
        String owner,
        String projectKey,
        String relativePath,
        String sha256,
        long byteLength,
        Instant createdAt,
        Instant expiresAt,
        String sourceDiskRevision) {

    /** Whether the artifact is past its expiry at {@code now} (expiry is inclusive). */
    public boolean expiredAt(Instant now) {
        return !now.isBefore(expiresAt);
    }
}
