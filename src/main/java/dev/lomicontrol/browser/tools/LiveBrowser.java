package dev.lomicontrol.browser.tools;

import dev.lomicontrol.artifacts.Artifact;
import dev.lomicontrol.browser.BrowserPage;
import dev.lomicontrol.browser.api.BrowserResults;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.ProjectId;
import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.pairing.Session;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import tools.jackson.databind.JsonNode;

/**
 * A live browser panel: its page, project, owner, the lease its owner holds, and whether it has been
 * shown (opened with {@code visible:true}, or focused since). It checks what every input on it needs
 * (the lease, the current navigation) and describes the artifacts taken from it.
 */
record LiveBrowser(
        String panelId,
        WorkspaceId workspace,
        ProjectId project,
        String owner,
        BrowserPage page,
        String leaseId,
        AtomicBoolean shown) {

    /** The lease is this browser's and its owner's live session holds it (else CONTROL_REVOKED). */
    void requireLease(Session session, String lease) {
        if (!leaseId.equals(lease) || !owner.equals(session.id().value()) || !session.isAlive()) {
            throw new LomiException(
                    ErrorCode.CONTROL_REVOKED, "lease " + lease + " is not valid for browser " + page.generation());
        }
    }

    /** The page is still at this navigation (else STALE_SNAPSHOT). */
    void requireNavigation(String navigationId) {
        if (!page.navigationId().equals(navigationId)) {
            throw new LomiException(
                    ErrorCode.STALE_SNAPSHOT,
                    "navigation " + navigationId + " is over (the page is now at " + page.navigationId()
                            + "); take a new snapshot");
        }
    }

    /** An artifact taken from this browser's current document, as the browser tools answer it. */
    BrowserResults.Artifact artifact(Artifact artifact, String scope, Optional<JsonNode> image) {
        return new BrowserResults.Artifact(
                artifact.id(),
                artifact.mediaType(),
                artifact.byteLength(),
                artifact.sha256(),
                Long.toString(artifact.createdAt().getEpochSecond()),
                Long.toString(artifact.expiresAt().getEpochSecond()),
                new BrowserResults.ArtifactSource(
                        workspace,
                        panelId,
                        page.generation(),
                        page.profileId(),
                        page.navigationId(),
                        page.origin(),
                        scope),
                image);
    }
}
