package dev.lomicontrol.mcp;

import static dev.lomicontrol.mcp.FileTools.relativePath;
import static dev.lomicontrol.mcp.Schemas.bool;
import static dev.lomicontrol.mcp.Schemas.constant;
import static dev.lomicontrol.mcp.Schemas.decimal;
import static dev.lomicontrol.mcp.Schemas.hex64;
import static dev.lomicontrol.mcp.Schemas.nullable;
import static dev.lomicontrol.mcp.Schemas.object;
import static dev.lomicontrol.mcp.Schemas.oneOfStrings;
import static dev.lomicontrol.mcp.Schemas.string;
import static dev.lomicontrol.mcp.Schemas.token;

import java.util.List;
import tools.jackson.databind.node.ObjectNode;

/**
 * Artifact tools (SPEC §9, §10 Artifacts; reference fields of research/lomi.md §1j): an artifact is
 * a private, immutable copy of a project file's bytes, named by {@code artifactId} and its SHA-256,
 * that expires after 24 h. Import copies in, export writes a new project file; both name the exact
 * bytes they expect.
 */
final class ArtifactTools {

    static final String IMPORT = "lomi_artifact_import";
    static final String READ = "lomi_artifact_read";
    static final String EXPORT = "lomi_artifact_export";

    /** {@code art-} and 16 lower hex. */
    static final String ARTIFACT_ID_PATTERN = "^art-[0-9a-f]{16}$";

    private ArtifactTools() {}

    static List<ToolDefinition> all() {
        return List.of(importFile(), read(), export());
    }

    static ObjectNode artifactId(String description) {
        return string(20, 20, ARTIFACT_ID_PATTERN, description);
    }

    private static ToolDefinition importFile() {
        ObjectNode input = object().property("workspaceId", token("its workspace"))
                .property("relativePath", relativePath("the file to copy, relative to the project root"))
                .property("kind", oneOfStrings("what the bytes are: file (0 B to 4 MiB)", "file"))
                .property("expectedByteLength", decimal("the file's size in bytes, as a decimal string"))
                .property("expectedSha256", hex64("SHA-256 of the file's bytes (its diskRevision)"))
                .require("workspaceId", "relativePath", "kind", "expectedByteLength", "expectedSha256").expectedRevision().durable().closed()
                .build();
        return ToolDefinition.broker(IMPORT, "Import a file as an artifact",
                "Makes a private, immutable copy of a project file whose bytes have exactly expectedByteLength and expectedSha256 (else "
                        + "REVISION_CONFLICT); it expires after 24 h. Returns an operation; its result is {kind:\"artifact_imported\", "
                        + "artifactId, sha256, byteLength, expiresAt}.",
                Effect.OP, "artifact.import", input, OperationTools.operation());
    }

    private static ToolDefinition read() {
        ObjectNode input = object().property("workspaceId", token("its workspace")).property("artifactId", artifactId("the artifact"))
                .require("workspaceId", "artifactId").closed().build();
        ObjectNode data = object().property("kind", constant("artifact")).property("artifactId", artifactId("the artifact"))
                .property("sha256", hex64("SHA-256 of its bytes")).property("byteLength", decimal("its size in bytes"))
                .property("sourceRelativePath", string("the project file it was copied from"))
                .property("createdAt", string("when it was imported (ISO-8601)")).property("expiresAt", string("when it expires (ISO-8601)"))
                .property("sourceChanged", bool("whether the source file no longer has these bytes (rechecked now)"))
                .property("contentBase64", nullable(string("the bytes, base64, when at most 64 KiB; null otherwise")))
                .require("kind", "artifactId", "sha256", "byteLength", "sourceRelativePath", "createdAt", "expiresAt", "sourceChanged",
                        "contentBase64")
                .build();
        return ToolDefinition.broker(READ, "Read an artifact",
                "Reads an artifact's metadata (sha256, byteLength, source, createdAt, expiresAt, whether the source changed since) and, up "
                        + "to 64 KiB, its bytes as base64. An expired or unknown artifact is TARGET_NOT_FOUND.",
                Effect.RO, "artifact.import", input, data);
    }

    private static ToolDefinition export() {
        ObjectNode input = object().property("workspaceId", token("its workspace")).property("artifactId", artifactId("the artifact"))
                .property("expectedSha256", hex64("the artifact's sha256"))
                .property("relativePath", relativePath("the new file, relative to the project root; must not exist"))
                .property("expectedParentRevision", hex64("the directoryRevision (lomi_files_list) of the new file's directory"))
                .require("workspaceId", "artifactId", "expectedSha256", "relativePath", "expectedParentRevision").expectedRevision().durable()
                .closed().build();
        return ToolDefinition.broker(EXPORT, "Export an artifact to a file",
                "Writes the artifact's bytes to a new project file, atomically and never over an existing one (REVISION_CONFLICT). Returns "
                        + "an operation; its result is {kind:\"artifact_exported\", artifactId, relativePath, diskRevision, parentRevision}.",
                Effect.OP, "artifact.export", input, OperationTools.operation());
    }
}
