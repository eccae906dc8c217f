package dev.lomicontrol.android.tools;

import dev.lomicontrol.android.ApkInstaller;
import dev.lomicontrol.android.api.AndroidResults;
import dev.lomicontrol.android.api.AndroidSpecs;
import dev.lomicontrol.artifacts.Artifact;
import dev.lomicontrol.artifacts.ArtifactRead;
import dev.lomicontrol.artifacts.ArtifactStore;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.operations.OperationRunner;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.tools.Encoder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * lomi_android_install_apk: an APK the caller imported ({@code lomi_artifact_import} kind
 * {@code android_apk}), named by artifact id and SHA-256 (another digest: ARTIFACT_INVALID, before
 * any receipt), installed on the panel's device at the caller's generation. The operation waits in
 * {@code awaiting_user} with a plan naming the APK's name, size, SHA-256 and the device; approved, the
 * artifact's verified bytes are streamed through {@link ApkInstaller} (which checks the digest again
 * while they stream) on a thread of their own, so the admin's decision returns at once; rejected,
 * nothing is sent (SCOPE_DENIED). The installer's {@code Failure [..]} answers {@code installed:
 * false} with its reason; a failure once bytes were on their way is outcome_unknown.
 */
final class AndroidInstalls {

    /** How long streaming and installing one APK may take. */
    static final Duration DEADLINE = Duration.ofSeconds(120);

    private final ArtifactStore artifacts;
    private final OperationRunner runner;
    private final AndroidPanels live;

    AndroidInstalls(ArtifactStore artifacts, OperationRunner runner, AndroidPanels live) {
        this.artifacts = artifacts;
        this.runner = runner;
        this.live = live;
    }

    Object install(Session session, AndroidSpecs.InstallInput in) {
        AndroidPanels.Bound bound = live.bound(session, in.workspaceId(), in.panelId(), in.deviceId(), in.generation());
        String owner = session.id().value();
        String sha256 = in.sha256().value().toLowerCase(Locale.ROOT);
        Artifact artifact = artifacts.bytesOf(owner, in.artifactId().value()).artifact();
        if (!artifact.projectKey().equals(bound.listed().project().id().value())) {
            throw new LomiException(
                    ErrorCode.TARGET_NOT_FOUND, "no artifact " + in.artifactId() + " in this workspace's project");
        }
        if (!artifact.sha256().equals(sha256)) {
            throw new LomiException(
                    ErrorCode.ARTIFACT_INVALID,
                    "artifact " + in.artifactId() + " has SHA-256 " + artifact.sha256() + ", not " + sha256
                            + "; nothing was asked or installed");
        }
        String name = Path.of(artifact.relativePath()).getFileName().toString();
        ObjectNode plan = JsonNodeFactory.instance.objectNode();
        plan.put("action", "install an APK on an Android device");
        plan.put("name", name);
        plan.put("relativePath", artifact.relativePath());
        plan.put("byteLength", artifact.byteLength());
        plan.put("sha256", sha256);
        plan.put("artifactId", artifact.id());
        plan.put("deviceId", bound.deviceId());
        plan.put("serial", bound.serial());
        plan.put("generation", bound.generation());
        plan.put("client", session.clientLabel());
        plan.put("session", owner);
        OperationRunner.Request request = OperationRunner.Request.of(
                session, AndroidSpecs.INSTALL_APK, in, bound.listed(), bound.deviceId(), OptionalLong.empty());
        return runner.afterApprovalInBackground(
                request,
                () -> {},
                () -> "install " + name + " (" + artifact.byteLength() + " bytes, SHA-256 " + sha256
                        + ") on Android device " + bound.serial() + " for " + session.clientLabel(),
                () -> plan,
                operation -> {
                    session.requireAlive();
                    AndroidPanels.Bound now =
                            live.bound(session, in.workspaceId(), in.panelId(), in.deviceId(), in.generation());
                    ApkInstaller.Outcome outcome = installed(owner, in, now);
                    return Encoder.encode(new AndroidResults.Installed(
                            in.workspaceId(),
                            now.deviceId(),
                            now.generation(),
                            artifact.id(),
                            sha256,
                            outcome.installed(),
                            Optional.empty(),
                            Optional.empty(),
                            Optional.empty(),
                            outcome.failure()));
                });
    }

    /** Streams the artifact's verified bytes (copied to a private file the installer reads) to the device. */
    private ApkInstaller.Outcome installed(String owner, AndroidSpecs.InstallInput in, AndroidPanels.Bound bound) {
        ArtifactRead read = artifacts.bytesOf(owner, in.artifactId().value());
        Path apk;
        try {
            apk = Files.createTempFile("lomi-apk-", ".apk");
        } catch (IOException e) {
            throw new UncheckedIOException("the APK could not be staged for streaming", e);
        }
        try {
            Files.write(apk, read.bytes());
            return new ApkInstaller(bound.devices().bridge())
                    .install(bound.serial(), apk, in.sha256().value(), DEADLINE);
        } catch (IOException e) {
            throw new UncheckedIOException("the APK could not be staged for streaming", e);
        } finally {
            try {
                Files.deleteIfExists(apk);
            } catch (IOException ignored) {
                // a temporary file left behind goes with the temporary directory
            }
        }
    }
}
