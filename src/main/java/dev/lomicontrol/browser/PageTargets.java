package dev.lomicontrol.browser;

import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The targets a page starts (security review 2026-12-06, N12): frames in their own process,
 * dedicated and service workers (popups and shared workers are turned off: see {@link Chromium#FLAGS}). The page's session, and every such target's,
 * auto-attaches them paused ({@code Target.setAutoAttach} with {@code waitForDebuggerOnStart}); each
 * gets the same network rule ({@code Fetch.enable}, every request paused for {@link NetworkRule}) and
 * the same auto-attach for its own children before it runs ({@code Runtime.runIfWaitingForDebugger}).
 * A target whose rule cannot be put in force never runs: a page is closed, another is left paused.
 */
final class PageTargets {

    private static final Logger log = LoggerFactory.getLogger(PageTargets.class);

    private final PageChannel channel;
    private final String generation;
    private final Consumer<JsonNode> listener;
    private final Set<String> sessions = ConcurrentHashMap.newKeySet();

    PageTargets(PageChannel channel, String generation, Consumer<JsonNode> listener) {
        this.channel = channel;
        this.generation = generation;
        this.listener = listener;
    }

    /** Every request of a target pauses before it is sent. */
    static ObjectNode interceptAll() {
        ObjectNode patterns = PageChannel.obj();
        patterns.putArray("patterns").addObject().put("urlPattern", "*").put("requestStage", "Request");
        return patterns;
    }

    /** Related targets are attached (flat sessions) and wait until their rule is in force. */
    static ObjectNode autoAttach() {
        return PageChannel.obj()
                .put("autoAttach", true)
                .put("waitForDebuggerOnStart", true)
                .put("flatten", true);
    }

    /** Whether {@code session} is one of the page's started targets. */
    boolean owns(String session) {
        return sessions.contains(session);
    }

    /** {@code Target.attachedToTarget}: confine the new target, then let it run. */
    void attached(JsonNode params) {
        String session = params.path("sessionId").asString("");
        JsonNode info = params.path("targetInfo");
        String type = info.path("type").asString("");
        if (session.isEmpty()) {
            return;
        }
        sessions.add(session);
        channel.chromium().listen(session, listener);
        // a dedicated worker has no Fetch domain: its requests pause in its page's session (proved by
        // AttackBrowserConfinementTests); a service or shared worker and a frame in its own process get
        // their own rule, and stay paused if it cannot be put in force
        CompletableFuture<JsonNode> fetch = type.equals("worker")
                ? CompletableFuture.completedFuture(PageChannel.obj())
                : channel.requestOn(session, "Fetch.enable", interceptAll());
        CompletableFuture<Boolean> nested = channel.requestOn(session, "Target.setAutoAttach", autoAttach())
                .handle((done, failed) -> failed == null);
        fetch.thenCombine(nested, (done, children) -> children).whenComplete((children, failed) -> {
            if (failed != null) {
                log.info(
                        "browser {}: a {} the page started cannot be confined ({}); it is {}",
                        generation,
                        type,
                        failed.getMessage(),
                        type.equals("page") ? "closed" : "left paused");
                if (type.equals("page")) {
                    channel.chromium().closeTarget(info.path("targetId").asString());
                }
                return;
            }
            if (!children) {
                log.debug("browser {}: a {} cannot auto-attach targets of its own", generation, type);
            }
            if (params.path("waitingForDebugger").asBoolean(false)) {
                channel.sendAndForgetOn(session, "Runtime.runIfWaitingForDebugger", PageChannel.obj());
            }
        });
    }

    /** {@code Target.detachedFromTarget}. */
    void detached(JsonNode params) {
        String session = params.path("sessionId").asString("");
        if (sessions.remove(session)) {
            channel.chromium().forget(session);
        }
    }

    /** The page is closing: its targets' events go nowhere. */
    void close() {
        sessions.forEach(channel.chromium()::forget);
        sessions.clear();
    }
}
