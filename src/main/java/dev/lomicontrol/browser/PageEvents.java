package dev.lomicontrol.browser;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.Ids;
import dev.lomicontrol.core.LomiException;
import java.time.Clock;
import java.util.ArrayList;
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
import tools.jackson.databind.JsonNode;

/**
 * What a page's protocol events tell (on the connection's single event thread, in order): the
 * current main-frame document (url, a new {@code navigationId} per committed document), its frames
 * and script contexts, loads, the three log rings of the current document; paused requests go to
 * the {@link NetworkRule}, targets the page starts to {@link PageTargets} (their other events are not read).
 */
final class PageEvents {

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
            "Target.targetCrashed",
            "Target.attachedToTarget",
            "Target.detachedFromTarget");

    private final PageChannel channel;
    private final NetworkRule rule;
    private final PageTargets targets;
    private final Clock clock;
    private final RandomGenerator random;
    private final Map<String, CompletableFuture<Void>> loads = new ConcurrentHashMap<>();
    /** Default script contexts of the page's documents: context id → frame id. */
    private final Map<Integer, String> contexts = new ConcurrentHashMap<>();
    /** The page's frames as its events announce them (id → document url), main frame included. */
    private final Map<String, String> frameUrls = new ConcurrentSkipListMap<>();

    private final AtomicLong logSequence = new AtomicLong();
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
        this.rule = new NetworkRule(channel, generation, originAllowed);
        this.targets = new PageTargets(channel, generation, this::on);
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
        return rule.originAllowed();
    }

    PageTargets targets() {
        return targets;
    }

    /** Completes when the main frame's document of {@code loaderId} has loaded. */
    CompletableFuture<Void> load(String loaderId) {
        return loads.computeIfAbsent(loaderId, k -> new CompletableFuture<>());
    }

    long blockedCount() {
        return rule.blockedCount();
    }

    Optional<String> lastBlocked() {
        return rule.lastBlocked();
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
        String session = message.path("sessionId").asString("");
        if (targets.owns(session)) {
            onStarted(method, params, session); // a target the page started: only its requests and children
            return;
        }
        switch (method) {
            case "Fetch.requestPaused":
                rule.paused(params, session);
                break;
            case "Target.attachedToTarget":
                targets.attached(params);
                break;
            case "Target.detachedFromTarget":
                targets.detached(params);
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
                oversized(params, session);
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

    /** An event of a target the page started (an out-of-process frame, a worker). */
    private void onStarted(String method, JsonNode params, String session) {
        switch (method) {
            case "Fetch.requestPaused" -> rule.paused(params, session);
            case "Target.attachedToTarget" -> targets.attached(params);
            case "Target.detachedFromTarget" -> targets.detached(params);
            case CdpConnection.OVERSIZED -> {
                if (params.path("method").asString().equals("Fetch.requestPaused") && params.has("requestId")) {
                    rule.refuseUnread(
                            params.path("requestId").asString(),
                            session,
                            params.path("bytes").asLong());
                }
            }
            default -> {}
        }
    }

    /**
     * An event over the connection's cap, skipped unread (security review 2026-12-06, N3): a paused
     * request is refused (nothing checked it); a log leaves an entry saying what was not kept.
     */
    private void oversized(JsonNode params, String session) {
        String method = params.path("method").asString("");
        long bytes = params.path("bytes").asLong();
        String note = "[a message of " + bytes + " bytes was not kept: the broker reads at most "
                + (params.path("cap").asLong() >> 10) + " KiB of one " + method + " event]";
        switch (method) {
            case "Fetch.requestPaused":
                if (params.has("requestId")) {
                    rule.refuseUnread(params.path("requestId").asString(), session, bytes);
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

    String newId(String prefix) {
        return prefix + "-" + Ids.randomHex(random, 8);
    }
}
