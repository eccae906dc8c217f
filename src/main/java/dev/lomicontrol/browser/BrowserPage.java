package dev.lomicontrol.browser;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.Ids;
import dev.lomicontrol.core.LomiException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Deque;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * One page (a browser panel's live document) in its owner's Chromium. Every request the page makes
 * pauses in the network layer ({@code Fetch.requestPaused}): a document load in any frame, and any
 * redirect, to an origin the owner's project has not approved fails there ({@code BlockedByClient})
 * before a byte is sent. {@code navigationId} changes with every committed main-frame document;
 * snapshot refs are valid for their snapshot only. Input is synthetic DOM events (not trusted gestures).
 */
public final class BrowserPage {

    private static final Logger log = LoggerFactory.getLogger(BrowserPage.class);
    static final int MAX_REFS = 500;
    /** What lomi_browser_logs reads. */
    public enum LogKind { JAVASCRIPT_ERROR, CONSOLE, PROMISE_REJECTION }

    private final Chromium chromium;
    private final String owner;
    private final String generation;
    private final String targetId;
    private final String sessionId;
    private final Predicate<String> originAllowed;
    private final Clock clock;
    private final RandomGenerator random;
    private final Duration timeout;
    private final Map<String, CompletableFuture<Void>> loads = new ConcurrentHashMap<>();
    private final Map<Integer, String> contexts = new ConcurrentHashMap<>();
    private final AtomicLong logSequence = new AtomicLong();
    private final Deque<String> blocked = new ArrayDeque<>();
    private final AtomicLong blockedTotal = new AtomicLong();
    private volatile String mainFrameId = "";
    private volatile String navigationId;
    private volatile String url = "about:blank";
    private volatile Instant lastUsed;
    private volatile boolean closed;
    private volatile Logs logs;
    private volatile Refs refs;

    private record Ref(String frameId, long backendNodeId) {}

    private record Refs(String snapshotId, String navigationId, Map<String, Ref> byRef, Map<String, String> viewports) {}

    private record Logs(String navigationId, long startedAtMillis, Map<LogKind, LogRing> rings) {}

    BrowserPage(Chromium chromium, String owner, String generation, Predicate<String> originAllowed, Clock clock, RandomGenerator random,
            Duration timeout) {
        this.chromium = chromium;
        this.owner = owner;
        this.generation = generation;
        this.originAllowed = originAllowed;
        this.clock = clock;
        this.random = random;
        this.timeout = timeout;
        this.lastUsed = clock.instant();
        this.navigationId = newId("nav");
        this.logs = freshLogs(navigationId);
        String[] ids = chromium.newPage(this::event);
        this.targetId = ids[0];
        this.sessionId = ids[1];
        ObjectNode patterns = obj();
        patterns.putArray("patterns").addObject().put("urlPattern", "*").put("requestStage", "Request");
        send("Fetch.enable", patterns);
        send("Page.enable", null);
        send("Page.setLifecycleEventsEnabled", obj().put("enabled", true));
        send("Runtime.enable", null);
        send("DOM.enable", null);
        send("Accessibility.enable", null);
        mainFrameId = send("Page.getFrameTree", null).path("frameTree").path("frame").path("id").asString();
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
        return navigationId;
    }

    public String mainFrameId() {
        return mainFrameId;
    }

    public String url() {
        return url;
    }

    /** The http(s) origin of the current document, or "null" (about:blank, an error page). */
    public String origin() {
        return Origins.of(url).orElse("null");
    }

    public boolean isAlive() {
        return !closed && chromium.isAlive();
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

    /** The result of a navigation: the new navigationId and whether the document committed and loaded. */
    public record Navigation(String navigationId, String url, boolean committed, boolean loaded) {}

    /**
     * Navigates the main frame; SCOPE_DENIED when the network layer refused the document or one of its
     * redirects (an origin not approved), DEADLINE_EXCEEDED when {@code waitLoad} and it did not load in time.
     */
    public Navigation navigate(String address, boolean waitLoad) {
        touch();
        long blockedBefore = blockedCount();
        JsonNode answer = send("Page.navigate", obj().put("url", address));
        String error = answer.path("errorText").asString("");
        if (!error.isEmpty()) {
            if (error.contains("ERR_BLOCKED_BY_CLIENT") || blockedCount() > blockedBefore) {
                throw new LomiException(ErrorCode.SCOPE_DENIED, "the browser refused to load " + lastBlocked().orElse(address)
                        + ": its origin is not approved for this project (redirects are checked too); nothing was loaded from it");
            }
            throw new LomiException(ErrorCode.TARGET_NOT_FOUND, "navigating to " + address + " failed: " + error);
        }
        String loaderId = answer.path("loaderId").asString("");
        boolean loaded = true;
        if (waitLoad && !loaderId.isEmpty()) {
            loaded = await(loads.computeIfAbsent(loaderId, k -> new CompletableFuture<>()), timeout);
        }
        return new Navigation(navigationId, url, true, loaded);
    }

    private static boolean await(CompletableFuture<Void> future, Duration timeout) {
        try {
            future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException e) {
            return false;
        }
    }

    // ------------------------------------------------------------------ snapshots

    /**
     * A fresh snapshot of at most {@code maxNodes} refs; earlier refs become stale. After the frame
     * tree, the document, every frame's accessibility tree and viewport are requested at once (one
     * round trip of latency, not one per read).
     */
    public PageSnapshot snapshot(int maxNodes) {
        touch();
        String navigation = navigationId;
        JsonNode tree = send("Page.getFrameTree", null).path("frameTree");
        String topOrigin = AxProjection.frameOrigin(tree.path("frame"));
        List<AxProjection.FrameInfo> infos = new ArrayList<>();
        int[] omittedFrames = {0};
        AxProjection.collectFrames(tree, 1, topOrigin, infos, omittedFrames);
        CompletableFuture<JsonNode> document = request("DOM.getDocument", obj().put("depth", -1).put("pierce", true));
        List<CompletableFuture<JsonNode>> trees = new ArrayList<>();
        List<CompletableFuture<JsonNode>> viewportsOf = new ArrayList<>();
        for (AxProjection.FrameInfo info : infos) {
            trees.add(request("Accessibility.getFullAXTree", obj().put("frameId", info.id())));
            viewportsOf.add(viewportOf(info.id(), info.main()));
        }
        Map<Long, JsonNode> dom = AxProjection.domNodes(await(document).path("root"));
        List<PageSnapshot.Frame> frames = new ArrayList<>();
        for (int i = 0; i < infos.size(); i++) {
            AxProjection.FrameInfo info = infos.get(i);
            JsonNode viewport = await(viewportsOf.get(i)).path("result").path("value");
            frames.add(new PageSnapshot.Frame(info.id(), info.parent(), info.origin(), info.url(), info.main() ? "viewport" : "viewport:" + info.id(),
                    viewport.isObject() ? viewport : obj()));
        }
        Map<String, Ref> byRef = new HashMap<>();
        Map<String, String> viewports = new HashMap<>();
        List<PageSnapshot.Element> elements = new ArrayList<>();
        int omitted = 0;
        int limit = Math.min(maxNodes, MAX_REFS);
        for (int i = 0; i < frames.size(); i++) {
            PageSnapshot.Frame frame = frames.get(i);
            viewports.put(frame.viewportRef(), frame.frameId());
            for (AxProjection.Candidate candidate : AxProjection.candidates(await(trees.get(i)).path("nodes"), dom)) {
                if (elements.size() >= limit) {
                    omitted++;
                    continue;
                }
                String ref = "e" + (elements.size() + 1);
                byRef.put(ref, new Ref(frame.frameId(), candidate.backendNodeId()));
                elements.add(new PageSnapshot.Element(frame.frameId(), ref, candidate.role(), candidate.name(), candidate.enabled(), candidate.editable(),
                        candidate.checked(), candidate.valueLength()));
            }
        }
        String snapshotId = newId("snp");
        refs = new Refs(snapshotId, navigation, byRef, viewports);
        JsonNode viewport = frames.isEmpty() ? obj() : frames.get(0).viewport();
        return new PageSnapshot(snapshotId, navigation, mainFrameId, origin(), url, clock.instant(), viewport, frames, elements, omitted,
                omittedFrames[0]);
    }

    private List<AxProjection.Candidate> candidates(String frameId, Map<Long, JsonNode> dom) {
        return AxProjection.candidates(send("Accessibility.getFullAXTree", obj().put("frameId", frameId)).path("nodes"), dom);
    }

    private Map<Long, JsonNode> domNodes() {
        return AxProjection.domNodes(send("DOM.getDocument", obj().put("depth", -1).put("pierce", true)).path("root"));
    }

    /** The frame's {width, height, deviceScaleFactor} as a Runtime.evaluate answer (frames other than the main one in an isolated world). */
    private CompletableFuture<JsonNode> viewportOf(String frameId, boolean main) {
        ObjectNode params = obj().put("expression", "({width: innerWidth, height: innerHeight, deviceScaleFactor: devicePixelRatio})")
                .put("returnByValue", true);
        if (main) {
            return request("Runtime.evaluate", params);
        }
        return request("Page.createIsolatedWorld", obj().put("frameId", frameId).put("worldName", "lomi"))
                .thenCompose(world -> request("Runtime.evaluate", params.put("contextId", world.path("executionContextId").asInt())));
    }

    // ------------------------------------------------------------------ waiting

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
            return evaluate("(t => !!document.body && document.body.innerText.includes(t))", text.text()).asBoolean(false);
        }
        if (condition instanceof Condition.Url wanted) {
            return url.equals(wanted.url()) || evaluate("(() => location.href)()", null).asString("").equals(wanted.url());
        }
        if (condition instanceof Condition.Load) {
            return evaluate("(() => document.readyState)()", null).asString("").equals("complete");
        }
        Condition.Element element = (Condition.Element) condition;
        Map<Long, JsonNode> dom = domNodes();
        JsonNode tree = send("Page.getFrameTree", null).path("frameTree");
        for (String frame : AxProjection.sameOriginFrames(tree, AxProjection.frameOrigin(tree.path("frame")), 1, new ArrayList<>())) {
            for (AxProjection.Candidate candidate : candidates(frame, dom)) {
                if (candidate.role().equals(element.role()) && candidate.name().equals(element.name())) {
                    return true;
                }
            }
        }
        return false;
    }

    // ------------------------------------------------------------------ input

    /** What an input did: dispatched, whether the page let the default action happen, the scroll position, the retained value's length. */
    public record Action(boolean dispatched, Optional<Boolean> defaultAction, Optional<JsonNode> scrollPosition, Optional<Long> valueLength) {}

    private static final String CLICK = "function() {"
            + " if (this.tagName === 'INPUT' && String(this.type).toLowerCase() === 'file') return {refused: 'a file input is only filled by lomi_browser_upload'};"
            + " const a = this.closest ? this.closest('a[download]') : null; if (a) return {refused: 'a download link is only fetched by lomi_browser_download'};"
            + " if (this.scrollIntoView) this.scrollIntoView({block: 'center', inline: 'center'}); if (this.focus) this.focus();"
            + " const r = this.getBoundingClientRect ? this.getBoundingClientRect() : {left: 0, top: 0, width: 0, height: 0};"
            + " const o = {bubbles: true, cancelable: true, composed: true, view: window, clientX: r.left + r.width / 2, clientY: r.top + r.height / 2, button: 0};"
            + " this.dispatchEvent(new PointerEvent('pointerdown', o)); this.dispatchEvent(new MouseEvent('mousedown', o));"
            + " this.dispatchEvent(new PointerEvent('pointerup', o)); this.dispatchEvent(new MouseEvent('mouseup', o));"
            + " const d = this.dispatchEvent(new MouseEvent('click', o)); return {dispatched: true, defaultAction: d}; }";

    private static final String FILL = "function(text) { const el = this;"
            + " if (el.isContentEditable) { el.focus(); el.textContent = text; el.dispatchEvent(new InputEvent('input', {bubbles: true}));"
            + " return {dispatched: true, length: el.textContent.length}; }"
            + " const tag = el.tagName;"
            + " if (tag !== 'INPUT' && tag !== 'TEXTAREA' && tag !== 'SELECT') return {refused: 'not an input, textarea, select or contenteditable'};"
            + " if (tag === 'INPUT' && ['file','checkbox','radio','button','submit','reset','image','hidden','range','color'].includes(String(el.type).toLowerCase()))"
            + " return {refused: 'an input of type ' + el.type + ' is not filled with text'};"
            + " if (el.disabled || el.readOnly) return {refused: 'the field is disabled or read-only'};"
            + " el.focus(); const proto = tag === 'INPUT' ? HTMLInputElement.prototype : tag === 'TEXTAREA' ? HTMLTextAreaElement.prototype : HTMLSelectElement.prototype;"
            + " Object.getOwnPropertyDescriptor(proto, 'value').set.call(el, text);"
            + " el.dispatchEvent(new Event('input', {bubbles: true})); el.dispatchEvent(new Event('change', {bubbles: true}));"
            + " return {dispatched: true, length: String(el.value).length}; }";

    private static final String KEY = "function(key) { if (this.focus) this.focus(); const t = document.activeElement || this;"
            + " const o = {key: key, code: key, bubbles: true, cancelable: true, composed: true};"
            + " t.dispatchEvent(new KeyboardEvent('keydown', o)); t.dispatchEvent(new KeyboardEvent('keyup', o)); return {dispatched: true}; }";

    public Action click(String snapshotId, String navigation, String ref) {
        return act(snapshotId, navigation, ref, CLICK, null, false);
    }

    public Action fill(String snapshotId, String navigation, String ref, String text) {
        return act(snapshotId, navigation, ref, FILL, text, true);
    }

    public Action key(String snapshotId, String navigation, String ref, String key) {
        Action done = act(snapshotId, navigation, ref, KEY, key, false);
        return new Action(done.dispatched(), Optional.of(false), Optional.empty(), Optional.empty());
    }

    /** Scrolls the viewport a snapshot named ({@code "viewport"} = the main document) by CSS pixels; answers the position seen afterwards. */
    public Action scroll(String snapshotId, String navigation, String viewportRef, double dx, double dy) {
        Refs current = current(snapshotId, navigation);
        String frame = current.viewports().get(viewportRef);
        if (frame == null) {
            throw new LomiException(ErrorCode.TARGET_NOT_FOUND, "snapshot " + snapshotId + " has no viewport " + viewportRef);
        }
        ArrayNode args = JsonNodeFactory.instance.arrayNode().add(dx).add(dy);
        JsonNode position = evaluateIn(frame, frame.equals(mainFrameId),
                "((dx, dy) => { scrollBy(dx, dy); return {x: scrollX, y: scrollY}; })(" + args.get(0) + ", " + args.get(1) + ")");
        return new Action(true, Optional.empty(), Optional.of(position), Optional.empty());
    }

    private Action act(String snapshotId, String navigation, String ref, String function, String argument, boolean fill) {
        touch();
        Ref target = resolve(snapshotId, navigation, ref);
        JsonNode answer = callOn(target, function, argument);
        if (answer.has("refused")) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, ref + ": " + answer.path("refused").asString());
        }
        Optional<Boolean> defaultAction = answer.has("defaultAction") ? Optional.of(answer.path("defaultAction").asBoolean()) : Optional.empty();
        Optional<Long> length = fill ? Optional.of(answer.path("length").asLong()) : Optional.empty();
        return new Action(answer.path("dispatched").asBoolean(false), defaultAction, Optional.empty(), length);
    }

    /** STALE_SNAPSHOT unless {@code snapshotId} is the page's current snapshot of the current navigation (checked before a receipt exists). */
    public void requireCurrent(String snapshotId, String navigation) {
        current(snapshotId, navigation);
    }

    /** The element a current snapshot's ref names; STALE_SNAPSHOT after a new snapshot, a navigation, or when the node is gone. */
    private Ref resolve(String snapshotId, String navigation, String ref) {
        Ref target = current(snapshotId, navigation).byRef().get(ref);
        if (target == null) {
            throw new LomiException(ErrorCode.TARGET_NOT_FOUND, "snapshot " + snapshotId + " has no element " + ref);
        }
        return target;
    }

    private Refs current(String snapshotId, String navigation) {
        Refs current = refs;
        if (!navigation.equals(navigationId)) {
            throw new LomiException(ErrorCode.STALE_SNAPSHOT, "navigation " + navigation + " is over (the page is now " + navigationId
                    + "); take a new snapshot");
        }
        if (current == null || !current.snapshotId().equals(snapshotId) || !current.navigationId().equals(navigation)) {
            throw new LomiException(ErrorCode.STALE_SNAPSHOT, "snapshot " + snapshotId + " is not the page's current snapshot; take a new one");
        }
        return current;
    }

    private JsonNode callOn(Ref target, String function, String argument) {
        String objectId;
        try {
            objectId = send("DOM.resolveNode", obj().put("backendNodeId", target.backendNodeId())).path("object").path("objectId").asString("");
        } catch (LomiException e) {
            throw new LomiException(ErrorCode.STALE_SNAPSHOT, "the element is no longer in the page; take a new snapshot");
        }
        if (objectId.isEmpty()) {
            throw new LomiException(ErrorCode.STALE_SNAPSHOT, "the element is no longer in the page; take a new snapshot");
        }
        ObjectNode params = obj().put("objectId", objectId).put("functionDeclaration", function).put("returnByValue", true).put("awaitPromise", true);
        if (argument != null) {
            params.putArray("arguments").addObject().put("value", argument);
        }
        JsonNode answer = send("Runtime.callFunctionOn", params);
        send("Runtime.releaseObject", obj().put("objectId", objectId));
        if (answer.has("exceptionDetails")) {
            throw new LomiException(ErrorCode.TARGET_NOT_FOUND, "the page threw: " + answer.path("exceptionDetails").path("text").asString());
        }
        return answer.path("result").path("value");
    }

    // ------------------------------------------------------------------ uploads

    /** Where an upload would go: the file input's frame, its origin and document, and its label. */
    public record UploadTarget(String frameId, String origin, String documentUrl, String label) {}

    /** The file input a current snapshot's ref names (INVALID_ARGUMENT when it is not one, or not in {@code frameId}). */
    public UploadTarget uploadTarget(String snapshotId, String navigation, String ref, String frameId) {
        Ref target = resolve(snapshotId, navigation, ref);
        if (!target.frameId().equals(frameId)) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, ref + " is in frame " + target.frameId() + ", not " + frameId);
        }
        JsonNode info = callOn(target, "function() { return {file: this.tagName === 'INPUT' && String(this.type).toLowerCase() === 'file',"
                + " disabled: !!this.disabled, url: document.URL, label: (this.labels && this.labels[0] ? this.labels[0].innerText : '') || this.name || this.id || ''}; }", null);
        if (!info.path("file").asBoolean(false)) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, ref + " is not a file input");
        }
        if (info.path("disabled").asBoolean(false)) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, ref + " is a disabled file input");
        }
        String documentUrl = info.path("url").asString();
        return new UploadTarget(frameId, Origins.of(documentUrl).orElse("null"), documentUrl, LogRing.cut(info.path("label").asString("").strip()));
    }

    /** Attaches {@code file} to the file input (the browser reads it from disk); the page sees input and change events. */
    public Action upload(String snapshotId, String navigation, String ref, String frameId, Path file) {
        touch();
        uploadTarget(snapshotId, navigation, ref, frameId);
        Ref target = resolve(snapshotId, navigation, ref);
        ObjectNode params = obj().put("backendNodeId", target.backendNodeId());
        params.putArray("files").add(file.toString());
        send("DOM.setFileInputFiles", params);
        return new Action(true, Optional.empty(), Optional.empty(), Optional.empty());
    }

    /** The directory (inside the private profile, deleted with it) where upload copies are written. */
    public Path uploadDirectory() {
        return chromium.profile().resolve("uploads");
    }

    // ------------------------------------------------------------------ downloads

    /** Bytes fetched by a download. */
    public record Fetched(byte[] bytes, String contentType, int status) {}

    private static final String DOWNLOAD = "(async (url, max) => { const c = new AbortController(); const t = setTimeout(() => c.abort(), 5000);"
            + " try { const r = await fetch(url, {redirect: 'error', signal: c.signal, credentials: 'same-origin', cache: 'no-store'});"
            + " if (!r.ok) return {status: r.status}; const reader = r.body.getReader(); const parts = []; let n = 0;"
            + " while (true) { const {done, value} = await reader.read(); if (done) break; n += value.length;"
            + " if (n > max) { c.abort(); return {tooLarge: n}; } parts.push(value); }"
            + " let s = ''; for (const p of parts) { for (let i = 0; i < p.length; i += 32768) s += String.fromCharCode.apply(null, p.subarray(i, i + 32768)); }"
            + " return {status: r.status, type: r.headers.get('content-type') || '', data: btoa(s)};"
            + " } catch (e) { return {error: c.signal.aborted ? 'timeout' : String(e)}; } finally { clearTimeout(t); } })";

    /**
     * One GET of a same-origin address by the page itself (its cookies), no redirects, 5 s, at most
     * {@code maxBytes}: SCOPE_DENIED for another origin or a redirect, ARTIFACT_TOO_LARGE beyond the
     * limit, DEADLINE_EXCEEDED after 5 s.
     */
    public Fetched download(String address, long maxBytes) {
        touch();
        String origin = origin();
        if (origin.equals("null") || !Origins.of(address).orElse("").equals(origin)) {
            throw new LomiException(ErrorCode.SCOPE_DENIED, address + " is not on the current document's origin " + origin);
        }
        if (!originAllowed.test(origin)) {
            throw new LomiException(ErrorCode.SCOPE_DENIED, origin + " is not an approved origin of this project");
        }
        JsonNode answer = send("Runtime.evaluate", obj().put("expression", DOWNLOAD + "(" + CdpConnection.JSON.writeValueAsString(address) + ", " + maxBytes + ")")
                .put("awaitPromise", true).put("returnByValue", true), Duration.ofSeconds(15));
        JsonNode value = answer.path("result").path("value");
        if (value.has("tooLarge")) {
            throw new LomiException(ErrorCode.ARTIFACT_TOO_LARGE, address + " is larger than maxBytes " + maxBytes);
        }
        if (value.has("error")) {
            if (value.path("error").asString().equals("timeout")) {
                throw new LomiException(ErrorCode.DEADLINE_EXCEEDED, address + " did not arrive within 5 s");
            }
            throw new LomiException(ErrorCode.SCOPE_DENIED, address + " was refused (a redirect, or refused in the network layer): "
                    + value.path("error").asString());
        }
        int status = value.path("status").asInt();
        if (!value.has("data")) {
            throw new LomiException(ErrorCode.TARGET_NOT_FOUND, address + " answered HTTP " + status);
        }
        return new Fetched(Base64.getDecoder().decode(value.path("data").asString()), value.path("type").asString(""), status);
    }

    // ------------------------------------------------------------------ screenshots

    /** A PNG of the viewport and its geometry (CSS and pixel sizes, scale, scroll). */
    public record Capture(byte[] png, JsonNode geometry) {}

    /** The visible viewport as PNG, scaled down to at most {@code maxWidth} pixels wide. */
    public Capture screenshot(int maxWidth) {
        touch();
        JsonNode metrics = send("Page.getLayoutMetrics", null);
        JsonNode css = metrics.path("cssVisualViewport");
        double width = css.path("clientWidth").asDouble(1280);
        double height = css.path("clientHeight").asDouble(800);
        double scale = Math.min(1.0, maxWidth / width);
        ObjectNode params = obj().put("format", "png").put("captureBeyondViewport", false);
        params.putObject("clip").put("x", css.path("pageX").asDouble(0)).put("y", css.path("pageY").asDouble(0)).put("width", width)
                .put("height", height).put("scale", scale);
        byte[] png = Base64.getDecoder().decode(send("Page.captureScreenshot", params).path("data").asString());
        ObjectNode geometry = obj();
        geometry.put("cssWidth", width).put("cssHeight", height).put("scale", scale).put("pixelWidth", (long) Math.floor(width * scale))
                .put("pixelHeight", (long) Math.floor(height * scale)).put("zoom", css.path("zoom").asDouble(1)).put("scrollX", css.path("pageX").asDouble(0))
                .put("scrollY", css.path("pageY").asDouble(0));
        return new Capture(png, geometry);
    }

    // ------------------------------------------------------------------ logs

    /** One page of one log kind; {@code nextCursor} continues it within the same navigation. */
    public record LogPage(String navigationId, long captureStartedAtMillis, List<LogRing.Entry> entries, String nextCursor, long dropped, boolean hasMore) {}

    /** Entries after {@code cursor} (from the start without); a cursor of another navigation or page is CURSOR_EXPIRED. */
    public LogPage logs(LogKind kind, Optional<String> cursor, int limit) {
        touch();
        Logs current = logs;
        long after = 0;
        if (cursor.isPresent()) {
            String[] parts = cursor.get().split("\\.", -1);
            if (parts.length != 3 || !parts[0].equals("log") || !parts[1].equals(current.navigationId()) || !parts[2].matches("[0-9]{1,18}")) {
                throw new LomiException(ErrorCode.CURSOR_EXPIRED, "this cursor belongs to another document or page; read again without a cursor");
            }
            after = Long.parseLong(parts[2]);
        }
        LogRing.Page page = current.rings().get(kind).after(after, limit);
        long last = page.entries().isEmpty() ? after : page.entries().get(page.entries().size() - 1).sequence();
        return new LogPage(current.navigationId(), current.startedAtMillis(), page.entries(), "log." + current.navigationId() + "." + last, page.dropped(),
                page.hasMore());
    }

    private Logs freshLogs(String navigation) {
        Map<LogKind, LogRing> rings = new EnumMap<>(LogKind.class);
        for (LogKind kind : LogKind.values()) {
            rings.put(kind, new LogRing());
        }
        return new Logs(navigation, clock.millis(), rings);
    }

    // ------------------------------------------------------------------ events

    private void event(JsonNode message) {
        String method = message.path("method").asString("");
        JsonNode params = message.path("params");
        switch (method) {
            case "Fetch.requestPaused":
                paused(params);
                break;
            case "Page.frameNavigated":
                JsonNode frame = params.path("frame");
                if (!frame.has("parentId")) {
                    mainFrameId = frame.path("id").asString();
                    url = frame.path("url").asString("about:blank");
                    String navigation = newId("nav");
                    logs = freshLogs(navigation);
                    navigationId = navigation;
                    contexts.clear();
                }
                break;
            case "Page.navigatedWithinDocument":
                if (params.path("frameId").asString().equals(mainFrameId)) {
                    url = params.path("url").asString(url);
                }
                break;
            case "Page.lifecycleEvent":
                if (params.path("name").asString().equals("load") && params.path("frameId").asString().equals(mainFrameId)) {
                    loads.computeIfAbsent(params.path("loaderId").asString(), k -> new CompletableFuture<>()).complete(null);
                    if (loads.size() > 64) {
                        loads.entrySet().removeIf(e -> e.getValue().isDone());
                    }
                }
                break;
            case "Runtime.executionContextCreated":
                JsonNode context = params.path("context");
                if (context.path("auxData").path("isDefault").asBoolean(false)) {
                    contexts.put(context.path("id").asInt(), context.path("auxData").path("frameId").asString());
                }
                break;
            case "Runtime.consoleAPICalled":
                if (isMainDocument(params.path("executionContextId").asInt())) {
                    logs.rings().get(LogKind.CONSOLE).add(logSequence.incrementAndGet(), clock.millis(), consoleText(params.path("args")),
                            Optional.of(params.path("type").asString("log")));
                }
                break;
            case "Runtime.exceptionThrown":
                JsonNode details = params.path("exceptionDetails");
                if (details.has("executionContextId") && !isMainDocument(details.path("executionContextId").asInt())) {
                    break;
                }
                String text = details.path("exception").path("description").asString(details.path("text").asString("error"));
                boolean rejection = details.path("text").asString("").contains("(in promise)");
                logs.rings().get(rejection ? LogKind.PROMISE_REJECTION : LogKind.JAVASCRIPT_ERROR).add(logSequence.incrementAndGet(), clock.millis(),
                        text, Optional.empty());
                break;
            case "Inspector.detached":
            case "Target.targetCrashed":
            case "lomi.disconnected":
                closed = true;
                break;
            default:
                break;
        }
    }

    private boolean isMainDocument(int contextId) {
        String frame = contexts.get(contextId);
        return frame == null || frame.equals(mainFrameId);
    }

    private static String consoleText(JsonNode args) {
        StringBuilder text = new StringBuilder();
        for (JsonNode arg : args) {
            if (text.length() > 0) {
                text.append(' ');
            }
            JsonNode value = arg.get("value");
            text.append(value != null && !value.isNull() ? (value.isString() ? value.asString() : value.toString())
                    : arg.path("description").asString(arg.path("type").asString("")));
            if (text.length() > LogRing.MAX_UNITS) {
                break;
            }
        }
        return text.toString();
    }

    /**
     * The network rule, applied to every request before it is sent: a document (any frame) or a
     * redirect hop goes only to an approved http(s) origin; everything else the approved document
     * loads (scripts, images, fetches) continues — an origin grant restricts navigation, not
     * subresource traffic (networkIsolation "none", as in the reference).
     */
    private void paused(JsonNode params) {
        String requestId = params.path("requestId").asString();
        String target = params.path("request").path("url").asString("");
        boolean document = params.path("resourceType").asString("").equals("Document");
        boolean redirect = params.has("redirectedRequestId");
        Optional<String> origin = Origins.of(target);
        boolean allowed = !(document || redirect) || (origin.isPresent() && originAllowed.test(origin.get()));
        if (allowed) {
            chromium.sendAsync(sessionId, "Fetch.continueRequest", obj().put("requestId", requestId));
            return;
        }
        blockedTotal.incrementAndGet();
        synchronized (blocked) {
            blocked.addLast(target);
            if (blocked.size() > 16) {
                blocked.removeFirst();
            }
        }
        log.info("browser {}: refused {} ({}): origin not approved", generation, target, document ? "document" : "redirect");
        chromium.sendAsync(sessionId, "Fetch.failRequest", obj().put("requestId", requestId).put("errorReason", "BlockedByClient"));
    }

    private long blockedCount() {
        return blockedTotal.get();
    }

    private Optional<String> lastBlocked() {
        synchronized (blocked) {
            return Optional.ofNullable(blocked.peekLast());
        }
    }

    // ------------------------------------------------------------------ plumbing

    private JsonNode evaluate(String function, String argument) {
        String expression = argument == null ? function : function + "(" + CdpConnection.JSON.writeValueAsString(argument) + ")";
        JsonNode answer = send("Runtime.evaluate", obj().put("expression", expression).put("returnByValue", true));
        return answer.path("result").path("value");
    }

    /** Evaluates in a frame's own world (an isolated world, so the page's scripts cannot interfere); the main frame uses the page's. */
    private JsonNode evaluateIn(String frameId, boolean main, String expression) {
        ObjectNode params = obj().put("expression", expression).put("returnByValue", true);
        if (!main) {
            int context = send("Page.createIsolatedWorld", obj().put("frameId", frameId).put("worldName", "lomi")).path("executionContextId").asInt();
            params.put("contextId", context);
        }
        return send("Runtime.evaluate", params).path("result").path("value");
    }

    private JsonNode send(String method, ObjectNode params) {
        return send(method, params, timeout);
    }

    private CompletableFuture<JsonNode> request(String method, ObjectNode params) {
        if (closed) {
            return CompletableFuture.failedFuture(new LomiException(ErrorCode.TARGET_NOT_FOUND, "browser " + generation + " is closed; open a new one"));
        }
        return chromium.request(sessionId, method, params);
    }

    /** The answer of a request in flight, as {@link CdpConnection#send} would have answered it. */
    private JsonNode await(CompletableFuture<JsonNode> answer) {
        try {
            return answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new LomiException(ErrorCode.DEADLINE_EXCEEDED, "the browser did not answer within " + timeout.toMillis() + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LomiException(ErrorCode.APP_CLOSING, "interrupted while waiting for the browser");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() instanceof java.util.concurrent.CompletionException c && c.getCause() != null ? c.getCause() : e.getCause();
            throw cause instanceof LomiException refusal ? refusal : new LomiException(ErrorCode.TARGET_NOT_FOUND, "the browser failed: " + cause);
        }
    }

    private JsonNode send(String method, ObjectNode params, Duration wait) {
        if (closed) {
            throw new LomiException(ErrorCode.TARGET_NOT_FOUND, "browser " + generation + " is closed; open a new one");
        }
        return chromium.send(sessionId, method, params, wait);
    }

    private void touch() {
        lastUsed = clock.instant();
    }

    private String newId(String prefix) {
        return prefix + "-" + Ids.randomHex(random, 8);
    }

    private static ObjectNode obj() {
        return JsonNodeFactory.instance.objectNode();
    }

    /** Closes the page (its profile lives on with its owner's other pages). */
    void close() {
        closed = true;
        chromium.closePage(targetId, sessionId);
    }
}
