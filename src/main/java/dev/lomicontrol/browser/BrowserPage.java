package dev.lomicontrol.browser;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import java.util.random.RandomGenerator;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One page (a browser panel's live document) in its owner's Chromium. Every request the page and
 * the targets it starts (out-of-process frames, workers: {@link PageTargets}; it cannot open
 * windows) make pauses in the network layer ({@code Fetch.requestPaused}): a document load in any
 * frame, any redirect, and any request to a local or private address, to an origin the owner's
 * project has not approved fails there ({@code BlockedByClient}) before a byte is sent
 * ({@link NetworkRule}). {@code navigationId} changes with every committed main-frame document;
 * snapshot refs are valid for their snapshot only. Input is synthetic DOM events (not trusted gestures).
 * The work is split by concern: {@link PageEvents} (document state, logs; it hands paused requests
 * to {@link NetworkRule} and started targets to {@link PageTargets}),
 * {@link PageSnapshots}, {@link PageInput}, {@link PageFiles}, over one {@link PageChannel}.
 */
public final class BrowserPage {

    /** What lomi_browser_logs reads. */
    public enum LogKind {
        JAVASCRIPT_ERROR,
        CONSOLE,
        PROMISE_REJECTION
    }

    private final Chromium chromium;
    private final String owner;
    private final String generation;
    private final String targetId;
    private final Clock clock;
    private final PageChannel channel;
    private final PageEvents events;
    private final PageSnapshots snapshots;
    private final PageInput input;
    private final PageFiles files;
    private volatile Instant lastUsed;

    BrowserPage(
            Chromium chromium,
            String owner,
            String generation,
            Predicate<String> originAllowed,
            Clock clock,
            RandomGenerator random,
            Duration timeout) {
        this.chromium = chromium;
        this.owner = owner;
        this.generation = generation;
        this.clock = clock;
        this.lastUsed = clock.instant();
        this.channel = new PageChannel(chromium, generation, timeout);
        this.events = new PageEvents(channel, generation, originAllowed, clock, random);
        this.snapshots = new PageSnapshots(channel, events, clock);
        this.input = new PageInput(channel, events, snapshots);
        this.files = new PageFiles(channel, events, snapshots);
        String[] ids = chromium.newPage(events::on);
        this.targetId = ids[0];
        channel.attached(ids[1]);
        // One round trip: the protocol runs a session's commands in order, so the network rule is in force before
        // anything
        // later, and every answer is awaited before the page is handed out (no navigation can start earlier).
        List<CompletableFuture<JsonNode>> enabled = List.of(
                channel.request("Fetch.enable", PageTargets.interceptAll()),
                channel.request("Target.setAutoAttach", PageTargets.autoAttach()),
                channel.request("Page.enable", null),
                channel.request(
                        "Page.setLifecycleEventsEnabled", PageChannel.obj().put("enabled", true)),
                channel.request("Runtime.enable", null),
                channel.request("DOM.enable", null),
                channel.request("Accessibility.enable", null));
        CompletableFuture<JsonNode> tree = channel.request("Page.getFrameTree", null);
        enabled.forEach(channel::await);
        events.mainFrame(
                channel.await(tree).path("frameTree").path("frame").path("id").asString());
    }

    public String generation() {
        return generation;
    }

    public String owner() {
        return owner;
    }

    public String profileId() {
        return chromium.profileId();
    }

    public String navigationId() {
        return events.navigationId();
    }

    public String mainFrameId() {
        return events.mainFrameId();
    }

    public String url() {
        return events.url();
    }

    /** The http(s) origin of the current document, or "null" (about:blank, an error page). */
    public String origin() {
        return Origins.of(events.url()).orElse("null");
    }

    public boolean isAlive() {
        return !channel.isClosed() && chromium.isAlive();
    }

    Instant lastUsed() {
        return lastUsed;
    }

    /** The pid of the Chromium process this page lives in. */
    public long pid() {
        return chromium.pid();
    }

    /** Resident memory of the Chromium process tree this page lives in. */
    public long residentBytes() {
        return chromium.residentBytes();
    }

    // ------------------------------------------------------------------ navigation

    /** The result of a navigation: the new navigationId and whether the document committed and loaded. */
    public record Navigation(String navigationId, String url, boolean committed, boolean loaded) {}

    /**
     * Navigates the main frame; SCOPE_DENIED when the network layer refused the document or one of its
     * redirects (an origin not approved), DEADLINE_EXCEEDED when {@code waitLoad} and it did not load in time.
     */
    public Navigation navigate(String address, boolean waitLoad) {
        touch();
        long blockedBefore = events.blockedCount();
        JsonNode answer = channel.send("Page.navigate", PageChannel.obj().put("url", address));
        String error = answer.path("errorText").asString("");
        if (!error.isEmpty()) {
            if (error.contains("ERR_BLOCKED_BY_CLIENT") || events.blockedCount() > blockedBefore) {
                throw new LomiException(
                        ErrorCode.SCOPE_DENIED,
                        "the browser refused to load " + events.lastBlocked().orElse(address)
                                + ": its origin is not approved for this project (redirects are checked too); nothing was loaded from it");
            }
            throw new LomiException(ErrorCode.TARGET_NOT_FOUND, "navigating to " + address + " failed: " + error);
        }
        String loaderId = answer.path("loaderId").asString("");
        boolean loaded = true;
        if (waitLoad && !loaderId.isEmpty()) {
            loaded = PageChannel.completes(events.load(loaderId), channel.timeout());
        }
        return new Navigation(events.navigationId(), events.url(), true, loaded);
    }

    // ------------------------------------------------------------------ snapshots and waiting

    /** A fresh snapshot of at most {@code maxNodes} refs (see {@link PageSnapshots#take}); earlier refs become stale. */
    public PageSnapshot snapshot(int maxNodes) {
        touch();
        return snapshots.take(maxNodes);
    }

    /** The snapshot an action answers: its refs are valid beside the current snapshot's, which stays current. */
    public PageSnapshot snapshotAfterAction(int maxNodes) {
        touch();
        return snapshots.take(maxNodes, true);
    }

    /** What {@link #waitFor} waits for. */
    public sealed interface Condition {
        record Text(String text) implements Condition {}

        record Element(String role, String name) implements Condition {}

        record Url(String url) implements Condition {}

        record Load() implements Condition {}
    }

    /** Polls the page until the condition holds or {@code timeout} passes; answers whether it matched. */
    public boolean waitFor(Condition condition, Duration timeout) {
        touch();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (holds(condition)) {
                return true;
            }
            if (System.nanoTime() >= deadline || !isAlive()) {
                return false;
            }
            try {
                Thread.sleep(Math.min(50, Math.max(1, (deadline - System.nanoTime()) / 1_000_000)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }

    private boolean holds(Condition condition) {
        if (condition instanceof Condition.Text text) {
            return channel.evaluate("(t => !!document.body && document.body.innerText.includes(t))", text.text())
                    .asBoolean(false);
        }
        if (condition instanceof Condition.Url wanted) {
            return events.url().equals(wanted.url())
                    || channel.evaluate("(() => location.href)()", null)
                            .asString("")
                            .equals(wanted.url());
        }
        if (condition instanceof Condition.Load) {
            return channel.evaluate("(() => document.readyState)()", null)
                    .asString("")
                    .equals("complete");
        }
        Condition.Element element = (Condition.Element) condition;
        return snapshots.hasElement(element.role(), element.name());
    }

    // ------------------------------------------------------------------ input

    /** What an input did: dispatched, whether the page let the default action happen, the scroll position, the retained value's length. */
    public record Action(
            boolean dispatched,
            Optional<Boolean> defaultAction,
            Optional<JsonNode> scrollPosition,
            Optional<Long> valueLength) {}

    public Action click(String snapshotId, String navigation, String ref) {
        touch();
        return input.click(snapshotId, navigation, ref);
    }

    public Action fill(String snapshotId, String navigation, String ref, String text) {
        touch();
        return input.fill(snapshotId, navigation, ref, text);
    }

    public Action key(String snapshotId, String navigation, String ref, String key) {
        touch();
        return input.key(snapshotId, navigation, ref, key);
    }

    /** Scrolls the viewport a snapshot named ({@code "viewport"} = the main document) by CSS pixels; answers the position seen afterwards. */
    public Action scroll(String snapshotId, String navigation, String viewportRef, double dx, double dy) {
        return input.scroll(snapshotId, navigation, viewportRef, dx, dy);
    }

    /** STALE_SNAPSHOT unless {@code snapshotId} is the page's current snapshot of the current navigation (checked before a receipt exists). */
    public void requireCurrent(String snapshotId, String navigation) {
        snapshots.current(snapshotId, navigation);
    }

    // ------------------------------------------------------------------ files

    /** Where an upload would go: the file input's frame, its origin and document, and its label. */
    public record UploadTarget(String frameId, String origin, String documentUrl, String label) {}

    /** The file input a current snapshot's ref names (INVALID_ARGUMENT when it is not one, or not in {@code frameId}). */
    public UploadTarget uploadTarget(String snapshotId, String navigation, String ref, String frameId) {
        return files.uploadTarget(snapshotId, navigation, ref, frameId);
    }

    /** Attaches {@code file} to the file input (the browser reads it from disk); the page sees input and change events. */
    public Action upload(String snapshotId, String navigation, String ref, String frameId, Path file) {
        touch();
        return files.upload(snapshotId, navigation, ref, frameId, file);
    }

    /** The directory (inside the private profile, deleted with it) where upload copies are written. */
    public Path uploadDirectory() {
        return chromium.profile().resolve("uploads");
    }

    /** Bytes fetched by a download. */
    public record Fetched(byte[] bytes, String contentType, int status) {}

    /** One same-origin GET by the page (see {@link PageFiles#download}). */
    public Fetched download(String address, long maxBytes) {
        touch();
        return files.download(address, maxBytes);
    }

    // ------------------------------------------------------------------ screenshots

    /** A PNG of the viewport and its geometry (CSS and pixel sizes, scale, scroll). */
    public record Capture(byte[] png, JsonNode geometry) {}

    /** The visible viewport as PNG, scaled down to at most {@code maxWidth} pixels wide. */
    public Capture screenshot(int maxWidth) {
        touch();
        JsonNode metrics = channel.send("Page.getLayoutMetrics", null);
        JsonNode css = metrics.path("cssVisualViewport");
        double width = css.path("clientWidth").asDouble(1280);
        double height = css.path("clientHeight").asDouble(800);
        double scale = Math.min(1.0, maxWidth / width);
        ObjectNode params = PageChannel.obj().put("format", "png").put("captureBeyondViewport", false);
        params.putObject("clip")
                .put("x", css.path("pageX").asDouble(0))
                .put("y", css.path("pageY").asDouble(0))
                .put("width", width)
                .put("height", height)
                .put("scale", scale);
        byte[] png = Base64.getDecoder()
                .decode(channel.send("Page.captureScreenshot", params)
                        .path("data")
                        .asString());
        ObjectNode geometry = PageChannel.obj();
        geometry.put("cssWidth", width)
                .put("cssHeight", height)
                .put("scale", scale)
                .put("pixelWidth", (long) Math.floor(width * scale))
                .put("pixelHeight", (long) Math.floor(height * scale))
                .put("zoom", css.path("zoom").asDouble(1))
                .put("scrollX", css.path("pageX").asDouble(0))
                .put("scrollY", css.path("pageY").asDouble(0));
        return new Capture(png, geometry);
    }

    // ------------------------------------------------------------------ logs

    /** One page of one log kind; {@code nextCursor} continues it within the same navigation. */
    public record LogPage(
            String navigationId,
            long captureStartedAtMillis,
            List<LogRing.Entry> entries,
            String nextCursor,
            long dropped,
            boolean hasMore) {}

    /** Entries after {@code cursor} (from the start without); a cursor of another navigation or page is CURSOR_EXPIRED. */
    public LogPage logs(LogKind kind, Optional<String> cursor, int limit) {
        touch();
        return events.logs(kind, cursor, limit);
    }

    private void touch() {
        lastUsed = clock.instant();
    }

    /** Closes the page (its profile lives on with its owner's other pages). */
    void close() {
        channel.markClosed();
        events.targets().close();
        chromium.closePage(targetId, channel.sessionId());
    }
}
