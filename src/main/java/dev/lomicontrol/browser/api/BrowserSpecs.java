package dev.lomicontrol.browser.api;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.RequestKey;
import dev.lomicontrol.core.RetryEpochId;
import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.tools.Decimal;
import dev.lomicontrol.tools.Default;
import dev.lomicontrol.tools.Doc;
import dev.lomicontrol.tools.Durable;
import dev.lomicontrol.tools.Hex32;
import dev.lomicontrol.tools.Hex64;
import dev.lomicontrol.tools.HostNeed;
import dev.lomicontrol.tools.LayoutBased;
import dev.lomicontrol.tools.Len;
import dev.lomicontrol.tools.Matches;
import dev.lomicontrol.tools.Range;
import dev.lomicontrol.tools.Tag;
import dev.lomicontrol.tools.Tagged;
import dev.lomicontrol.tools.Token;
import dev.lomicontrol.tools.ToolSpec;
import dev.lomicontrol.tools.WireName;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * The browser tools of the reference (an isolated native browser panel per connection), declared
 * with the reference's inputs, served by the broker's headless Chromium ({@code dev.lomicontrol.browser}); a
 * host without Chromium answers HOST_UNQUALIFIED naming the package after the arguments were checked.
 */
public final class BrowserSpecs {

    private BrowserSpecs() {}

    /** A web address as the reference's browser::address accepts it: http(s) (or about:blank), at most 16384 characters, no control characters. */
    static final String ADDRESS = Matches.HTTP_SCHEME + Matches.NO_CONTROLS + "|about:blank";

    static final String HTTP = Matches.HTTP_SCHEME + Matches.NO_CONTROLS;

    // ---------------------------------------------------------------- inputs

    public record OpenInput(
            WorkspaceId workspaceId,

            @Doc("on an approved origin, or about:blank") @Len(min = 1, max = 16384) @Matches(ADDRESS)
            String url,

            @Default("true") boolean visible,

            @Doc("the domainRevision") Decimal expectedRevision,
            RetryEpochId retryEpoch,
            RequestKey requestKey)
            implements Durable, LayoutBased {}

    public enum WaitUntil {
        COMMIT,
        LOAD
    }

    public record NavigateInput(
            WorkspaceId workspaceId,
            Token panelId,

            Token browserGeneration,

            @Doc("from lomi_browser_open") Hex32 leaseId,

            @Doc("on an approved origin") @Len(min = 1, max = 16384) @Matches(ADDRESS)
            String url,

            @Default("\"load\"") WaitUntil waitUntil,

            RetryEpochId retryEpoch,
            RequestKey requestKey)
            implements Durable {}

    public record SnapshotInput(
            WorkspaceId workspaceId,
            Token panelId,
            Token browserGeneration,

            @Range(min = 1, max = 500) @Default("100") int maxNodes,

            @Range(min = 1, max = 4294967295L) @Default("16384")
            long maxBytes) {}

    /** What lomi_browser_wait waits for (the reference's {@code type} union). */
    @Tagged("type")
    public sealed interface Condition {}

    @Tag("text")
    public record TextCondition(@Len(min = 1, max = 16384) String text) implements Condition {}

    @Tag("element")
    public record ElementCondition(
            @Len(min = 1, max = 256) String role,

            @Len(max = 16384) String name) implements Condition {}

    @Tag("url")
    public record UrlCondition(
            @Len(min = 1, max = 16384) @Matches(Matches.NO_CONTROLS)
            String url) implements Condition {}

    @Tag("load")
    public record LoadCondition() implements Condition {}

    public record WaitInput(
            WorkspaceId workspaceId,
            Token panelId,
            Token browserGeneration,
            Condition condition,

            @Range(min = 0, max = 10000) @Default("5000") long timeoutMs) {}

    public record ClickInput(
            WorkspaceId workspaceId,
            Token panelId,
            Token browserGeneration,
            Token navigationId,
            Token snapshotId,
            Token elementRef,
            Hex32 leaseId,
            RetryEpochId retryEpoch,
            RequestKey requestKey)
            implements Durable {}

    public record FillInput(
            WorkspaceId workspaceId,
            Token panelId,
            Token browserGeneration,
            Token navigationId,
            Token snapshotId,
            Token elementRef,
            Hex32 leaseId,
            RetryEpochId retryEpoch,
            RequestKey requestKey,

            @Len(max = 16384) String text)
            implements Durable {
        public FillInput {
            if (text.getBytes(StandardCharsets.UTF_8).length > 16 * 1024) {
                throw new LomiException(ErrorCode.INVALID_ARGUMENT, "text is more than 16 KiB of UTF-8");
            }
        }
    }

    /** The keys lomi_browser_key dispatches (the reference spells them as DOM key names). */
    public enum Key {
        @WireName("Enter")
        ENTER,
        @WireName("Tab")
        TAB,
        @WireName("Escape")
        ESCAPE,
        @WireName("Backspace")
        BACKSPACE,
        @WireName("ArrowUp")
        ARROW_UP,
        @WireName("ArrowDown")
        ARROW_DOWN,
        @WireName("ArrowLeft")
        ARROW_LEFT,
        @WireName("ArrowRight")
        ARROW_RIGHT,
        @WireName("Home")
        HOME,
        @WireName("End")
        END
    }

