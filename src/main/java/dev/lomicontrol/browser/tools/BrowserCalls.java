package dev.lomicontrol.browser.tools;

import dev.lomicontrol.artifacts.Artifact;
import dev.lomicontrol.artifacts.ArtifactRead;
import dev.lomicontrol.artifacts.ArtifactStore;
import dev.lomicontrol.browser.BrowserPage;
import dev.lomicontrol.browser.Browsers;
import dev.lomicontrol.browser.Origins;
import dev.lomicontrol.browser.PageSnapshot;
import dev.lomicontrol.browser.api.BrowserSpecs;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.Ids;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.ProjectId;
import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.operations.LivePanels;
import dev.lomicontrol.operations.OperationRunner;
import dev.lomicontrol.operations.PanelTargets;
import dev.lomicontrol.operations.Revisions;
import dev.lomicontrol.operations.ToolFeature;
import dev.lomicontrol.operations.ToolHandlers;
import dev.lomicontrol.operations.WorkspaceAccess;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.BrowserOrigins;
import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.projects.Panel;
import dev.lomicontrol.projects.PanelKind;
import dev.lomicontrol.tools.Encoder;
import dev.lomicontrol.tools.Token;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The twelve browser tools on headless Chromium (SPEC §10 "Browser"). A browser belongs to the
 * connection that opened it (its own profile; anyone else gets TARGET_NOT_FOUND), its panel names
 * the live {@code browserGeneration}, and input needs the session-only lease the open returned.
 * Opening an origin the project has not approved waits for the admin ({@code awaiting_user});
 * approval is remembered for the project. Click, fill, key and scroll are durable operations: a
 * retry with the same key answers the earlier operation and dispatches nothing.
 */
@Component
public final class BrowserCalls implements ToolFeature, LivePanels {

    static final String ENGINE = "chromium";
    static final long MAX_UPLOAD = 4L << 20;
    /** The bounds of the snapshot an operation's result carries (BrowserSpecs.AFTER says them). */
    static final int AFTER_NODES = 100;

    static final long AFTER_BYTES = 8192;
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final tools.jackson.databind.json.JsonMapper WIRE =
            tools.jackson.databind.json.JsonMapper.builder().build();
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(BrowserCalls.class);

    private final Browsers browsers;
    private final BrowserOrigins origins;
    private final ArtifactStore artifacts;
    private final Layout layout;
    private final PanelTargets panels;
    private final OperationRunner runner;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, Live> byPanel = new ConcurrentHashMap<>();

    /**
     * A live browser panel: its page, project, owner, the lease its owner holds, and whether it has been
     * shown (opened with {@code visible:true}, or focused since).
     */
    private record Live(
            String panelId,
            WorkspaceId workspace,
            ProjectId project,
            String owner,
            BrowserPage page,
            String leaseId,
            java.util.concurrent.atomic.AtomicBoolean shown) {}

    public BrowserCalls(
            Browsers browsers,
            BrowserOrigins origins,
            ArtifactStore artifacts,
            Layout layout,
            PanelTargets panels,
            OperationRunner runner) {
        this.browsers = browsers;
        this.origins = origins;
        this.artifacts = artifacts;
        this.layout = layout;
        this.panels = panels;
        this.runner = runner;
    }

    // ------------------------------------------------------------------ open / navigate

