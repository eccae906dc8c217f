package dev.lomicontrol.artifacts;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.Ids;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.files.EntryKind;
import dev.lomicontrol.files.FileSnapshot;
import dev.lomicontrol.files.Mutation;
import dev.lomicontrol.files.ProjectFiles;
import dev.lomicontrol.files.RelativePath;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * Private immutable copies of project files (SPEC §10 Artifacts). An import checks the caller's
 * expected length and SHA-256 against the bytes actually read, then stores them durably with their
 * metadata; only the owner ever sees an artifact (anyone else, or after 24 h, gets
 * TARGET_NOT_FOUND). Every read and export re-hashes the stored bytes, so tampering is
 * ARTIFACT_INVALID rather than a silent wrong answer. Artifacts survive restarts. Thread-safe.
 */
public final class ArtifactStore {

    /** How long an artifact lives after its import. */
    public static final Duration LIFETIME = Duration.ofHours(24);

    private final ArtifactDirectory directory;
    private final Clock clock;
    private final RandomGenerator random;
    private final long maxBytesPerFile;
    private final long quotaBytes;
    private final int maxArtifacts;
    private final Map<String, Artifact> artifacts = new LinkedHashMap<>();

    /**
     * Opens (creating it 0700 if needed) the store in {@code directory} and loads the artifacts kept
     * there. Typical limits: 4 MiB per file, a 1 GiB quota, 64 artifacts.
     */
    public ArtifactStore(
            Path directory,
            Clock clock,
            RandomGenerator random,
            long maxBytesPerFile,
            long quotaBytes,
            int maxArtifacts) {
        if (maxBytesPerFile < 0 || quotaBytes < 0 || maxArtifacts < 0) {
            throw new IllegalArgumentException("artifact limits must not be negative");
        }
        this.directory = new ArtifactDirectory(directory);
        this.clock = clock;
        this.random = random;
        this.maxBytesPerFile = maxBytesPerFile;
        this.quotaBytes = quotaBytes;
        this.maxArtifacts = maxArtifacts;
        for (Artifact artifact : this.directory.load()) {
            artifacts.put(artifact.id(), artifact);
        }
    }