    public record KeyInput(
            WorkspaceId workspaceId,
            Token panelId,
            Token browserGeneration,
            Token navigationId,
            Token snapshotId,
            Token elementRef,
            Hex32 leaseId,
            RetryEpochId retryEpoch,
            RequestKey requestKey,

            Key key)
            implements Durable {}

    /**
     * The reference's deltas are JSON numbers (f64); the framework has no number type, so they bind
     * as any JSON value and this constructor insists on a finite number.
     */
    public record ScrollInput(
            WorkspaceId workspaceId,
            Token panelId,
            Token browserGeneration,
            Token navigationId,
            Token snapshotId,

            @Doc("a snapshot frame's viewportRef")
            @Len(min = 1, max = 128)
            @Matches("[A-Za-z0-9._:-]+")
            @Default("\"viewport\"")
            String viewportRef,

            Hex32 leaseId,
            RetryEpochId retryEpoch,
            RequestKey requestKey,
            JsonNode deltaX,
            JsonNode deltaY)
            implements Durable {
        public ScrollInput {
            finite("deltaX", deltaX);
            finite("deltaY", deltaY);
        }
    }

    public enum LogKind {
        JAVASCRIPT_ERROR,
        CONSOLE,
        PROMISE_REJECTION
    }

    public record LogsInput(
            WorkspaceId workspaceId,
            Token panelId,
            Token browserGeneration,

            @Default("\"javascript_error\"") LogKind logKind,

            Optional<Token> cursor,

            @Range(min = 1, max = 4294967295L) @Default("50")
            long limit) {}

    public record ScreenshotInput(
            WorkspaceId workspaceId,
            Token panelId,
            Token browserGeneration,
            Token navigationId,

            @Range(min = 1, max = 65535) @Default("1280") int maxWidth,

            @Range(min = 1, max = 4294967295L) @Default("1048576")
            long maxBytes) {}

    public record UploadInput(
            WorkspaceId workspaceId,
            Token panelId,
            Token browserGeneration,
            Token navigationId,
            Token snapshotId,
            @Doc("a file_input of that snapshot") Token elementRef,
            Token frameId,
            Token artifactId,
            Hex64 expectedSha256,

            @Doc("the name the page sees") @Len(min = 1, max = 255) @Matches("[^" + Matches.CONTROLS + "/\\\\]+")
            String fileName,

            Hex32 leaseId,
            Decimal expectedRevision,
            RetryEpochId retryEpoch,
            RequestKey requestKey)
            implements Durable, LayoutBased {
        public UploadInput {
            if (fileName.equals(".")
                    || fileName.equals("..")
                    || fileName.getBytes(StandardCharsets.UTF_8).length > 255) {
                throw new LomiException(
                        ErrorCode.INVALID_ARGUMENT, "fileName is a base name of 1-255 bytes, not . or ..");
            }
        }
    }

    public record DownloadInput(
            WorkspaceId workspaceId,
            Token panelId,
            Token browserGeneration,
            Token navigationId,

            @Doc("same-origin as the document") @Len(min = 1, max = 16384) @Matches(HTTP)
            String url,

            @Range(min = 1, max = 4194304) @Default("4194304")
            long maxBytes,

            Decimal expectedRevision,
            RetryEpochId retryEpoch,
            RequestKey requestKey)
            implements Durable, LayoutBased {}

