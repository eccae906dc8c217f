package dev.lomicontrol.artifacts;

import java.time.Instant;

/**
 * The metadata of one stored artifact: who owns it, which project file it copies (and that file's
 * disk revision at import), the SHA-256 and length of the stored bytes, and when it expires. A
 * capture (a browser screenshot or download) copies no project file: its {@code relativePath} and
 * {@code sourceDiskRevision} are empty and {@code source} says where the bytes came from.
 *
 * @param mediaType what the bytes are ({@code application/octet-stream} for imported files, {@code image/png} for screenshots)
 * @param source where a capture came from (an address); empty for imported files
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
        String sourceDiskRevision,
        String mediaType,
        String source) {

    public static final String OCTET_STREAM = "application/octet-stream";

    /** Whether the bytes were captured (a screenshot, a download) rather than copied from a project file. */
    public boolean captured() {
        return sourceDiskRevision.isEmpty();
    }

    /** Whether the artifact is past its expiry at {@code now} (expiry is inclusive). */
    public boolean expiredAt(Instant now) {
        return !now.isBefore(expiresAt);
    }
}
