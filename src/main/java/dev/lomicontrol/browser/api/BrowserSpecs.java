package dev.lomicontrol.browser.api;

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
import dev.lomicontrol.tools.ScopeNeed;
import dev.lomicontrol.tools.Tag;
import dev.lomicontrol.tools.Tagged;
import dev.lomicontrol.tools.Token;
import dev.lomicontrol.tools.ToolSpec;
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
            implements Durable, ElementInput {}

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
            implements Durable, ElementInput {
        public FillInput {
            InputChecks.utf8AtMost16KiB("text", text);
        }
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
            implements Durable, ElementInput {}

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
            InputChecks.finite("deltaX", deltaX);
            InputChecks.finite("deltaY", deltaY);
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
            InputChecks.baseName("fileName", fileName);
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

            @Doc(BrowserResults.AFTER) Optional<BrowserResults.Snapshot> snapshot) {}

    // ---------------------------------------------------------------- the tools

    public static final ToolSpec<OpenInput> OPEN = ToolSpec.operation(
                    "lomi_browser_open",
                    "Open a browser panel",
                    "browser.navigate",
                    "--IO",
                    OpenInput.class,
                    Opened.class,
                    "Opens an isolated browser panel on an approved origin; the operation gives browserGeneration and a leaseId. HOST_UNQUALIFIED without Chromium.")
            .needs(HostNeed.BROWSER)
            .withVariantScopes(ScopeNeed.always("panel.create"));

    public static final ToolSpec<NavigateInput> NAVIGATE = ToolSpec.operation(
                    "lomi_browser_navigate",
                    "Navigate a browser",
                    "browser.navigate",
                    "--IO",
                    NavigateInput.class,
                    BrowserResults.Navigated.class,
                    "Navigates your browser within approved origins. HOST_UNQUALIFIED without Chromium.")
            .needs(HostNeed.BROWSER);

    public static final ToolSpec<SnapshotInput> SNAPSHOT = ToolSpec.read(
                    "lomi_browser_snapshot",
                    "Read a browser DOM snapshot",
                    "browser.read",
                    "R-I-",
                    SnapshotInput.class,
                    BrowserResults.Snapshot.class,
                    "A bounded semantic DOM snapshot of the page, with element references for the other browser tools. HOST_UNQUALIFIED without Chromium.")
            .needs(HostNeed.BROWSER);

    public static final ToolSpec<WaitInput> WAIT = ToolSpec.read(
                    "lomi_browser_wait",
                    "Wait in a browser",
                    "browser.read",
                    "R-I-",
                    WaitInput.class,
                    BrowserResults.Waited.class,
                    "Waits up to 10 s for text, an element, a url or load; answers a new snapshot. HOST_UNQUALIFIED without Chromium.")
            .needs(HostNeed.BROWSER);

    public static final ToolSpec<ClickInput> CLICK = ToolSpec.operation(
                    "lomi_browser_click",
                    "Click in a browser",
                    "browser.interact",
                    "-DIO",
                    ClickInput.class,
                    BrowserResults.Interaction.class,
                    "Clicks a snapshot element (synthetic input). HOST_UNQUALIFIED without Chromium.")
            .needs(HostNeed.BROWSER);

    public static final ToolSpec<FillInput> FILL = ToolSpec.operation(
                    "lomi_browser_fill",
                    "Fill a browser field",
                    "browser.interact",
                    "-DIO",
                    FillInput.class,
                    BrowserResults.Interaction.class,
                    "Fills a snapshot input, textarea, select or contenteditable. HOST_UNQUALIFIED without Chromium.")
            .needs(HostNeed.BROWSER);

    public static final ToolSpec<KeyInput> KEY = ToolSpec.operation(
                    "lomi_browser_key",
                    "Press a key in a browser",
                    "browser.interact",
                    "-DIO",
                    KeyInput.class,
                    BrowserResults.Interaction.class,
                    "Presses one key on a focused snapshot element (synthetic; no default action). HOST_UNQUALIFIED without Chromium.")
            .needs(HostNeed.BROWSER);

    public static final ToolSpec<ScrollInput> SCROLL = ToolSpec.operation(
                    "lomi_browser_scroll",
                    "Scroll a browser",
                    "browser.interact",
                    "-DIO",
                    ScrollInput.class,
                    BrowserResults.Interaction.class,
                    "Scrolls a snapshot frame's viewport by CSS pixels. HOST_UNQUALIFIED without Chromium.")
            .needs(HostNeed.BROWSER);

    public static final ToolSpec<LogsInput> LOGS = ToolSpec.read(
                    "lomi_browser_logs",
                    "Read browser logs",
                    "browser.read",
                    "R-I-",
                    LogsInput.class,
                    BrowserResults.Logs.class,
                    "The page's recent javascript errors, console messages or promise rejections. HOST_UNQUALIFIED without Chromium.")
            .needs(HostNeed.BROWSER);

    public static final ToolSpec<ScreenshotInput> SCREENSHOT = ToolSpec.read(
                    "lomi_browser_screenshot",
                    "Capture a browser screenshot",
                    "browser.capture_composite",
                    "R-I-",
                    ScreenshotInput.class,
                    BrowserResults.Screenshot.class,
                    "A PNG of a visible browser's viewport, as an artifact and an image. HOST_UNQUALIFIED without Chromium.")
            .needs(HostNeed.BROWSER);

    public static final ToolSpec<UploadInput> UPLOAD = ToolSpec.operation(
                    "lomi_browser_upload",
                    "Upload a file in a browser",
                    "browser.upload",
                    "-DIO",
                    UploadInput.class,
                    BrowserResults.Uploaded.class,
                    "Attaches an artifact to a file input of the page, once the admin approves. HOST_UNQUALIFIED without Chromium.")
            .needs(HostNeed.BROWSER)
            .withVariantScopes(ScopeNeed.always("browser.read", "browser.interact"));

    public static final ToolSpec<DownloadInput> DOWNLOAD = ToolSpec.operation(
                    "lomi_browser_download",
                    "Download into an artifact",
                    "browser.download",
                    "--IO",
                    DownloadInput.class,
                    BrowserResults.Downloaded.class,
                    "Downloads one same-origin address into a private artifact (up to 4 MiB). HOST_UNQUALIFIED without Chromium.")
            .needs(HostNeed.BROWSER)
            .withVariantScopes(ScopeNeed.always("browser.read"));

    public static final List<ToolSpec<?>> ALL =
            List.of(OPEN, NAVIGATE, SNAPSHOT, WAIT, CLICK, FILL, KEY, SCROLL, LOGS, SCREENSHOT, UPLOAD, DOWNLOAD);
}
