package dev.lomicontrol.browser.api;

import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.tools.Doc;
import dev.lomicontrol.tools.Tag;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * What the browser tools answer: the snapshot and its parts, waits, logs, artifacts and the results
 * of the browser operations (all but {@link BrowserSpecs.Opened}, which stays beside the tools). The
 * tool declarations that name them are in {@link BrowserSpecs}.
 */
public final class BrowserResults {

    private BrowserResults() {}

    /** What the {@code snapshot} of an operation's result is. */
    static final String AFTER =
            "the page afterwards as lomi_browser_snapshot answers it (100 refs, 8 KiB; null without "
                    + "browser.read or when the page cannot be read); its refs are valid beside the current snapshot's";

    // ---------------------------------------------------------------- reads (numbers the reference sends as f64 are
    // JSON values here)

    public record Frame(
            String frameId,
            Optional<String> parentFrameId,
            String origin,
            String url,
            String viewportRef,
            @Doc("{width, height, deviceScaleFactor}") JsonNode viewport) {}

    public record Element(
            String frameId,
            String elementRef,
            String role,
            String name,
            boolean enabled,
            boolean editable,
            Optional<Boolean> checked,
            Optional<Long> valueLength) {}

    @Tag("browser_snapshot")
    public record Snapshot(
            WorkspaceId workspaceId,
            String panelId,
            String browserGeneration,
            String navigationId,
            String snapshotId,
            String snapshotKind,
            String frameId,
            String origin,
            String url,
            String capturedAt,
            @Doc("{width, height, deviceScaleFactor}") JsonNode viewport,
            List<Frame> frames,
            List<Element> elements,
            boolean truncated,
            long omittedFrames,
            List<String> limitations) {}

    @Tag("browser_wait")
    public record Waited(boolean matched, long elapsedMs, Snapshot snapshot) {}

    public record LogEntry(
            long sequence,
            long capturedAtMillis,
            BrowserSpecs.LogKind kind,
            String message,
            Optional<String> level,
            Optional<Boolean> eventTrusted) {}

    @Tag("browser_logs")
    public record Logs(
            WorkspaceId workspaceId,
            String panelId,
            String browserGeneration,
            String navigationId,
            String frameId,
            BrowserSpecs.LogKind logKind,
            String origin,
            long captureStartedAtMillis,
            List<String> coverage,
            List<LogEntry> entries,
            String nextCursor,
            long dropped,
            boolean hasMore) {}

    public record ArtifactSource(
            WorkspaceId workspaceId,
            String panelId,
            String browserGeneration,
            String profileId,
            String navigationId,
            String origin,
            String requiredScope) {}

    public record Artifact(
            String id,
            String mediaType,
            long byteLength,
            String sha256,
            String createdAtSeconds,
            String expiresAtSeconds,
            ArtifactSource source,

            @Doc(
                    "the reference's BrowserImageGeometry (CSS/pixel sizes, scale, zoom, scroll, crop); null for a download")
            Optional<JsonNode> image) {}

    @Tag("artifact")
    public record Screenshot(Artifact artifact) {}

    // ---------------------------------------------------------------- operation results

    @Tag("browser_navigation")
    public record Navigated(
            WorkspaceId workspaceId,
            String panelId,
            String browserGeneration,
            String navigationId,
            String url,
            boolean committed,
            boolean loaded,

            @Doc(AFTER) Optional<Snapshot> snapshot) {}

    @Tag("browser_interaction")
    public record Interaction(
            WorkspaceId workspaceId,
            String panelId,
            String browserGeneration,
            String navigationId,
            String snapshotId,
            String elementRef,
            boolean dispatched,
            @Doc("synthetic_dom") String inputMode,
            Optional<Boolean> defaultAction,
            @Doc("{x, y} after a scroll") Optional<JsonNode> scrollPosition,
            @Doc("the retained value's length after a fill") Optional<Long> valueLength,

            @Doc(AFTER) Optional<Snapshot> snapshot) {}

    public record UploadTarget(String frameId, String origin, String documentUrl, String label) {}

    @Tag("browser_uploaded")
    public record Uploaded(
            WorkspaceId workspaceId,
            String panelId,
            String browserGeneration,
            String navigationId,
            String snapshotId,
            String elementRef,
            UploadTarget target,
            String fileName,
            Artifact artifact,
            String inputMode,
            boolean dispatched) {}

    @Tag("browser_downloaded")
    public record Downloaded(
            WorkspaceId workspaceId,
            String panelId,
            String browserGeneration,
            String navigationId,
            String url,
            Artifact artifact) {}
}
