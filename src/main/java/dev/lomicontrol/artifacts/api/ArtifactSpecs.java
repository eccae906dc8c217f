package dev.lomicontrol.artifacts.api;

import dev.lomicontrol.core.RequestKey;
import dev.lomicontrol.core.RetryEpochId;
import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.files.api.FileSpecs;
import dev.lomicontrol.tools.Decimal;
import dev.lomicontrol.tools.Default;
import dev.lomicontrol.tools.Doc;
import dev.lomicontrol.tools.Durable;
import dev.lomicontrol.tools.Hex64;
import dev.lomicontrol.tools.LayoutBased;
import dev.lomicontrol.tools.Len;
import dev.lomicontrol.tools.Matches;
import dev.lomicontrol.tools.Range;
import dev.lomicontrol.tools.Tag;
import dev.lomicontrol.tools.ToolSpec;
import dev.lomicontrol.tools.WireName;
import java.util.List;
import java.util.Optional;

/**
 * The artifact tools (SPEC §10 Artifacts; the reference's {@code artifact.rs}): private immutable
 * copies of project files with SHA-256, quotas and 24 h expiry; the source is rechecked on read, and
 * export never overwrites.
 */
public final class ArtifactSpecs {

    private ArtifactSpecs() {}

    /** An artifact id: {@code art-} and 16 hex digits. */
    public static final String ARTIFACT = "art-[0-9a-f]{16}";
    /** The largest integer a JSON number carries exactly (2^53 - 1). */
    public static final long MAX_SAFE = 9_007_199_254_740_991L;

    /** What is imported: a plain file (0..4 MiB), or an Android APK for lomi_android_install_apk (HOST_UNQUALIFIED where no adb is found). */
    public enum ImportKind {
        @WireName("android_apk")
        ANDROID_APK,
        @WireName("file")
        FILE
    }

    public record ImportInput(
            WorkspaceId workspaceId,

            @Len(min = 1, max = FileSpecs.MAX_PATH) @Matches(FileSpecs.PATH)
            String relativePath,

            @Default("\"file\"") ImportKind kind,

            @Range(min = 0, max = MAX_SAFE) long expectedByteLength,

            @Doc("its diskRevision") Hex64 expectedSha256,

            @Doc("the domainRevision") Decimal expectedRevision,

            RetryEpochId retryEpoch,

            RequestKey requestKey)
            implements Durable, LayoutBased {}

    @Tag("artifact_imported")
    public record Imported(
            @Doc("the new artifact's id (the reference's artifact.id)") @Matches(ARTIFACT)
            String artifactId,

            Hex64 sha256,
            @Doc("its size in bytes (a decimal string)") Decimal byteLength,
            @Doc("when it expires, ISO-8601 UTC (24 h)") String expiresAt) {}

    public record ReadInput(
            WorkspaceId workspaceId, @Matches(ARTIFACT) String artifactId) {}

    @Tag("artifact")
    public record Read(
            @Doc("the reference's artifact.id") @Matches(ARTIFACT)
            String artifactId,

            @Doc(
                    "application/octet-stream for an imported file; image/png for a browser screenshot (then also an MCP image block); a download's own type")
            String mediaType,

            Hex64 sha256,
            @Doc("its size in bytes (a decimal string)") Decimal byteLength,
            @Doc("the project file it was copied from") String sourceRelativePath,
            @Doc("ISO-8601 UTC") String createdAt,
            @Doc("ISO-8601 UTC") String expiresAt,

            @Doc("whether the source file changed (or became unreadable) since the import")
            boolean sourceChanged,

            @Doc("the bytes in base64 when at most 64 KiB, else null")
            Optional<String> contentBase64) {}

    public record ExportInput(
            WorkspaceId workspaceId,
            @Matches(ARTIFACT) String artifactId,
            Hex64 expectedSha256,

            @Doc("a new file (never overwritten)") @Len(min = 1, max = FileSpecs.MAX_PATH) @Matches(FileSpecs.PATH)
            String relativePath,

            @Doc("directoryRevision of its parent") Hex64 expectedParentRevision,

            @Doc("the domainRevision") Decimal expectedRevision,

            RetryEpochId retryEpoch,

            RequestKey requestKey)
            implements Durable, LayoutBased {}

    @Tag("artifact_exported")
    public record Exported(
            @Matches(ARTIFACT) String artifactId,
            @Doc("the file written") String relativePath,
            @Doc("its diskRevision") Hex64 diskRevision,

            @Doc("the directoryRevision of its parent afterwards")
            Hex64 parentRevision) {}

    public static final ToolSpec<ImportInput> IMPORT = ToolSpec.operation(
            "lomi_artifact_import",
            "Import an artifact",
            "artifact.import",
            "--I-",
            ImportInput.class,
            Imported.class,
            "Makes a private, immutable copy of a project file (up to 4 MiB; expires after 24 h).");

    public static final ToolSpec<ReadInput> READ = ToolSpec.read(
            "lomi_artifact_read",
            "Read an artifact",
            "artifact.import",
            "R-I-",
            ReadInput.class,
            Read.class,
            "An artifact's metadata and, up to 64 KiB, its bytes in base64.");

    public static final ToolSpec<ExportInput> EXPORT = ToolSpec.operation(
            "lomi_artifact_export",
            "Export an artifact",
            "artifact.export",
            "--IO",
            ExportInput.class,
            Exported.class,
            "Writes an artifact to a new project file; never overwrites.");

    public static final List<ToolSpec<?>> ALL = List.of(IMPORT, READ, EXPORT);
}
