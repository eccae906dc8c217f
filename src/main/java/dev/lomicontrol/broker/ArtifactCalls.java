package dev.lomicontrol.broker;

import dev.lomicontrol.artifacts.Artifact;
import dev.lomicontrol.artifacts.ArtifactRead;
import dev.lomicontrol.artifacts.ArtifactStore;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.files.Mutation;
import dev.lomicontrol.files.RelativePath;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Layout;
import java.util.Base64;
import java.util.Optional;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Artifact tools (SPEC §10 "Artifacts"): private immutable copies of project files with SHA-256,
 * quotas and 24 h expiry; the source is rechecked on read, and export never overwrites.
 */
final class ArtifactCalls {

    static final int INLINE_BYTES = 64 * 1024;
    private static final Pattern DECIMAL = Pattern.compile("0|[1-9][0-9]{0,17}");
    private static final Pattern ARTIFACT = Pattern.compile("art-[0-9a-f]{16}");
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final ArtifactStore store;
    private final FileCalls files;
    private final OperationRunner runner;
    private final Layout layout;

    ArtifactCalls(ArtifactStore store, FileCalls files, OperationRunner runner, Layout layout) {
        this.store = store;
        this.files = files;
        this.runner = runner;
        this.layout = layout;
    }

    ObjectNode importFile(Session session, JsonNode arguments) {
        Arguments args = Arguments.of(arguments, LayoutCalls.with("workspaceId", "relativePath", "kind", "expectedByteLength", "expectedSha256",
                "expectedRevision"));
        FileCalls.Resolved target = files.resolve(session, args);
        RelativePath path = RelativePath.parse(args.requiredString("relativePath"));
        args.choice("kind", Optional.of("file"), "file");
        String lengthText = args.requiredString("expectedByteLength");
        if (!DECIMAL.matcher(lengthText).matches()) {
            throw Arguments.invalid("expectedByteLength is a decimal byte count");
        }
        long length = Long.parseLong(lengthText);
        String sha = FileCalls.sha256(args.requiredString("expectedSha256"));
        long expected = Revisions.expected(args);
        String owner = session.id().value();
        return runner.immediate(LayoutCalls.request(session, "lomi_artifact_import", arguments, args, target.listed(), path.toString(), expected),
                () -> Revisions.require(expected, layout.revision()), operation -> {
                    Artifact artifact = store.importFile(owner, target.listed().project().id().value(), target.files(), path, length, sha);
                    ObjectNode result = JSON.objectNode();
                    result.put("kind", "artifact_imported");
                    result.put("artifactId", artifact.id());
                    result.put("sha256", artifact.sha256());
                    result.put("byteLength", Long.toString(artifact.byteLength()));
                    result.put("expiresAt", artifact.expiresAt().toString());
                    return result;
                });
    }

    ObjectNode read(Session session, JsonNode arguments) {
        Arguments args = Arguments.of(arguments, "workspaceId", "artifactId");
        FileCalls.Resolved target = files.resolve(session, args);
        ArtifactRead read = store.read(session.id().value(), artifactId(args), target.files());
        Artifact artifact = read.artifact();
        if (!artifact.projectKey().equals(target.listed().project().id().value())) {
            throw new LomiException(ErrorCode.TARGET_NOT_FOUND, "no artifact " + artifact.id() + " in this project");
        }
        ObjectNode data = JSON.objectNode();
        data.put("kind", "artifact");
        data.put("artifactId", artifact.id());
        data.put("sha256", artifact.sha256());
        data.put("byteLength", Long.toString(artifact.byteLength()));
        data.put("sourceRelativePath", artifact.relativePath());
        data.put("createdAt", artifact.createdAt().toString());
        data.put("expiresAt", artifact.expiresAt().toString());
        data.put("sourceChanged", read.sourceChanged());
        byte[] bytes = read.bytes();
        if (bytes.length <= INLINE_BYTES) {
            data.put("contentBase64", Base64.getEncoder().encodeToString(bytes));
        } else {
            data.putNull("contentBase64");
        }
        return data;
    }

    ObjectNode export(Session session, JsonNode arguments) {
        Arguments args = Arguments.of(arguments, LayoutCalls.with("workspaceId", "artifactId", "expectedSha256", "relativePath",
                "expectedParentRevision", "expectedRevision"));
        FileCalls.Resolved target = files.resolve(session, args);
        String id = artifactId(args);
        String sha = FileCalls.sha256(args.requiredString("expectedSha256"));
        RelativePath path = RelativePath.parse(args.requiredString("relativePath"));
        String parent = FileCalls.sha256(args.requiredString("expectedParentRevision"));
        long expected = Revisions.expected(args);
        String owner = session.id().value();
        return runner.immediate(LayoutCalls.request(session, "lomi_artifact_export", arguments, args, target.listed(), id + ":" + path, expected), () -> {
            Revisions.require(expected, layout.revision());
            if (!target.files().directoryRevision(path.parent()).equals(parent)) {
                throw new LomiException(ErrorCode.REVISION_CONFLICT, "the target directory changed since expectedParentRevision; list it again");
            }
        }, operation -> {
            Mutation done = store.export(owner, id, sha, target.files(), path, parent);
            ObjectNode result = JSON.objectNode();
            result.put("kind", "artifact_exported");
            result.put("artifactId", id);
            result.put("relativePath", done.relativePath());
            result.put("diskRevision", done.diskRevision().orElse(""));
            result.put("parentRevision", done.parentRevision());
            return result;
        });
    }

    private static String artifactId(Arguments args) {
        String id = args.requiredString("artifactId");
        if (!ARTIFACT.matcher(id).matches()) {
            throw Arguments.invalid("artifactId is art- followed by 16 hex characters");
        }
        return id;
    }

    /** Registers the handlers of the tools this class serves. */
    void register(ToolHandlers handlers) {
    }

    /** The tools of this class not yet bound through their declarations. */
    void registerLegacy(java.util.Map<String, BrokerCalls.LegacyCall> legacy) {
        legacy.put("lomi_artifact_import", this::importFile);
        legacy.put("lomi_artifact_read", this::read);
        legacy.put("lomi_artifact_export", this::export);
    }
}
