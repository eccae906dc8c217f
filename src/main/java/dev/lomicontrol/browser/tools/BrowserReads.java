package dev.lomicontrol.browser.tools;

import static dev.lomicontrol.browser.tools.PageAnswers.millis;
import static dev.lomicontrol.browser.tools.PageAnswers.snapshotOf;

import dev.lomicontrol.artifacts.Artifact;
import dev.lomicontrol.artifacts.ArtifactStore;
import dev.lomicontrol.browser.BrowserPage;
import dev.lomicontrol.browser.Origins;
import dev.lomicontrol.browser.api.BrowserResults;
import dev.lomicontrol.browser.api.BrowserSpecs;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.operations.OperationRunner;
import dev.lomicontrol.operations.PanelTargets;
import dev.lomicontrol.operations.Revisions;
import dev.lomicontrol.operations.WorkspaceAccess;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.BrowserOrigins;
import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.tools.Encoder;
import dev.lomicontrol.tools.ImageBlock;
import dev.lomicontrol.tools.Token;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What the browser tools read from a page: the snapshot, waits, the log rings, screenshots, and
 * downloads (one same-origin GET into a private artifact, a durable operation so a retry never
 * repeats it).
 */
final class BrowserReads {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(BrowserCalls.class);

    private final BrowserOrigins origins;
    private final ArtifactStore artifacts;
    private final Layout layout;
    private final PanelTargets panels;
    private final OperationRunner runner;
    private final BrowserPanels live;

    BrowserReads(
            BrowserOrigins origins,
            ArtifactStore artifacts,
            Layout layout,
            PanelTargets panels,
            OperationRunner runner,
            BrowserPanels live) {
        this.origins = origins;
        this.artifacts = artifacts;
        this.layout = layout;
        this.panels = panels;
        this.runner = runner;
        this.live = live;
    }

    /** The snapshot as its encoded answer (the fit to maxBytes encoded it already; the broker sends it as it is). */
    JsonNode snapshot(Session session, BrowserSpecs.SnapshotInput in) {
        long started = System.nanoTime();
        LiveBrowser browser = live.bound(session, in.workspaceId(), in.panelId(), in.browserGeneration());
        PageAnswers.Fitted fitted = snapshotOf(browser, in.maxNodes(), in.maxBytes());
        if (log.isDebugEnabled()) {
            long done = System.nanoTime();
            log.debug(
                    "timing {} snapshot: handler={} page={} answer={} (ms; {} elements)",
                    browser.page().generation(),
                    millis(done - started),
                    millis(fitted.pageNanos()),
                    millis(done - started - fitted.pageNanos()),
                    fitted.snapshot().elements().size());
        }
        return fitted.encoded();
    }

    BrowserResults.Waited waitFor(Session session, BrowserSpecs.WaitInput in) {
        LiveBrowser browser = live.bound(session, in.workspaceId(), in.panelId(), in.browserGeneration());
        long started = System.nanoTime();
        boolean matched = browser.page().waitFor(condition(in.condition()), Duration.ofMillis(in.timeoutMs()));
        long elapsed = (System.nanoTime() - started) / 1_000_000;
        return new BrowserResults.Waited(
                matched, elapsed, snapshotOf(browser, 100, 16384).snapshot());
    }

    private static BrowserPage.Condition condition(BrowserSpecs.Condition condition) {
        if (condition instanceof BrowserSpecs.TextCondition text) {
            return new BrowserPage.Condition.Text(text.text());
        }
        if (condition instanceof BrowserSpecs.ElementCondition element) {
            return new BrowserPage.Condition.Element(element.role(), element.name());
        }
        if (condition instanceof BrowserSpecs.UrlCondition url) {
            return new BrowserPage.Condition.Url(url.url());
        }
        return new BrowserPage.Condition.Load();
    }