    Object open(Session session, BrowserSpecs.OpenInput in) {
        requireScope(session, "panel.create");
        WorkspaceAccess.Listed listed = panels.workspace(session, in.workspaceId());
        long expected = in.expectedRevision().asLong();
        ProjectId project = listed.project().id();
        Optional<String> origin =
                in.url().equalsIgnoreCase("about:blank") ? Optional.empty() : Optional.of(Origins.required(in.url()));
        OperationRunner.Request request =
                OperationRunner.Request.of(session, BrowserSpecs.OPEN, in, listed, in.url(), expected);
        OperationRunner.Admission admission = () -> Revisions.require(expected, layout.revision());
        if (origin.isEmpty() || origins.approved(project, origin.get())) {
            long started = System.nanoTime();
            ObjectNode answer = runner.immediate(
                    request, admission, operation -> openPage(session, listed, in, OptionalLong.of(expected)));
            log.debug("timing open: handler={} (ms, receipt included)", millis(System.nanoTime() - started));
            return answer;
        }
        ObjectNode plan = JSON.objectNode();
        plan.put("action", "approve a browser origin");
        plan.put("origin", origin.get());
        plan.put("url", in.url());
        plan.put("projectId", project.value());
        plan.put("project", listed.project().name());
        plan.put("approve", "remember " + origin.get() + " for this project and open it");
        plan.put("client", session.clientLabel());
        plan.put("session", session.id().value());
        String summary = "let " + session.clientLabel() + " browse " + origin.get() + " in project '"
                + listed.project().name() + "' (opens " + in.url() + ")";
        return runner.afterApproval(request, admission, summary, plan, operation -> {
            origins.approve(project, origin.get(), "decision " + operation.id());
            return openPage(session, listed, in, OptionalLong.empty());
        });
    }

    private JsonNode openPage(
            Session session, WorkspaceAccess.Listed listed, BrowserSpecs.OpenInput in, OptionalLong expected) {
        ProjectId project = listed.project().id();
        long started = System.nanoTime();
        BrowserPage page = browsers.open(session.id().value(), origin -> origins.approved(project, origin));
        long created = System.nanoTime();
        try {
            if (!in.url().equalsIgnoreCase("about:blank")) {
                page.navigate(in.url(), true);
            }
            long navigated = System.nanoTime();
            String lease = Ids.randomHex(random, 16);
            Live live = layout.change(expected, edit -> {
                WorkspaceId workspace = listed.workspace().id();
                Optional<String> before = edit.view(workspace).activePanelId();
                Panel panel = edit.addPanel(
                        workspace,
                        PanelKind.BROWSER,
                        page.origin().equals("null") ? "Browser" : page.origin(),
                        Optional.empty(),
                        Optional.of(session.id().value()),
                        Optional.empty(),
                        ".");
                if (!in.visible() && before.isPresent()) {
                    edit.focus(workspace, before.get());
                }
                Live added = new Live(
                        panel.id(),
                        workspace,
                        project,
                        session.id().value(),
                        page,
                        lease,
                        new java.util.concurrent.atomic.AtomicBoolean(in.visible()));
                byPanel.put(panel.id(), added);
                return added;
            });
            JsonNode opened = Encoder.encode(new BrowserSpecs.Opened(
                    live.workspace(),
                    live.panelId(),
                    page.generation(),
                    page.profileId(),
                    page.navigationId(),
                    Optional.of(lease),
                    true,
                    ENGINE,
                    "none",
                    in.url().equalsIgnoreCase("about:blank") ? Optional.empty() : after(session, live)));
            log.debug(
                    "timing {} open: page={} navigate={} panel={} (ms)",
                    page.generation(),
                    millis(created - started),
                    millis(navigated - created),
                    millis(System.nanoTime() - navigated));
            return opened;
        } catch (RuntimeException e) {
            browsers.close(page.generation());
            throw e;
        }
    }

    Object navigate(Session session, BrowserSpecs.NavigateInput in) {
        Live live = bound(session, in.workspaceId(), in.panelId(), in.browserGeneration());
        Optional<String> origin =
                in.url().equalsIgnoreCase("about:blank") ? Optional.empty() : Optional.of(Origins.required(in.url()));
        WorkspaceAccess.Listed listed = panels.workspace(session, in.workspaceId());
        long started = System.nanoTime();
        ObjectNode answer = runner.immediate(
                OperationRunner.Request.of(
                        session, BrowserSpecs.NAVIGATE, in, listed, live.page().generation(), -1),
                () -> {
                    requireLease(session, live, in.leaseId().value());
                    if (origin.isPresent() && !origins.approved(live.project(), origin.get())) {
                        throw new LomiException(
                                ErrorCode.SCOPE_DENIED,
                                origin.get() + " is not an approved origin of this project; open it with "
                                        + "lomi_browser_open so the admin can approve it");
                    }
                },
                operation -> {
                    BrowserPage.Navigation done =
                            live.page().navigate(in.url(), in.waitUntil() == BrowserSpecs.WaitUntil.LOAD);
                    return Encoder.encode(new BrowserSpecs.Navigated(
                            live.workspace(),
                            live.panelId(),
                            live.page().generation(),
                            done.navigationId(),
                            live.page().url(),
                            done.committed(),
                            done.loaded(),
                            done.committed() ? after(session, live) : Optional.empty()));
                });
        log.debug("timing navigate: handler={} (ms, receipt included)", millis(System.nanoTime() - started));
        return answer;
    }