    /**
     * Copies a project file into the store for {@code owner}. The file must have exactly
     * {@code expectedByteLength} bytes and {@code expectedSha256} (ARTIFACT_INVALID otherwise, nothing
     * stored); over the per-file limit is ARTIFACT_TOO_LARGE; over the quota or count (after purging
     * expired artifacts) is RESOURCE_EXHAUSTED.
     */
    public Artifact importFile(
            String owner,
            String projectKey,
            ProjectFiles files,
            RelativePath path,
            long expectedByteLength,
            String expectedSha256) {
        requireName(owner, "owner");
        requireName(projectKey, "projectKey");
        Ids.requireHex(expectedSha256, 64, "expectedSha256");
        if (expectedByteLength < 0) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "expectedByteLength must not be negative");
        }
        if (expectedByteLength > maxBytesPerFile) {
            throw tooLarge(expectedByteLength);
        }
        requireRoomAfterPurge(expectedByteLength);
        FileSnapshot source = readSource(files, path);
        byte[] bytes = source.bytes();
        if (bytes.length > maxBytesPerFile) {
            throw tooLarge(bytes.length);
        }
        if (bytes.length != expectedByteLength) {
            throw new LomiException(
                    ErrorCode.ARTIFACT_INVALID,
                    path + " has " + bytes.length + " bytes, not the expected " + expectedByteLength);
        }
        String sha256 = sha256(bytes);
        if (!sha256.equals(expectedSha256)) {
            throw new LomiException(
                    ErrorCode.ARTIFACT_INVALID,
                    path + " has SHA-256 " + sha256 + ", not the expected " + expectedSha256);
        }
        return store(owner, projectKey, path, source, sha256);
    }

    private synchronized Artifact store(
            String owner, String projectKey, RelativePath path, FileSnapshot source, String sha256) {
        requireRoomAfterPurge(source.bytes().length);
        Instant now = Instant.ofEpochMilli(clock.millis());
        Artifact artifact = new Artifact(
                newId(),
                owner,
                projectKey,
                path.toString(),
                sha256,
                source.bytes().length,
                now,
                now.plus(LIFETIME),
                source.diskRevision(),
                Artifact.OCTET_STREAM,
                "");
        directory.store(artifact, source.bytes());
        artifacts.put(artifact.id(), artifact);
        return artifact;
    }

    /**
     * Stores captured bytes (a browser screenshot or download) for {@code owner} in {@code projectKey}:
     * ARTIFACT_TOO_LARGE over the per-file limit, RESOURCE_EXHAUSTED over the quota or count. A
     * capture has no source file, so it never reports {@code sourceChanged}.
     */
    public synchronized Artifact capture(
            String owner, String projectKey, String mediaType, String source, byte[] bytes) {
        requireName(owner, "owner");
        requireName(projectKey, "projectKey");
        if (bytes.length > maxBytesPerFile) {
            throw tooLarge(bytes.length);
        }
        requireRoomAfterPurge(bytes.length);
        Instant now = Instant.ofEpochMilli(clock.millis());
        Artifact artifact = new Artifact(
                newId(),
                owner,
                projectKey,
                "",
                sha256(bytes),
                bytes.length,
                now,
                now.plus(LIFETIME),
                "",
                mediaType,
                source);
        directory.store(artifact, bytes);
        artifacts.put(artifact.id(), artifact);
        return artifact;
    }

    /** The artifact with its verified bytes, for its owner only (TARGET_NOT_FOUND otherwise); no source recheck. */
    public ArtifactRead bytesOf(String owner, String id) {
        Artifact artifact = visible(owner, id);
        return new ArtifactRead(artifact, verifiedBytes(artifact), false);
    }

    /**
     * The artifact with its verified bytes, for its owner only (anyone else, an unknown id or an
     * expired one: TARGET_NOT_FOUND). Stored bytes that no longer hash to the recorded SHA-256 are
     * ARTIFACT_INVALID. {@code sourceChanged} is true when the source file's revision differs from
     * the one imported or the source can no longer be read.
     */
    public ArtifactRead read(String owner, String id, ProjectFiles files) {
        Artifact artifact = visible(owner, id);
        byte[] bytes = verifiedBytes(artifact);
        return new ArtifactRead(artifact, bytes, sourceChanged(artifact, files));
    }

    /**
     * Writes the artifact's verified bytes to a new project file through {@code files.create}: never
     * overwrites (an existing name or a stale {@code expectedParentRevision} is REVISION_CONFLICT).
     * {@code expectedSha256} must name this artifact's content (ARTIFACT_INVALID otherwise).
     */
    public Mutation export(
            String owner,
            String id,
            String expectedSha256,
            ProjectFiles files,
            RelativePath target,
            String expectedParentRevision) {
        Artifact artifact = visible(owner, id);
        Ids.requireHex(expectedSha256, 64, "expectedSha256");
        if (!artifact.sha256().equals(expectedSha256)) {
            throw new LomiException(
                    ErrorCode.ARTIFACT_INVALID,
                    id + " has SHA-256 " + artifact.sha256() + ", not the expected " + expectedSha256);
        }
        return files.create(target, EntryKind.FILE, expectedParentRevision, verifiedBytes(artifact));
    }

    /** Deletes every expired artifact from disk and memory; returns how many. */
    public synchronized int purgeExpired() {
        Instant now = clock.instant();
        List<Artifact> expired = new ArrayList<>();
        for (Artifact artifact : artifacts.values()) {
            if (artifact.expiredAt(now)) {
                expired.add(artifact);
            }
        }
        for (Artifact artifact : expired) {
            directory.delete(artifact);
            artifacts.remove(artifact.id());
        }
        return expired.size();
    }

    /** The owner's live artifacts, oldest first. */
    public synchronized List<Artifact> list(String owner) {
        Instant now = clock.instant();
        return artifacts.values().stream()
                .filter(a -> a.owner().equals(owner) && !a.expiredAt(now))
                .toList();
    }

    /** Bytes held by live and not-yet-purged artifacts. */
    public synchronized long usedBytes() {
        return artifacts.values().stream().mapToLong(Artifact::byteLength).sum();
    }

    private synchronized Artifact visible(String owner, String id) {
        Artifact artifact = id == null ? null : artifacts.get(id);
        if (artifact == null || !artifact.owner().equals(owner)) {
            throw new LomiException(ErrorCode.TARGET_NOT_FOUND, "no artifact " + id);
        }
        if (artifact.expiredAt(clock.instant())) {
            throw new LomiException(
                    ErrorCode.TARGET_NOT_FOUND, "artifact " + id + " expired at " + artifact.expiresAt());
        }
        return artifact;
    }

    private byte[] verifiedBytes(Artifact artifact) {
        byte[] bytes = directory.bytes(artifact);
        if (bytes.length != artifact.byteLength() || !sha256(bytes).equals(artifact.sha256())) {
            throw new LomiException(
                    ErrorCode.ARTIFACT_INVALID,
                    "the stored bytes of " + artifact.id() + " no longer match their SHA-256");
        }
        return bytes;
    }

    private static boolean sourceChanged(Artifact artifact, ProjectFiles files) {
        if (artifact.captured()) {
            return false;
        }
        try {
            return !files.read(RelativePath.parse(artifact.relativePath()))
                    .diskRevision()
                    .equals(artifact.sourceDiskRevision());
        } catch (LomiException e) {
            if (e.code() == ErrorCode.STORAGE_UNAVAILABLE) {
                throw e;
            }
            return true;
        }
    }

    private FileSnapshot readSource(ProjectFiles files, RelativePath path) {
        try {
            return files.read(path);
        } catch (LomiException e) {
            if (e.code() == ErrorCode.RESOURCE_EXHAUSTED) {
                throw new LomiException(
                        ErrorCode.ARTIFACT_TOO_LARGE,
                        path + " is larger than an artifact may be (" + maxBytesPerFile + " bytes)",
                        e);
            }
            throw e;
        }
    }

    /** RESOURCE_EXHAUSTED unless one more artifact of {@code bytes} fits once expired artifacts are gone. */
    private synchronized void requireRoomAfterPurge(long bytes) {
        purgeExpired();
        if (artifacts.size() >= maxArtifacts) {
            throw new LomiException(
                    ErrorCode.RESOURCE_EXHAUSTED,
                    "the artifact store holds its maximum of " + maxArtifacts + " artifacts");
        }
        long used = usedBytes();
        if (used + bytes > quotaBytes) {
            throw new LomiException(
                    ErrorCode.RESOURCE_EXHAUSTED,
                    "the artifact quota of " + quotaBytes + " bytes is used (" + used + " in use)");
        }
    }

    private String newId() {
        String id;
        do {
            id = "art-" + Ids.randomHex(random, 8);
        } while (artifacts.containsKey(id));
        return id;
    }

    private LomiException tooLarge(long length) {
        return new LomiException(
                ErrorCode.ARTIFACT_TOO_LARGE, "an artifact holds at most " + maxBytesPerFile + " bytes, not " + length);
    }

    private static void requireName(String value, String what) {
        if (value == null || value.isEmpty() || value.length() > 256) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, what + " must be 1-256 characters");
        }
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
