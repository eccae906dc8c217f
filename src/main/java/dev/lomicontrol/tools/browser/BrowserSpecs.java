package dev.lomicontrol.tools.browser;

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

    static final String UNQUALIFIED =
            " Runs on the broker's headless Chromium; a host without one answers HOST_UNQUALIFIED naming the package "
                    + "(its arguments are checked first).";

    /** A web address as the reference's browser::address accepts it: http(s) (or about:blank), at most 16384 characters, no control characters. */
    static final String ADDRESS = Matches.HTTP_SCHEME + Matches.NO_CONTROLS + "|about:blank";

    static final String HTTP = Matches.HTTP_SCHEME + Matches.NO_CONTROLS;

    // ---------------------------------------------------------------- inputs

    public record OpenInput(
            WorkspaceId workspaceId,

            @Doc("an http(s) address on an approved origin, or about:blank")
            @Len(min = 1, max = 16384)
            @Matches(ADDRESS)
            String url,

            @Doc("false prepares a hidden page without changing the selection (default true)") @Default("true")
            boolean visible,

            @Doc("the current domainRevision") Decimal expectedRevision,
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

            @Doc("the browser generation lomi_browser_open returned")
            Token browserGeneration,

            @Doc("the session-only lease lomi_browser_open returned")
            Hex32 leaseId,

            @Doc("an http(s) address on an approved origin") @Len(min = 1, max = 16384) @Matches(ADDRESS)
            String url,

            @Doc("commit (the document committed) or load (default: the page loaded); never network idle")
            @Default("\"load\"")
            WaitUntil waitUntil,

            RetryEpochId retryEpoch,
            RequestKey requestKey)
            implements Durable {}

    public record SnapshotInput(
            WorkspaceId workspaceId,
            Token panelId,
            Token browserGeneration,

            @Doc("at most this many element references (default 100, at most 500)")
            @Range(min = 1, max = 500)
            @Default("100")
            int maxNodes,

            @Doc("at most this many bytes (default 16384)") @Range(min = 1, max = 4294967295L) @Default("16384")
            long maxBytes) {}

    /** What lomi_browser_wait waits for (the reference's {@code type} union). */
    @Tagged("type")
    public sealed interface Condition {}

    @Tag("text")
    public record TextCondition(
            @Doc("text in the top-level document") @Len(min = 1, max = 16384)
            String text) implements Condition {}

    @Tag("element")
    public record ElementCondition(
            @Doc("the exact semantic role") @Len(min = 1, max = 256)
            String role,

            @Doc("the exact accessible name") @Len(max = 16384)
            String name)
            implements Condition {}

    @Tag("url")
    public record UrlCondition(
            @Doc("the exact address") @Len(min = 1, max = 16384) @Matches(Matches.NO_CONTROLS)
            String url) implements Condition {}

    @Tag("load")
    public record LoadCondition() implements Condition {}

    public record WaitInput(
            WorkspaceId workspaceId,
            Token panelId,
            Token browserGeneration,
            Condition condition,

            @Doc("milliseconds, at most 10000 (default 5000)") @Range(min = 0, max = 10000) @Default("5000")
            long timeoutMs) {}

    public record ClickInput(
            WorkspaceId workspaceId,
            Token panelId,
            Token browserGeneration,
            @Doc("navigationId of the snapshot") Token navigationId,
            @Doc("snapshotId of a current snapshot") Token snapshotId,
            @Doc("an elementRef of that snapshot") Token elementRef,
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

            @Doc("the value to fill in, at most 16 KiB of UTF-8") @Len(max = 16384)
            String text)
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

            @Doc("Enter, Tab, Escape, Backspace, ArrowUp, ArrowDown, ArrowLeft, ArrowRight, Home or End")
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

            @Doc(
                    "the frame viewport to scroll (a snapshot frame's viewportRef; default \"viewport\", the main document)")
            @Len(min = 1, max = 128)
            @Matches("[A-Za-z0-9._:-]+")
            @Default("\"viewport\"")
            String viewportRef,

            Hex32 leaseId,
            RetryEpochId retryEpoch,
            RequestKey requestKey,
            @Doc("horizontal CSS pixels (a number)") JsonNode deltaX,
            @Doc("vertical CSS pixels (a number)") JsonNode deltaY)
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

            @Doc("javascript_error (default), console or promise_rejection") @Default("\"javascript_error\"")
            LogKind logKind,

            @Doc("nextCursor of the previous read of this kind")
            Optional<Token> cursor,

            @Doc("entries per page (default 50; each kind keeps 64)") @Range(min = 1, max = 4294967295L) @Default("50")
            long limit) {}

    public record ScreenshotInput(
            WorkspaceId workspaceId,
            Token panelId,
            Token browserGeneration,
            @Doc("the current navigationId") Token navigationId,

            @Doc("widest image in pixels (default 1280)") @Range(min = 1, max = 65535) @Default("1280")
            int maxWidth,

            @Doc("largest PNG in bytes (default 1 MiB)") @Range(min = 1, max = 4294967295L) @Default("1048576")
            long maxBytes) {}

    public record UploadInput(
            WorkspaceId workspaceId,
            Token panelId,
            Token browserGeneration,
            Token navigationId,
            Token snapshotId,
            @Doc("a file_input elementRef of that snapshot") Token elementRef,
            @Doc("the frameId of that element") Token frameId,
            @Doc("the artifact to attach (at most 4 MiB)") Token artifactId,
            @Doc("its exact SHA-256") Hex64 expectedSha256,

            @Doc("the file name the page sees: a base name of 1-255 bytes")
            @Len(min = 1, max = 255)
            @Matches("[^" + Matches.CONTROLS + "/\\\\]+")
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

            @Doc("a same-origin http(s) address of the current document") @Len(min = 1, max = 16384) @Matches(HTTP)
            String url,

            @Doc("at most this many bytes, 1-4 MiB (default 4 MiB)") @Range(min = 1, max = 4194304) @Default("4194304")
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
            String networkIsolation) {}

    @Tag("browser_navigation")
    public record Navigated(
            WorkspaceId workspaceId,
            String panelId,
            String browserGeneration,
            String navigationId,
            String url,
            boolean committed,
            boolean loaded) {}

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
            @Doc("the retained value's length after a fill") Optional<Long> valueLength) {}

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
                    "Creates an isolated browser panel (its own profile) on an approved origin (also needs "
                            + "panel.create); poll the operation for browserGeneration and the session-only leaseId. networkIsolation is none: "
                            + "only navigation is origin-restricted. visible=false prepares a hidden page."
                            + UNQUALIFIED)
            .needs(HostNeed.BROWSER);

    public static final ToolSpec<NavigateInput> NAVIGATE = ToolSpec.operation(
                    "lomi_browser_navigate",
                    "Navigate a browser",
                    "browser.navigate",
                    "--IO",
                    NavigateInput.class,
                    Navigated.class,
                    "Navigates an owned browser generation within approved origins under its lease; "
                            + "waitUntil commit or load (default). A retry never navigates again." + UNQUALIFIED)
            .needs(HostNeed.BROWSER);

    public static final ToolSpec<SnapshotInput> SNAPSHOT = ToolSpec.read(
                    "lomi_browser_snapshot",
                    "Read a browser DOM snapshot",
                    "browser.read",
                    "R-I-",
                    SnapshotInput.class,
                    Snapshot.class,
                    "A bounded semantic DOM projection of the main document and same-origin frames (at "
                            + "most 16 frames, depth 4, 500 references); form values are left out; references expire on navigation, a new snapshot "
                            + "or human takeover." + UNQUALIFIED)
            .needs(HostNeed.BROWSER);

    public static final ToolSpec<WaitInput> WAIT = ToolSpec.read(
                    "lomi_browser_wait",
                    "Wait in a browser",
                    "browser.read",
                    "R-I-",
                    WaitInput.class,
                    Waited.class,
                    "Waits up to 10 s for condition.type text, element {role, name}, url or load; answers matched and a new snapshot "
                            + "(previous references expire)." + UNQUALIFIED)
            .needs(HostNeed.BROWSER);

    public static final ToolSpec<ClickInput> CLICK = ToolSpec.operation(
                    "lomi_browser_click",
                    "Click in a browser",
                    "browser.interact",
                    "-DIO",
                    ClickInput.class,
                    Interaction.class,
                    "Clicks a current snapshot element with synthetic DOM input (not a trusted gesture) under "
                            + "the lease; never activates file inputs or downloads; a retry never clicks again."
                            + UNQUALIFIED)
            .needs(HostNeed.BROWSER);

    public static final ToolSpec<FillInput> FILL = ToolSpec.operation(
                    "lomi_browser_fill",
                    "Fill a browser field",
                    "browser.interact",
                    "-DIO",
                    FillInput.class,
                    Interaction.class,
                    "Fills a current snapshot input, textarea, select or contenteditable (text at most 16 KiB) "
                            + "with synthetic input/change events; answers only the retained value's length."
                            + UNQUALIFIED)
            .needs(HostNeed.BROWSER);

    public static final ToolSpec<KeyInput> KEY = ToolSpec.operation(
                    "lomi_browser_key",
                    "Press a key in a browser",
                    "browser.interact",
                    "-DIO",
                    KeyInput.class,
                    Interaction.class,
                    "Dispatches synthetic keydown/keyup of one key to a focused snapshot element; no native "
                            + "default action (defaultAction false)." + UNQUALIFIED)
            .needs(HostNeed.BROWSER);

    public static final ToolSpec<ScrollInput> SCROLL = ToolSpec.operation(
                    "lomi_browser_scroll",
                    "Scroll a browser",
                    "browser.interact",
                    "-DIO",
                    ScrollInput.class,
                    Interaction.class,
                    "Scrolls a snapshot frame's viewportRef (default the main viewport) by CSS pixel deltas "
                            + "under the lease; answers the observed scroll position." + UNQUALIFIED)
            .needs(HostNeed.BROWSER);

    public static final ToolSpec<LogsInput> LOGS = ToolSpec.read(
                    "lomi_browser_logs",
                    "Read browser logs",
                    "browser.read",
                    "R-I-",
                    LogsInput.class,
                    Logs.class,
                    "Main-document logs of one kind: javascript_error (default), console or promise_rejection, each a ring of 64 "
                            + "messages of at most 256 UTF-16 units with a dropped count and navigation-bound cursors. Page data, untrusted."
                            + UNQUALIFIED)
            .needs(HostNeed.BROWSER);

    public static final ToolSpec<ScreenshotInput> SCREENSHOT = ToolSpec.read(
                    "lomi_browser_screenshot",
                    "Capture a browser screenshot",
                    "browser.capture_composite",
                    "R-I-",
                    ScreenshotInput.class,
                    Screenshot.class,
                    "The viewport of an owned, visible browser as a PNG "
                            + "artifact (and an MCP image block) with CSS/pixel/zoom metadata; maxWidth default 1280, maxBytes default 1 MiB. No "
                            + "desktop capture." + UNQUALIFIED)
            .needs(HostNeed.BROWSER);

    public static final ToolSpec<UploadInput> UPLOAD = ToolSpec.operation(
                    "lomi_browser_upload",
                    "Upload a file in a browser",
                    "browser.upload",
                    "-DIO",
                    UploadInput.class,
                    Uploaded.class,
                    "Attaches one private artifact (at most 4 MiB, exact SHA-256) to a visible file_input "
                            + "of a current snapshot (also needs browser.read and browser.interact); awaiting_user until an admin approves the "
                            + "exact destination, file name, size and hash. Confirms attachment, not server acceptance."
                            + UNQUALIFIED)
            .needs(HostNeed.BROWSER);

    public static final ToolSpec<DownloadInput> DOWNLOAD = ToolSpec.operation(
                    "lomi_browser_download",
                    "Download into an artifact",
                    "browser.download",
                    "--IO",
                    DownloadInput.class,
                    Downloaded.class,
                    "One same-origin GET of the current document's origin into a "
                            + "private artifact (1 byte to 4 MiB, 5 s, no redirects; also needs browser.read); answers artifact metadata only. A "
                            + "retry never repeats the GET; export it with lomi_artifact_export." + UNQUALIFIED)
            .needs(HostNeed.BROWSER);

    public static final List<ToolSpec<?>> ALL =
            List.of(OPEN, NAVIGATE, SNAPSHOT, WAIT, CLICK, FILL, KEY, SCROLL, LOGS, SCREENSHOT, UPLOAD, DOWNLOAD);
}
