package dev.lomicontrol.browser;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.Ids;
import dev.lomicontrol.core.LomiException;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/**
 * What a page's protocol events tell (on the connection's single event thread, in order): the
 * current main-frame document (url, a new {@code navigationId} per committed document), its frames
 * and script contexts, loads, the three log rings of the current document, and the network rule
 * every paused request passes before it is sent.
 */
final class PageEvents {

    private static final Logger log = LoggerFactory.getLogger(PageEvents.class);

    /** The protocol events {@link #on} reads; the connection does not parse the others. */
    static final Set<String> READ = Set.of(
            "Fetch.requestPaused",
            "Page.frameNavigated",
            "Page.frameDetached",
            "Page.navigatedWithinDocument",
            "Page.lifecycleEvent",
            "Runtime.executionContextCreated",
            "Runtime.executionContextDestroyed",
            "Runtime.executionContextsCleared",
            "Runtime.consoleAPICalled",
            "Runtime.exceptionThrown",
            "Inspector.detached",
            "Target.targetCrashed");

    private final PageChannel channel;
    private final String generation;
    private final Predicate<String> originAllowed;
    private final Clock clock;
    private final RandomGenerator random;
    private final Map<String, CompletableFuture<Void>> loads = new ConcurrentHashMap<>();
    /** Default script contexts of the page's documents: context id → frame id. */
    private final Map<Integer, String> contexts = new ConcurrentHashMap<>();
    /** The page's frames as its events announce them (id → document url), main frame included. */
    private final Map<String, String> frameUrls = new ConcurrentSkipListMap<>();

    private final AtomicLong logSequence = new AtomicLong();
    private final Deque<String> blocked = new ArrayDeque<>();
    private final AtomicLong blockedTotal = new AtomicLong();
    private volatile String mainFrameId = "";
    private volatile String navigationId;
    private volatile String url = "about:blank";
    private volatile Logs logs;

    /** The log rings of one document. */
    record Logs(String navigationId, long startedAtMillis, Map<BrowserPage.LogKind, LogRing> rings) {

        /** The ring of one kind: every kind has one from the start of the navigation. */
        LogRing ring(BrowserPage.LogKind kind) {
            return Objects.requireNonNull(rings.get(kind), () -> "no ring for " + kind);
        }
    }

    PageEvents(
            PageChannel channel,
            String generation,
            Predicate<String> originAllowed,
            Clock clock,
            RandomGenerator random) {
        this.channel = channel;
        this.generation = generation;
        this.originAllowed = originAllowed;
        this.clock = clock;
        this.random = random;
        this.navigationId = newId("nav");
        this.logs = freshLogs(navigationId);
    }

    String mainFrameId() {
        return mainFrameId;
    }

    void mainFrame(String frameId) {
        mainFrameId = frameId;
    }

    String navigationId() {
        return navigationId;
    }

    String url() {
        return url;
    }

    Logs logs() {
        return logs;
    }

    Predicate<String> originAllowed() {
        return originAllowed;
    }

    /** Completes when the main frame's document of {@code loaderId} has loaded. */
    CompletableFuture<Void> load(String loaderId) {
        return loads.computeIfAbsent(loaderId, k -> new CompletableFuture<>());
    }

    long blockedCount() {
        return blockedTotal.get();
    }

    Optional<String> lastBlocked() {
        synchronized (blocked) {
            return Optional.ofNullable(blocked.peekLast());
        }
    }

    /** The default script context the events announced for {@code frameId}'s current document. */
    Optional<Integer> contextOf(String frameId) {
        return contexts.entrySet().stream()
                .filter(e -> e.getValue().equals(frameId))
                .map(Map.Entry::getKey)
                .findFirst();
    }

    /** The main frame and the frames the events announced on its origin (at most 16): a guess a frame tree answer checks. */
    List<String> announcedFrames() {
        List<String> out = new ArrayList<>();
        String main = mainFrameId;
        out.add(main);
        String topOrigin = Origins.of(url).orElse("null");
        for (Map.Entry<String, String> frame : frameUrls.entrySet()) {
            if (out.size() >= AxProjection.MAX_FRAMES) {
                break;
            }
            if (!frame.getKey().equals(main)
                    && Origins.of(frame.getValue()).orElse("null").equals(topOrigin)) {
                out.add(frame.getKey());
            }
        }
        return out;
    }

    /** Entries after {@code cursor} (from the start without); a cursor of another navigation or page is CURSOR_EXPIRED. */
    BrowserPage.LogPage logs(BrowserPage.LogKind kind, Optional<String> cursor, int limit) {
        Logs current = logs;
        long after = 0;
        if (cursor.isPresent()) {
            String[] parts = cursor.get().split("\\.", -1);
            if (parts.length != 3
                    || !parts[0].equals("log")
                    || !parts[1].equals(current.navigationId())
                    || !parts[2].matches("[0-9]{1,18}")) {
                throw new LomiException(
                        ErrorCode.CURSOR_EXPIRED,
                        "this cursor belongs to another document or page; read again without a cursor");
            }
            after = Long.parseLong(parts[2]);
        }
        LogRing.Page page = current.ring(kind).after(after, limit);
        long last = page.entries().isEmpty()
                ? after
                : page.entries().get(page.entries().size() - 1).sequence();
        return new BrowserPage.LogPage(
                current.navigationId(),
                current.startedAtMillis(),
                page.entries(),
                "log." + current.navigationId() + "." + last,
                page.dropped(),
                page.hasMore());
    }