    // ------------------------------------------------------------------ reading

    /** The snapshot as its encoded answer (the fit to maxBytes encoded it already; the broker sends it as it is). */
    JsonNode snapshot(Session session, BrowserSpecs.SnapshotInput in) {
        long started = System.nanoTime();
        Live live = bound(session, in.workspaceId(), in.panelId(), in.browserGeneration());
        Fitted fitted = snapshotOf(live, in.maxNodes(), in.maxBytes());
        if (log.isDebugEnabled()) {
            long done = System.nanoTime();
            log.debug(
                    "timing {} snapshot: handler={} page={} answer={} (ms; {} elements)",
                    live.page().generation(),
                    millis(done - started),
                    millis(fitted.pageNanos()),
                    millis(done - started - fitted.pageNanos()),
                    fitted.snapshot().elements().size());
        }
        return fitted.encoded();
    }

    /** A snapshot answer that fits maxBytes, encoded, and how long reading the page took. */
    private record Fitted(BrowserSpecs.Snapshot snapshot, JsonNode encoded, long pageNanos) {}

    static String millis(long nanos) {
        return String.format(Locale.ROOT, "%.2f", nanos / 1e6);
    }

    /**
     * The snapshot an operation's result carries (the page after its effect, so that the model needs
     * no second call to see it): none without browser.read, and none when the page cannot be read
     * (the effect happened; the answer says so without it).
     */
    private Optional<BrowserSpecs.Snapshot> after(Session session, Live live) {
        if (!session.grant().allows("browser.read")) {
            return Optional.empty();
        }
        try {
            return Optional.of(snapshotOf(live, AFTER_NODES, AFTER_BYTES, true).snapshot());
        } catch (LomiException e) {
            log.debug("{}: no snapshot after the action ({})", live.page().generation(), e.code());
            return Optional.empty();
        }
    }

    private Fitted snapshotOf(Live live, int maxNodes, long maxBytes) {
        return snapshotOf(live, maxNodes, maxBytes, false);
    }

    private Fitted snapshotOf(Live live, int maxNodes, long maxBytes, boolean afterAction) {
        long started = System.nanoTime();
        PageSnapshot snapshot = afterAction
                ? live.page().snapshotAfterAction(maxNodes)
                : live.page().snapshot(maxNodes);
        long pageNanos = System.nanoTime() - started;
        List<BrowserSpecs.Element> elements = new ArrayList<>();
        snapshot.elements()
                .forEach(e -> elements.add(new BrowserSpecs.Element(
                        e.frameId(),
                        e.elementRef(),
                        e.role(),
                        e.name(),
                        e.enabled(),
                        e.editable(),
                        e.checked(),
                        e.valueLength())));
        List<BrowserSpecs.Frame> frames = snapshot.frames().stream()
                .map(f -> new BrowserSpecs.Frame(
                        f.frameId(), f.parentFrameId(), f.origin(), f.url(), f.viewportRef(), f.viewport()))
                .toList();
        int keep = elements.size();
        BrowserSpecs.Snapshot answer = snapshot(live, snapshot, frames, elements, keep, snapshot.omittedElements(), 0);
        JsonNode encoded = Encoder.encode(answer);
        if (size(encoded) > maxBytes) {
            int low = 0;
            int high = keep;
            while (low < high) {
                int mid = (low + high + 1) / 2;
                if (size(Encoder.encode(snapshot(
                                live, snapshot, frames, elements, mid, snapshot.omittedElements(), keep - mid)))
                        <= maxBytes) {
                    low = mid;
                } else {
                    high = mid - 1;
                }
            }
            answer = snapshot(live, snapshot, frames, elements, low, snapshot.omittedElements(), keep - low);
            encoded = Encoder.encode(answer);
        }
        return new Fitted(answer, encoded, pageNanos);
    }