    static void finite(String name, JsonNode value) {
        if (!value.isNumber() || !Double.isFinite(value.asDouble())) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, name + " must be a finite number");
        }
    }

    // ---------------------------------------------------------------- outputs (numbers the reference sends as f64 are
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
            LogKind kind,
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
            LogKind logKind,
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

    /** What the {@code snapshot} of an operation's result is. */
    static final String AFTER =
            "the page afterwards as lomi_browser_snapshot answers it (100 refs, 8 KiB; null without "
                    + "browser.read or when the page cannot be read); its refs are valid beside the current snapshot's";

    @Tag("browser")
    public record Opened(
            WorkspaceId workspaceId,
            String panelId,
            String browserGeneration,
            String profileId,
            String navigationId,
            @Doc("the session-only input lease") Optional<String> leaseId,
            boolean ready,
            @Doc("the browser engine") String engine,

            @Doc("\"none\": an origin grant restricts navigation, not subresource traffic")
            String networkIsolation,

            @Doc(AFTER) Optional<Snapshot> snapshot) {}

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

    // ---------------------------------------------------------------- the tools

    public static final ToolSpec<OpenInput> OPEN = ToolSpec.operation(
                    "lomi_browser_open",
                    "Open a browser panel",
                    "browser.navigate",
                    "--IO",
                    OpenInput.class,
                    Opened.class,
                    "Opens an isolated browser panel on an approved origin; the operation gives browserGeneration and a leaseId. HOST_UNQUALIFIED without Chromium.")
            .needs(HostNeed.BROWSER);

    public static final ToolSpec<NavigateInput> NAVIGATE = ToolSpec.operation(
                    "lomi_browser_navigate",
                    "Navigate a browser",
                    "browser.navigate",
                    "--IO",
                    NavigateInput.class,
                    Navigated.class,
                    "Navigates your browser within approved origins. HOST_UNQUALIFIED without Chromium.")
            .needs(HostNeed.BROWSER);

    public static final ToolSpec<SnapshotInput> SNAPSHOT = ToolSpec.read(
                    "lomi_browser_snapshot",
                    "Read a browser DOM snapshot",
                    "browser.read",
                    "R-I-",
                    SnapshotInput.class,
                    Snapshot.class,
                    "A bounded semantic DOM snapshot of the page, with element references for the other browser tools. HOST_UNQUALIFIED without Chromium.")
            .needs(HostNeed.BROWSER);

    public static final ToolSpec<WaitInput> WAIT = ToolSpec.read(
                    "lomi_browser_wait",
                    "Wait in a browser",
                    "browser.read",
                    "R-I-",
                    WaitInput.class,
                    Waited.class,
                    "Waits up to 10 s for text, an element, a url or load; answers a new snapshot. HOST_UNQUALIFIED without Chromium.")
            .needs(HostNeed.BROWSER);

    public static final ToolSpec<ClickInput> CLICK = ToolSpec.operation(
                    "lomi_browser_click",
                    "Click in a browser",
                    "browser.interact",
                    "-DIO",
                    ClickInput.class,
                    Interaction.class,
                    "Clicks a snapshot element (synthetic input). HOST_UNQUALIFIED without Chromium.")
            .needs(HostNeed.BROWSER);

    public static final ToolSpec<FillInput> FILL = ToolSpec.operation(
                    "lomi_browser_fill",
                    "Fill a browser field",
                    "browser.interact",
                    "-DIO",
                    FillInput.class,
                    Interaction.class,
                    "Fills a snapshot input, textarea, select or contenteditable. HOST_UNQUALIFIED without Chromium.")
            .needs(HostNeed.BROWSER);

    public static final ToolSpec<KeyInput> KEY = ToolSpec.operation(
                    "lomi_browser_key",
                    "Press a key in a browser",
                    "browser.interact",
                    "-DIO",
                    KeyInput.class,
                    Interaction.class,
                    "Presses one key on a focused snapshot element (synthetic; no default action). HOST_UNQUALIFIED without Chromium.")
            .needs(HostNeed.BROWSER);

    public static final ToolSpec<ScrollInput> SCROLL = ToolSpec.operation(
                    "lomi_browser_scroll",
                    "Scroll a browser",
                    "browser.interact",
                    "-DIO",
                    ScrollInput.class,
                    Interaction.class,
                    "Scrolls a snapshot frame's viewport by CSS pixels. HOST_UNQUALIFIED without Chromium.")
            .needs(HostNeed.BROWSER);

    public static final ToolSpec<LogsInput> LOGS = ToolSpec.read(
                    "lomi_browser_logs",
                    "Read browser logs",
                    "browser.read",
                    "R-I-",
                    LogsInput.class,
                    Logs.class,
                    "The page's recent javascript errors, console messages or promise rejections. HOST_UNQUALIFIED without Chromium.")
            .needs(HostNeed.BROWSER);

    public static final ToolSpec<ScreenshotInput> SCREENSHOT = ToolSpec.read(
                    "lomi_browser_screenshot",
                    "Capture a browser screenshot",
                    "browser.capture_composite",
                    "R-I-",
                    ScreenshotInput.class,
                    Screenshot.class,
                    "A PNG of a visible browser's viewport, as an artifact and an image. HOST_UNQUALIFIED without Chromium.")
            .needs(HostNeed.BROWSER);

    public static final ToolSpec<UploadInput> UPLOAD = ToolSpec.operation(
                    "lomi_browser_upload",
                    "Upload a file in a browser",
                    "browser.upload",
                    "-DIO",
                    UploadInput.class,
                    Uploaded.class,
                    "Attaches an artifact to a file input of the page, once the admin approves. HOST_UNQUALIFIED without Chromium.")
            .needs(HostNeed.BROWSER);

    public static final ToolSpec<DownloadInput> DOWNLOAD = ToolSpec.operation(
                    "lomi_browser_download",
                    "Download into an artifact",
                    "browser.download",
                    "--IO",
                    DownloadInput.class,
                    Downloaded.class,
                    "Downloads one same-origin address into a private artifact (up to 4 MiB). HOST_UNQUALIFIED without Chromium.")
            .needs(HostNeed.BROWSER);

    public static final List<ToolSpec<?>> ALL =
            List.of(OPEN, NAVIGATE, SNAPSHOT, WAIT, CLICK, FILL, KEY, SCROLL, LOGS, SCREENSHOT, UPLOAD, DOWNLOAD);
}