    BrowserResults.Logs logs(Session session, BrowserSpecs.LogsInput in) {
        LiveBrowser browser = live.bound(session, in.workspaceId(), in.panelId(), in.browserGeneration());
        BrowserPage.LogKind kind = BrowserPage.LogKind.valueOf(in.logKind().name());
        BrowserPage.LogPage page =
                browser.page().logs(kind, in.cursor().map(Token::value), (int) Math.min(64, in.limit()));
        // eventTrusted: an error or rejection entry is what the engine itself reported (Runtime.exceptionThrown; an
        // event a script dispatches never produces one), so true; a console message is no event, so null
        Optional<Boolean> trusted = kind == BrowserPage.LogKind.CONSOLE ? Optional.empty() : Optional.of(true);
        List<BrowserResults.LogEntry> entries = page.entries().stream()
                .map(e -> new BrowserResults.LogEntry(
                        e.sequence(), e.capturedAtMillis(), in.logKind(), e.message(), e.level(), trusted))
                .toList();
        return new BrowserResults.Logs(
                browser.workspace(),
                browser.panelId(),
                browser.page().generation(),
                page.navigationId(),
                browser.page().mainFrameId(),
                in.logKind(),
                browser.page().origin(),
                page.captureStartedAtMillis(),
                List.of("main_document"),
                entries,
                page.nextCursor(),
                page.dropped(),
                page.hasMore());
    }

    /** The viewport as a PNG artifact; the helper also sends it as an MCP image block. */
    ObjectNode screenshot(Session session, BrowserSpecs.ScreenshotInput in) {
        LiveBrowser browser = live.bound(session, in.workspaceId(), in.panelId(), in.browserGeneration());
        if (!browser.shown().get()) {
            throw new LomiException(
                    ErrorCode.UNSUPPORTED_CAPABILITY,
                    "browser " + browser.page().generation() + " was opened with visible:false and "
                            + "has not been shown: a hidden browser panel is not renderable (the reference's PANEL_NOT_RENDERABLE); show it with "
                            + "lomi_panel_focus first");
        }
        browser.requireNavigation(in.navigationId().value());
        BrowserPage.Capture capture = browser.page().screenshot(in.maxWidth());
        if (capture.png().length > in.maxBytes()) {
            throw new LomiException(
                    ErrorCode.ARTIFACT_TOO_LARGE,
                    "the screenshot is " + capture.png().length + " bytes, more than maxBytes " + in.maxBytes()
                            + "; ask for a smaller maxWidth");
        }
        Artifact artifact = artifacts.capture(
                session.id().value(),
                browser.project().value(),
                "image/png",
                browser.page().url(),
                capture.png());
        ObjectNode data = (ObjectNode) Encoder.encode(new BrowserResults.Screenshot(
                browser.artifact(artifact, "browser.capture_composite", Optional.of(capture.geometry()))));
        data.put(ImageBlock.FIELD, Base64.getEncoder().encodeToString(capture.png()));
        return data;
    }

    /** One same-origin GET into a private artifact (no redirects, 5 s, at most maxBytes); a retry never repeats the GET. */
    Object download(Session session, BrowserSpecs.DownloadInput in) {
        LiveBrowser browser = live.bound(session, in.workspaceId(), in.panelId(), in.browserGeneration());
        WorkspaceAccess.Listed listed = panels.workspace(session, in.workspaceId());
        long expected = in.expectedRevision().asLong();
        return runner.immediate(
                OperationRunner.Request.of(
                        session,
                        BrowserSpecs.DOWNLOAD,
                        in,
                        listed,
                        browser.page().generation() + ":" + in.url(),
                        OptionalLong.of(expected)),
                () -> {
                    Revisions.require(expected, layout.revision());
                    browser.requireNavigation(in.navigationId().value());
                    String origin = browser.page().origin();
                    if (!Origins.of(in.url()).orElse("").equals(origin)) {
                        throw new LomiException(
                                ErrorCode.SCOPE_DENIED,
                                in.url() + " is not on the current document's origin " + origin);
                    }
                    if (!origins.approved(browser.project(), origin)) {
                        throw new LomiException(
                                ErrorCode.SCOPE_DENIED, origin + " is no longer an approved origin of this project");
                    }
                },
                operation -> {
                    BrowserPage.Fetched fetched = browser.page().download(in.url(), in.maxBytes());
                    String type = fetched.contentType().isBlank()
                            ? Artifact.OCTET_STREAM
                            : fetched.contentType().split(";")[0].strip();
                    Artifact artifact = artifacts.capture(
                            session.id().value(), browser.project().value(), type, in.url(), fetched.bytes());
                    return Encoder.encode(new BrowserResults.Downloaded(
                            browser.workspace(),
                            browser.panelId(),
                            browser.page().generation(),
                            browser.page().navigationId(),
                            in.url(),
                            browser.artifact(artifact, "browser.download", Optional.empty())));
                });
    }
}