    private static BrowserSpecs.Snapshot snapshot(
            Live live,
            PageSnapshot s,
            List<BrowserSpecs.Frame> frames,
            List<BrowserSpecs.Element> elements,
            int keep,
            int overNodes,
            int overBytes) {
        List<String> limitations = new ArrayList<>();
        limitations.add("form values are omitted (valueLength only)");
        limitations.add("cross-origin frames are not projected");
        if (overNodes > 0) {
            limitations.add(overNodes + " elements omitted beyond maxNodes");
        }
        if (overBytes > 0) {
            limitations.add(overBytes + " elements omitted beyond maxBytes");
        }
        if (s.omittedFrames() > 0) {
            limitations.add(s.omittedFrames() + " frames omitted (cross-origin, deeper than 4 or beyond 16)");
        }
        return new BrowserSpecs.Snapshot(
                live.workspace(),
                live.panelId(),
                live.page().generation(),
                s.navigationId(),
                s.snapshotId(),
                "accessibility",
                s.mainFrameId(),
                s.origin(),
                s.url(),
                s.capturedAt().toString(),
                s.viewport(),
                frames,
                List.copyOf(elements.subList(0, keep)),
                overNodes > 0 || overBytes > 0 || s.omittedFrames() > 0,
                s.omittedFrames(),
                limitations);
    }

    private static long size(JsonNode encoded) {
        return WIRE.writeValueAsBytes(encoded).length;
    }