    private Logs freshLogs(String navigation) {
        Map<BrowserPage.LogKind, LogRing> rings = new EnumMap<>(BrowserPage.LogKind.class);
        for (BrowserPage.LogKind kind : BrowserPage.LogKind.values()) {
            rings.put(kind, new LogRing());
        }
        return new Logs(navigation, clock.millis(), rings);
    }

    /** One protocol event of the page. */
    void on(JsonNode message) {
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
                    frameUrls.clear();
                }
                frameUrls.put(frame.path("id").asString(), frame.path("url").asString(""));
                break;
            case "Page.frameDetached":
                frameUrls.remove(params.path("frameId").asString());
                break;
            case "Runtime.executionContextDestroyed":
                contexts.remove(params.path("executionContextId").asInt());
                break;
            case "Runtime.executionContextsCleared":
                contexts.clear();
                break;
            case "Page.navigatedWithinDocument":
                if (params.path("frameId").asString().equals(mainFrameId)) {
                    url = params.path("url").asString(url);
                }
                break;
            case "Page.lifecycleEvent":
                if (params.path("name").asString().equals("load")
                        && params.path("frameId").asString().equals(mainFrameId)) {
                    load(params.path("loaderId").asString()).complete(null);
                    if (loads.size() > 64) {
                        loads.entrySet().removeIf(e -> e.getValue().isDone());
                    }
                }
                break;
            case "Runtime.executionContextCreated":
                JsonNode context = params.path("context");
                if (context.path("auxData").path("isDefault").asBoolean(false)) {
                    contexts.put(
                            context.path("id").asInt(),
                            context.path("auxData").path("frameId").asString());
                }
                break;
            case "Runtime.consoleAPICalled":
                if (isMainDocument(params.path("executionContextId").asInt())) {
                    logs.ring(BrowserPage.LogKind.CONSOLE)
                            .add(
                                    logSequence.incrementAndGet(),
                                    clock.millis(),
                                    consoleText(params.path("args")),
                                    Optional.of(params.path("type").asString("log")));
                }
                break;
            case "Runtime.exceptionThrown":
                JsonNode details = params.path("exceptionDetails");
                if (details.has("executionContextId")
                        && !isMainDocument(details.path("executionContextId").asInt())) {
                    break;
                }
                String text = details.path("exception")
                        .path("description")
                        .asString(details.path("text").asString("error"));
                boolean rejection = details.path("text").asString("").contains("(in promise)");
                logs.ring(rejection ? BrowserPage.LogKind.PROMISE_REJECTION : BrowserPage.LogKind.JAVASCRIPT_ERROR)
                        .add(logSequence.incrementAndGet(), clock.millis(), text, Optional.empty());
                break;
            case CdpConnection.OVERSIZED:
                oversized(params);
                break;
            case CdpConnection.DROPPED:
                logs.ring(
                                params.path("method").asString().equals("Runtime.consoleAPICalled")
                                        ? BrowserPage.LogKind.CONSOLE
                                        : BrowserPage.LogKind.JAVASCRIPT_ERROR)
                        .lost(params.path("count").asLong());
                break;
            case "Inspector.detached":
            case "Target.targetCrashed":
            case "lomi.disconnected":
                channel.markClosed();
                break;
            default:
                break;
        }
    }

    /**
     * An event over the connection's cap, skipped unread (security review 2026-12-06, N3): a paused
     * request is refused (nothing checked it); a log leaves an entry saying what was not kept.
     */
    private void oversized(JsonNode params) {
        String method = params.path("method").asString("");
        long bytes = params.path("bytes").asLong();
        String note = "[a message of " + bytes + " bytes was not kept: the broker reads at most "
                + (params.path("cap").asLong() >> 10) + " KiB of one " + method + " event]";
        switch (method) {
            case "Fetch.requestPaused":
                if (params.has("requestId")) {
                    blockedTotal.incrementAndGet();
                    log.info("browser {}: refused a request whose description is {} bytes", generation, bytes);
                    channel.sendAndForget(
                            "Fetch.failRequest",
                            PageChannel.obj()
                                    .put("requestId", params.path("requestId").asString())
                                    .put("errorReason", "BlockedByClient"));
                }
                break;
            case "Runtime.consoleAPICalled":
                logs.ring(BrowserPage.LogKind.CONSOLE)
                        .add(
                                logSequence.incrementAndGet(),
                                clock.millis(),
                                note,
                                Optional.of(params.path("type").asString("log")));
                break;
            case "Runtime.exceptionThrown":
                logs.ring(BrowserPage.LogKind.JAVASCRIPT_ERROR)
                        .add(logSequence.incrementAndGet(), clock.millis(), note, Optional.empty());
                break;
            default:
                break; // logged by the connection
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
            text.append(
                    value != null && !value.isNull()
                            ? (value.isString() ? value.asString() : value.toString())
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
            channel.sendAndForget("Fetch.continueRequest", PageChannel.obj().put("requestId", requestId));
            return;
        }
        blockedTotal.incrementAndGet();
        synchronized (blocked) {
            blocked.addLast(target);
            if (blocked.size() > 16) {
                blocked.removeFirst();
            }
        }
        log.info(
                "browser {}: refused {} ({}): origin not approved",
                generation,
                Origins.forLog(target),
                document ? "document" : "redirect");
        channel.sendAndForget(
                "Fetch.failRequest",
                PageChannel.obj().put("requestId", requestId).put("errorReason", "BlockedByClient"));
    }

    String newId(String prefix) {
        return prefix + "-" + Ids.randomHex(random, 8);
    }
}
