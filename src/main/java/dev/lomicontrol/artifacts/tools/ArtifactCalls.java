package dev.lomicontrol.artifacts.tools;

import dev.lomicontrol.artifacts.Artifact;
import dev.lomicontrol.artifacts.ArtifactRead;
import dev.lomicontrol.artifacts.ArtifactStore;
import dev.lomicontrol.artifacts.api.ArtifactSpecs;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.files.Mutation;
import dev.lomicontrol.files.RelativePath;
import dev.lomicontrol.files.tools.FileCalls;
import dev.lomicontrol.operations.OperationRunner;
import dev.lomicontrol.operations.Revisions;
import dev.lomicontrol.operations.ToolFeature;
import dev.lomicontrol.operations.ToolHandlers;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.tools.Decimal;
import dev.lomicontrol.tools.Encoder;
import dev.lomicontrol.tools.Hex64;
import dev.lomicontrol.tools.HostNeed;
import dev.lomicontrol.tools.HostQualification;
import java.util.Base64;
import java.util.Optional;
import java.util.OptionalLong;
import org.springframework.stereotype.Component;
import tools.jackson.databind.node.ObjectNode;

/**
 * Artifact tools (SPEC §10 "Artifacts"): private immutable copies of project files with SHA-256,
 * quotas and 24 h expiry; the source is rechecked on read, and export never overwrites.
 */
@Component
public final class ArtifactCalls implements ToolFeature {

    static final int INLINE_BYTES = 64 * 1024;

    private final ArtifactStore store;
    private final FileCalls files;
    private final OperationRunner runner;
    private final Layout layout;

    public ArtifactCalls(ArtifactStore store, FileCalls files, OperationRunner runner, Layout layout) {
        this.store = store;
        this.files = files;
        this.runner = runner;
        this.layout = layout;
    }

    public ObjectNode importFile(Session session, ArtifactSpecs.ImportInput in) {
        FileCalls.Resolved target = files.resolve(session, in.workspaceId());
        RelativePath path = RelativePath.parse(in.relativePath());
        if (in.kind() == ArtifactSpecs.ImportKind.ANDROID_APK
                && HostQualification.reason(HostNeed.ANDROID_DEVICES).isPresent()) {
            throw new LomiException(
                    ErrorCode.HOST_UNQUALIFIED,
                    "kind android_apk: an APK artifact is only for installing on an Android device"
                            + " (lomi_android_install_apk), and "
                            + HostQualification.reason(HostNeed.ANDROID_DEVICES).get()
                            + "; use kind file");
        }
        long length = in.expectedByteLength();
        String sha = in.expectedSha256().value();
        long expected = in.expectedRevision().asLong();
        String owner = session.id().value();
        return runner.immediate(
                OperationRunner.Request.of(
                        session, ArtifactSpecs.IMPORT, in, target.listed(), path.toString(), OptionalLong.of(expected)),
                () -> Revisions.require(expected, layout.revision()),
                operation -> {
                    Artifact artifact = store.importFile(
                            owner, target.listed().project().id().value(), target.files(), path, length, sha);
                    return Encoder.encode(new ArtifactSpecs.Imported(
                            artifact.id(),
                            new Hex64(artifact.sha256()),
                            Decimal.of(artifact.byteLength()),
                            artifact.expiresAt().toString()));
                });
    }

    /** The artifact's metadata (and up to 64 KiB inline); a PNG capture also travels whole to the helper, which sends it as an image block. */
    public ObjectNode read(Session session, ArtifactSpecs.ReadInput in) {
        FileCalls.Resolved target = files.resolve(session, in.workspaceId());
        ArtifactRead read = store.read(session.id().value(), in.artifactId(), target.files());
        Artifact artifact = read.artifact();
        if (!artifact.projectKey().equals(target.listed().project().id().value())) {
            throw new LomiException(ErrorCode.TARGET_NOT_FOUND, "no artifact " + artifact.id() + " in this project");
        }
        byte[] bytes = read.bytes();
        ObjectNode data = (ObjectNode) Encoder.encode(new ArtifactSpecs.Read(
                artifact.id(),
                artifact.mediaType(),
                new Hex64(artifact.sha256()),
                Decimal.of(artifact.byteLength()),
                artifact.relativePath(),
                artifact.createdAt().toString(),
                artifact.expiresAt().toString(),
                read.sourceChanged(),
                bytes.length <= INLINE_BYTES
                        ? Optional.of(Base64.getEncoder().encodeToString(bytes))
                        : Optional.empty()));
        if (artifact.mediaType().equals("image/png")) {
            data.put(dev.lomicontrol.tools.ImageBlock.FIELD, Base64.getEncoder().encodeToString(bytes));
        }
        return data;
    }

    public ObjectNode export(Session session, ArtifactSpecs.ExportInput in) {
        FileCalls.Resolved target = files.resolve(session, in.workspaceId());
        String id = in.artifactId();
        String sha = in.expectedSha256().value();
        RelativePath path = RelativePath.parse(in.relativePath());
        String parent = in.expectedParentRevision().value();
        long expected = in.expectedRevision().asLong();
        String owner = session.id().value();
        return runner.immediate(
                OperationRunner.Request.of(
                        session, ArtifactSpecs.EXPORT, in, target.listed(), id + ":" + path, OptionalLong.of(expected)),
                () -> {
                    Revisions.require(expected, layout.revision());
                    if (!target.files().directoryRevision(path.parent()).equals(parent)) {
                        throw new LomiException(
                                ErrorCode.REVISION_CONFLICT,
                                "the target directory changed since expectedParentRevision; list it again");
                    }
                },
                operation -> {
                    Mutation done = store.export(owner, id, sha, target.files(), path, parent);
                    return Encoder.encode(new ArtifactSpecs.Exported(
                            id,
                            done.relativePath(),
                            new Hex64(done.diskRevision().orElseThrow()),
                            new Hex64(done.parentRevision())));
                });
    }

    /** Registers the handlers of the tools this class serves. */
    @Override
    public void register(Wiring wiring) {
        ToolHandlers handlers = wiring.handlers();
        handlers.on(ArtifactSpecs.IMPORT, this::importFile);
        handlers.on(ArtifactSpecs.READ, this::read);
        handlers.on(ArtifactSpecs.EXPORT, this::export);
    }
}