    BrowserSpecs.Waited waitFor(Session session, BrowserSpecs.WaitInput in) {
        Live live = bound(session, in.workspaceId(), in.panelId(), in.browserGeneration());
        long started = System.nanoTime();
        boolean matched = live.page().waitFor(condition(in.condition()), Duration.ofMillis(in.timeoutMs()));
        long elapsed = (System.nanoTime() - started) / 1_000_000;
        return new BrowserSpecs.Waited(
                matched, elapsed, snapshotOf(live, 100, 16384).snapshot());
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

    BrowserSpecs.Logs logs(Session session, BrowserSpecs.LogsInput in) {
        Live live = bound(session, in.workspaceId(), in.panelId(), in.browserGeneration());
        BrowserPage.LogKind kind = BrowserPage.LogKind.valueOf(in.logKind().name());
        BrowserPage.LogPage page =
                live.page().logs(kind, in.cursor().map(Token::value), (int) Math.min(64, in.limit()));
        // eventTrusted: an error or rejection entry is what the engine itself reported (Runtime.exceptionThrown; an
        // event a script
        // dispatches never produces one), so true; a console message is no event, so null
        Optional<Boolean> trusted = kind == BrowserPage.LogKind.CONSOLE ? Optional.empty() : Optional.of(true);
        List<BrowserSpecs.LogEntry> entries = page.entries().stream()
                .map(e -> new BrowserSpecs.LogEntry(
                        e.sequence(), e.capturedAtMillis(), in.logKind(), e.message(), e.level(), trusted))
                .toList();
        return new BrowserSpecs.Logs(
                live.workspace(),
                live.panelId(),
                live.page().generation(),
                page.navigationId(),
                live.page().mainFrameId(),
                in.logKind(),
                live.page().origin(),
                page.captureStartedAtMillis(),
                List.of("main_document"),
                entries,
                page.nextCursor(),
                page.dropped(),
                page.hasMore());
    }

    /** The viewport as a PNG artifact; the helper also sends it as an MCP image block. */
    ObjectNode screenshot(Session session, BrowserSpecs.ScreenshotInput in) {
        Live live = bound(session, in.workspaceId(), in.panelId(), in.browserGeneration());
        if (!live.shown().get()) {
            throw new LomiException(
                    ErrorCode.UNSUPPORTED_CAPABILITY,
                    "browser " + live.page().generation() + " was opened with visible:false and "
                            + "has not been shown: a hidden browser panel is not renderable (the reference's PANEL_NOT_RENDERABLE); show it with "
                            + "lomi_panel_focus first");
        }
        requireNavigation(live, in.navigationId().value());
        BrowserPage.Capture capture = live.page().screenshot(in.maxWidth());
        if (capture.png().length > in.maxBytes()) {
            throw new LomiException(
                    ErrorCode.ARTIFACT_TOO_LARGE,
                    "the screenshot is " + capture.png().length + " bytes, more than maxBytes " + in.maxBytes()
                            + "; ask for a smaller maxWidth");
        }
        Artifact artifact = artifacts.capture(
                session.id().value(),
                live.project().value(),
                "image/png",
                live.page().url(),
                capture.png());
        ObjectNode data = (ObjectNode) Encoder.encode(new BrowserSpecs.Screenshot(
                artifact(live, artifact, "browser.capture_composite", Optional.of(capture.geometry()))));
        data.put(dev.lomicontrol.tools.ImageBlock.FIELD, Base64.getEncoder().encodeToString(capture.png()));
        return data;
    }

    private BrowserSpecs.Artifact artifact(Live live, Artifact artifact, String scope, Optional<JsonNode> image) {
        return new BrowserSpecs.Artifact(
                artifact.id(),
                artifact.mediaType(),
                artifact.byteLength(),
                artifact.sha256(),
                Long.toString(artifact.createdAt().getEpochSecond()),
                Long.toString(artifact.expiresAt().getEpochSecond()),
                new BrowserSpecs.ArtifactSource(
                        live.workspace(),
                        live.panelId(),
                        live.page().generation(),
                        live.page().profileId(),
                        live.page().navigationId(),
                        live.page().origin(),
                        scope),
                image);
    }

    // ------------------------------------------------------------------ input

    Object click(Session session, BrowserSpecs.ClickInput in) {
        return interact(
                session,
                BrowserSpecs.CLICK,
                in,
                in.workspaceId(),
                in.panelId(),
                in.browserGeneration(),
                in.navigationId(),
                in.snapshotId(),
                in.elementRef().value(),
                in.leaseId().value(),
                page -> page.click(
                        in.snapshotId().value(),
                        in.navigationId().value(),
                        in.elementRef().value()));
    }

    Object fill(Session session, BrowserSpecs.FillInput in) {
        return interact(
                session,
                BrowserSpecs.FILL,
                in,
                in.workspaceId(),
                in.panelId(),
                in.browserGeneration(),
                in.navigationId(),
                in.snapshotId(),
                in.elementRef().value(),
                in.leaseId().value(),
                page -> page.fill(
                        in.snapshotId().value(),
                        in.navigationId().value(),
                        in.elementRef().value(),
                        in.text()));
    }

    Object key(Session session, BrowserSpecs.KeyInput in) {
        String key = keyName(in.key());
        return interact(
                session,
                BrowserSpecs.KEY,
                in,
                in.workspaceId(),
                in.panelId(),
                in.browserGeneration(),
                in.navigationId(),
                in.snapshotId(),
                in.elementRef().value(),
                in.leaseId().value(),
                page -> page.key(
                        in.snapshotId().value(),
                        in.navigationId().value(),
                        in.elementRef().value(),
                        key));
    }

    Object scroll(Session session, BrowserSpecs.ScrollInput in) {
        double dx = in.deltaX().asDouble();
        double dy = in.deltaY().asDouble();
        return interact(
                session,
                BrowserSpecs.SCROLL,
                in,
                in.workspaceId(),
                in.panelId(),
                in.browserGeneration(),
                in.navigationId(),
                in.snapshotId(),
                in.viewportRef(),
                in.leaseId().value(),
                page -> page.scroll(in.snapshotId().value(), in.navigationId().value(), in.viewportRef(), dx, dy));
    }

    private Object interact(
            Session session,
            dev.lomicontrol.tools.ToolSpec<?> spec,
            dev.lomicontrol.tools.Durable in,
            WorkspaceId workspace,
            Token panel,
            Token generation,
            Token navigation,
            Token snapshot,
            String ref,
            String lease,
            java.util.function.Function<BrowserPage, BrowserPage.Action> action) {
        long started = System.nanoTime();
        Live live = bound(session, workspace, panel, generation);
        WorkspaceAccess.Listed listed = panels.workspace(session, workspace);
        ObjectNode answer = runner.immediate(
                OperationRunner.Request.of(
                        session, spec, in, listed, live.page().generation() + ":" + snapshot.value() + ":" + ref, -1),
                () -> {
                    requireLease(session, live, lease);
                    requireNavigation(live, navigation.value());
                    live.page().requireCurrent(snapshot.value(), navigation.value());
                },
                operation -> {
                    BrowserPage.Action done = action.apply(live.page());
                    return Encoder.encode(new BrowserSpecs.Interaction(
                            live.workspace(),
                            live.panelId(),
                            live.page().generation(),
                            navigation.value(),
                            snapshot.value(),
                            ref,
                            done.dispatched(),
                            "synthetic_dom",
                            done.defaultAction(),
                            done.scrollPosition(),
                            done.valueLength(),
                            after(session, live)));
                });
        log.debug("timing {}: handler={} (ms, receipt included)", spec.name(), millis(System.nanoTime() - started));
        return answer;
    }

    private static String keyName(BrowserSpecs.Key key) {
        String[] words = key.name().toLowerCase(Locale.ROOT).split("_");
        StringBuilder out = new StringBuilder();
        for (String word : words) {
            out.append(Character.toUpperCase(word.charAt(0))).append(word.substring(1));
        }
        return out.toString();
    }

    // ------------------------------------------------------------------ files

    /** One same-origin GET into a private artifact (no redirects, 5 s, at most maxBytes); a retry never repeats the GET. */
    Object download(Session session, BrowserSpecs.DownloadInput in) {
        Live live = bound(session, in.workspaceId(), in.panelId(), in.browserGeneration());
        WorkspaceAccess.Listed listed = panels.workspace(session, in.workspaceId());
        long expected = in.expectedRevision().asLong();
        requireScope(session, "browser.read");
        return runner.immediate(
                OperationRunner.Request.of(
                        session,
                        BrowserSpecs.DOWNLOAD,
                        in,
                        listed,
                        live.page().generation() + ":" + in.url(),
                        expected),
                () -> {
                    Revisions.require(expected, layout.revision());
                    requireNavigation(live, in.navigationId().value());
                    String origin = live.page().origin();
                    if (!Origins.of(in.url()).orElse("").equals(origin)) {
                        throw new LomiException(
                                ErrorCode.SCOPE_DENIED,
                                in.url() + " is not on the current document's origin " + origin);
                    }
                    if (!origins.approved(live.project(), origin)) {
                        throw new LomiException(
                                ErrorCode.SCOPE_DENIED, origin + " is no longer an approved origin of this project");
                    }
                },
                operation -> {
                    BrowserPage.Fetched fetched = live.page().download(in.url(), in.maxBytes());
                    String type = fetched.contentType().isBlank()
                            ? Artifact.OCTET_STREAM
                            : fetched.contentType().split(";")[0].strip();
                    Artifact artifact = artifacts.capture(
                            session.id().value(), live.project().value(), type, in.url(), fetched.bytes());
                    return Encoder.encode(new BrowserSpecs.Downloaded(
                            live.workspace(),
                            live.panelId(),
                            live.page().generation(),
                            live.page().navigationId(),
                            in.url(),
                            artifact(live, artifact, "browser.download", Optional.empty())));
                });
    }

    /** Attaches a private artifact to a file input once the admin approved this exact upload (destination, name, size, hash). */
    Object upload(Session session, BrowserSpecs.UploadInput in) {
        requireScope(session, "browser.read");
        requireScope(session, "browser.interact");
        Live live = bound(session, in.workspaceId(), in.panelId(), in.browserGeneration());
        WorkspaceAccess.Listed listed = panels.workspace(session, in.workspaceId());
        long expected = in.expectedRevision().asLong();
        String snapshot = in.snapshotId().value();
        String navigation = in.navigationId().value();
        String ref = in.elementRef().value();
        String frame = in.frameId().value();
        BrowserPage.UploadTarget[] target = new BrowserPage.UploadTarget[1];
        ArtifactRead[] file = new ArtifactRead[1];
        OperationRunner.Request request = OperationRunner.Request.of(
                session,
                BrowserSpecs.UPLOAD,
                in,
                listed,
                live.page().generation() + ":" + snapshot + ":" + ref,
                expected);
        return runner.afterApproval(
                request,
                () -> {
                    Revisions.require(expected, layout.revision());
                    requireLease(session, live, in.leaseId().value());
                    requireNavigation(live, navigation);
                    target[0] = live.page().uploadTarget(snapshot, navigation, ref, frame);
                    if (!origins.approved(live.project(), target[0].origin())) {
                        throw new LomiException(
                                ErrorCode.SCOPE_DENIED,
                                target[0].origin() + " is not an approved origin of this project");
                    }
                    file[0] = uploadable(session, in);
                },
                () -> "upload " + in.fileName() + " (" + file[0].artifact().byteLength() + " bytes, SHA-256 "
                        + file[0].artifact().sha256() + ") to " + target[0].origin() + " for " + session.clientLabel(),
                () -> {
                    ObjectNode plan = JSON.objectNode();
                    plan.put("action", "upload a file in the browser");
                    plan.put("origin", target[0].origin());
                    plan.put("documentUrl", target[0].documentUrl());
                    plan.put("input", target[0].label());
                    plan.put("fileName", in.fileName());
                    plan.put("byteLength", file[0].artifact().byteLength());
                    plan.put("sha256", file[0].artifact().sha256());
                    plan.put("artifactId", in.artifactId().value());
                    plan.put("client", session.clientLabel());
                    return plan;
                },
                operation -> {
                    Path copy = copyForUpload(
                            live.page(), in.fileName(), uploadable(session, in).bytes());
                    live.page().upload(snapshot, navigation, ref, frame, copy);
                    return Encoder.encode(new BrowserSpecs.Uploaded(
                            live.workspace(),
                            live.panelId(),
                            live.page().generation(),
                            navigation,
                            snapshot,
                            ref,
                            new BrowserSpecs.UploadTarget(
                                    target[0].frameId(),
                                    target[0].origin(),
                                    target[0].documentUrl(),
                                    target[0].label()),
                            in.fileName(),
                            artifact(live, file[0].artifact(), "browser.upload", Optional.empty()),
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
            Files.write(
                    copy, bytes, java.nio.file.StandardOpenOption.CREATE_NEW, java.nio.file.StandardOpenOption.WRITE);
            Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rw-------"));
            return copy;
        } catch (IOException e) {
            throw new LomiException(ErrorCode.STORAGE_UNAVAILABLE, "cannot stage the upload: " + e.getMessage(), e);
        }
    }

    // ------------------------------------------------------------------ targets, leases, panels

    /** A browser panel of a granted workspace showing this live generation, owned by this session (else TARGET_NOT_FOUND / STALE_GENERATION). */
    private Live bound(Session session, WorkspaceId workspace, Token panelId, Token generation) {
        PanelTargets.PanelTarget target = panels.panel(session, workspace, panelId.value(), Optional.empty(), -1);
        if (target.panel().kind() != PanelKind.BROWSER) {
            throw new LomiException(ErrorCode.TARGET_NOT_FOUND, "panel " + panelId + " is not a browser");
        }
        Live live = byPanel.get(panelId.value());
        if (live == null || !live.owner().equals(session.id().value())) {
            throw new LomiException(
                    ErrorCode.TARGET_NOT_FOUND,
                    "panel " + panelId + " shows no browser of this connection (browsers do not survive "
                            + "their connection or a broker restart); open a new one");
        }
        if (!live.page().generation().equals(generation.value())) {
            throw new LomiException(
                    ErrorCode.STALE_GENERATION,
                    "panel " + panelId + " shows browser generation "
                            + live.page().generation() + ", not " + generation + "; list the panels again");
        }
        if (!live.page().isAlive()) {
            byPanel.remove(panelId.value());
            throw new LomiException(
                    ErrorCode.TARGET_NOT_FOUND,
                    "browser " + generation + " has closed (idle, crashed or closed); open a new one");
        }
        return live;
    }

    private static void requireLease(Session session, Live live, String leaseId) {
        if (!live.leaseId().equals(leaseId) || !live.owner().equals(session.id().value()) || !session.isAlive()) {
            throw new LomiException(
                    ErrorCode.CONTROL_REVOKED,
                    "lease " + leaseId + " is not valid for browser "
                            + live.page().generation());
        }
    }

    private static void requireNavigation(Live live, String navigationId) {
        if (!live.page().navigationId().equals(navigationId)) {
            throw new LomiException(
                    ErrorCode.STALE_SNAPSHOT,
                    "navigation " + navigationId + " is over (the page is now at "
                            + live.page().navigationId() + "); take a new snapshot");
        }
    }

    private static void requireScope(Session session, String scope) {
        if (!session.grant().allows(scope)) {
            throw new LomiException(
                    ErrorCode.SCOPE_DENIED, dev.lomicontrol.core.ErrorMessages.missingScope("this call also", scope));
        }
    }

    /** The live generation a browser panel shows; empty when it shows none. */
    @Override
    public Optional<String> browserGeneration(Panel panel) {
        Live live = byPanel.get(panel.id());
        return live != null && live.page().isAlive() ? Optional.of(live.page().generation()) : Optional.empty();
    }

    /** The panel was focused: a browser opened with {@code visible:false} is shown from now on (screenshots allowed). */
    @Override
    public void focused(Panel panel) {
        Live live = byPanel.get(panel.id());
        if (live != null) {
            live.shown().set(true);
        }
    }

    @Override
    public String runtimeState(Panel panel) {
        return browserGeneration(panel).isPresent() ? "ready" : "exited";
    }

    @Override
    public boolean ownedByOther(Session session, Panel panel) {
        Live live = byPanel.get(panel.id());
        return live != null
                && live.page().isAlive()
                && !live.owner().equals(session.id().value());
    }

    @Override
    public boolean controlledBy(Session session, Panel panel) {
        Live live = byPanel.get(panel.id());
        return live != null
                && live.page().isAlive()
                && live.owner().equals(session.id().value());
    }

    /** The panel left the layout: its browser closes. */
    @Override
    public void end(Panel panel) {
        Live live = byPanel.remove(panel.id());
        if (live != null) {
            browsers.close(live.page().generation());
        }
    }

    /** The connection ended: its browsers close and its profile is deleted (panels stay and show no generation). */
    @Override
    public void sessionEnded(Session session) {
        byPanel.values().removeIf(live -> live.owner().equals(session.id().value()));
        browsers.closeOwner(session.id().value());
    }

    @Override
    public Map<PanelKind, LivePanels> panels() {
        return Map.of(PanelKind.BROWSER, this);
    }

    /** The broker closes: every browser closes and its profile is deleted. */
    @Override
    public void close() {
        browsers.close();
    }

    @Override
    public void register(Wiring wiring) {
        ToolHandlers handlers = wiring.handlers();
        handlers.on(BrowserSpecs.OPEN, this::open);
        handlers.on(BrowserSpecs.NAVIGATE, this::navigate);
        handlers.on(BrowserSpecs.SNAPSHOT, this::snapshot);
        handlers.on(BrowserSpecs.WAIT, this::waitFor);
        handlers.on(BrowserSpecs.CLICK, this::click);
        handlers.on(BrowserSpecs.FILL, this::fill);
        handlers.on(BrowserSpecs.KEY, this::key);
        handlers.on(BrowserSpecs.SCROLL, this::scroll);
        handlers.on(BrowserSpecs.LOGS, this::logs);
        handlers.on(BrowserSpecs.SCREENSHOT, this::screenshot);
        handlers.on(BrowserSpecs.UPLOAD, this::upload);
        handlers.on(BrowserSpecs.DOWNLOAD, this::download);
    }
}
