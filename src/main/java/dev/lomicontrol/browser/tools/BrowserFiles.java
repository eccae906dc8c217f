package dev.lomicontrol.browser.tools;

import dev.lomicontrol.artifacts.ArtifactRead;
import dev.lomicontrol.artifacts.ArtifactStore;
import dev.lomicontrol.browser.BrowserPage;
import dev.lomicontrol.browser.api.BrowserResults;
import dev.lomicontrol.browser.api.BrowserSpecs;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.Ids;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.operations.OperationRunner;
import dev.lomicontrol.operations.PanelTargets;
import dev.lomicontrol.operations.Revisions;
import dev.lomicontrol.operations.WorkspaceAccess;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.BrowserOrigins;
import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.tools.Encoder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Optional;
import java.util.OptionalLong;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code lomi_browser_upload}: a private artifact attached to a file input of the page once the admin
 * approved this exact upload (destination, name, size, hash); the bytes the page sees are a copy
 * under the page's private profile.
 */
final class BrowserFiles {

    static final long MAX_UPLOAD = 4L << 20;

    private final ArtifactStore artifacts;
    private final BrowserOrigins origins;
    private final Layout layout;
    private final PanelTargets panels;
    private final OperationRunner runner;
    private final BrowserPanels live;
    private final SecureRandom random = new SecureRandom();

    BrowserFiles(
            ArtifactStore artifacts,
            BrowserOrigins origins,
            Layout layout,
            PanelTargets panels,
            OperationRunner runner,
            BrowserPanels live) {
        this.artifacts = artifacts;
        this.origins = origins;
        this.layout = layout;
        this.panels = panels;
        this.runner = runner;
        this.live = live;
    }

    /**
     * The upload's admission: the checks run before the receipt exists, and what they found (the file
     * input and the artifact), which the plan the admin approves then names.
     */
    private final class Admitted implements OperationRunner.Admission {
        private final Session session;
        private final LiveBrowser browser;
        private final BrowserSpecs.UploadInput in;
        private BrowserPage.@Nullable UploadTarget target;
        private @Nullable ArtifactRead file;

        Admitted(Session session, LiveBrowser browser, BrowserSpecs.UploadInput in) {
            this.session = session;
            this.browser = browser;
            this.in = in;
        }

        @Override
        public void check() {
            Revisions.require(in.expectedRevision().asLong(), layout.revision());
            browser.requireLease(session, in.leaseId().value());
            browser.requireNavigation(in.navigationId().value());
            BrowserPage.UploadTarget found = browser.page()
                    .uploadTarget(
                            in.snapshotId().value(),
                            in.navigationId().value(),
                            in.elementRef().value(),
                            in.frameId().value());
            if (!origins.approved(browser.project(), found.origin())) {
                throw new LomiException(
                        ErrorCode.SCOPE_DENIED, found.origin() + " is not an approved origin of this project");
            }
            target = found;
            file = uploadable(session, in);
        }

        /** The file input found (only after {@link #check} passed). */
        BrowserPage.UploadTarget target() {
            if (target == null) {
                throw new IllegalStateException("the upload was not admitted");
            }
            return target;
        }

        /** The artifact found (only after {@link #check} passed). */
        ArtifactRead file() {
            if (file == null) {
                throw new IllegalStateException("the upload was not admitted");
            }
            return file;
        }

        String summary() {
            return "upload " + in.fileName() + " (" + file().artifact().byteLength() + " bytes, SHA-256 "
                    + file().artifact().sha256() + ") to " + target().origin() + " for " + session.clientLabel();
        }

        JsonNode plan() {
            ObjectNode plan = JsonNodeFactory.instance.objectNode();
            plan.put("action", "upload a file in the browser");
            plan.put("origin", target().origin());
            plan.put("documentUrl", target().documentUrl());
            plan.put("input", target().label());
            plan.put("fileName", in.fileName());
            plan.put("byteLength", file().artifact().byteLength());
            plan.put("sha256", file().artifact().sha256());
            plan.put("artifactId", in.artifactId().value());
            plan.put("client", session.clientLabel());
            return plan;
        }
    }

    /** Attaches a private artifact to a file input once the admin approved this exact upload (destination, name, size, hash). */
    Object upload(Session session, BrowserSpecs.UploadInput in) {
        LiveBrowser browser = live.bound(session, in.workspaceId(), in.panelId(), in.browserGeneration());
        WorkspaceAccess.Listed listed = panels.workspace(session, in.workspaceId());
        String snapshot = in.snapshotId().value();
        String navigation = in.navigationId().value();
        String ref = in.elementRef().value();
        OperationRunner.Request request = OperationRunner.Request.of(
                session,
                BrowserSpecs.UPLOAD,
                in,
                listed,
                browser.page().generation() + ":" + snapshot + ":" + ref,
                OptionalLong.of(in.expectedRevision().asLong()));
        Admitted admitted = new Admitted(session, browser, in);
        return runner.afterApproval(request, admitted, admitted::summary, admitted::plan, operation -> {
            Path copy = copyForUpload(
                    browser.page(), in.fileName(), uploadable(session, in).bytes());
            browser.page().upload(snapshot, navigation, ref, in.frameId().value(), copy);
            BrowserPage.UploadTarget target = admitted.target();
            return Encoder.encode(new BrowserResults.Uploaded(
                    browser.workspace(),
                    browser.panelId(),
                    browser.page().generation(),
                    navigation,
                    snapshot,
                    ref,
                    new BrowserResults.UploadTarget(
                            target.frameId(), target.origin(), target.documentUrl(), target.label()),
                    in.fileName(),
                    browser.artifact(admitted.file().artifact(), "browser.upload", Optional.empty()),
                    "synthetic_dom",
                    true));
        });
    }

    private ArtifactRead uploadable(Session session, BrowserSpecs.UploadInput in) {
        ArtifactRead read =
                artifacts.bytesOf(session.id().value(), in.artifactId().value());
        if (read.artifact().byteLength() > MAX_UPLOAD) {
            throw new LomiException(ErrorCode.ARTIFACT_TOO_LARGE, "an upload is at most 4 MiB");
        }
        if (!read.artifact().sha256().equals(in.expectedSha256().value())) {
            throw new LomiException(
                    ErrorCode.ARTIFACT_INVALID,
                    in.artifactId() + " has SHA-256 " + read.artifact().sha256() + ", not the expected "
                            + in.expectedSha256().value());
        }
        return read;
    }

    /** The bytes under the page's private profile (0700/0600, deleted with the profile), named as the page should see them. */
    private Path copyForUpload(BrowserPage page, String fileName, byte[] bytes) {
        try {
            Path directory = Files.createDirectories(page.uploadDirectory()).resolve(Ids.randomHex(random, 8));
            Files.createDirectory(
                    directory, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            Path copy = directory.resolve(fileName);
            Files.write(copy, bytes, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rw-------"));
            return copy;
        } catch (IOException e) {
            throw new LomiException(ErrorCode.STORAGE_UNAVAILABLE, "cannot stage the upload: " + e.getMessage(), e);
        }
    }
}
