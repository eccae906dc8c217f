package dev.lomicontrol.browser;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A page's protocol session in its Chromium: commands to the page (waited for, or in flight so that
 * several share one round trip), scripts evaluated in a frame or on an element, and the closed state
 * after which every command is TARGET_NOT_FOUND.
 */
final class PageChannel {

    private final Chromium chromium;
    private final String generation;
    private final Duration timeout;
    private volatile @Nullable String sessionId;
    private volatile boolean closed;

    PageChannel(Chromium chromium, String generation, Duration timeout) {
        this.chromium = chromium;
        this.generation = generation;
        this.timeout = timeout;
    }

    /** The page's flat session, once attached (events before it cannot arrive: nothing is enabled yet). */
    void attached(String session) {
        this.sessionId = session;
    }

    @Nullable
    String sessionId() {
        return sessionId;
    }

    Chromium chromium() {
        return chromium;
    }

    Duration timeout() {
        return timeout;
    }

    boolean isClosed() {
        return closed;
    }

    void markClosed() {
        closed = true;
    }

    JsonNode send(String method, @Nullable ObjectNode params) {
        return send(method, params, timeout);
    }

    JsonNode send(String method, @Nullable ObjectNode params, Duration wait) {
        if (closed) {
            throw gone();
        }
        return chromium.send(sessionId, method, params, wait);
    }

    /** Sends without waiting: requests issued together share one round trip of latency. */
    CompletableFuture<JsonNode> request(String method, @Nullable ObjectNode params) {
        if (closed) {
            return CompletableFuture.failedFuture(gone());
        }
        return chromium.request(sessionId, method, params);
    }

    /** Sends and forgets (an answer to a paused request); a failure is only logged by the connection. */
    void sendAndForget(String method, ObjectNode params) {
        chromium.sendAsync(sessionId, method, params);
    }

    /** Sends and forgets to another session of the page's (a target it started; see {@link PageTargets}). */
    void sendAndForgetOn(String session, String method, ObjectNode params) {
        chromium.sendAsync(session, method, params);
    }

    /** Sends without waiting to another session of the page's. */
    CompletableFuture<JsonNode> requestOn(String session, String method, @Nullable ObjectNode params) {
        return chromium.request(session, method, params);
    }

    /** The answer of a request in flight (or of work chained on one), as {@link #send} would have answered it. */
    <T> T await(CompletableFuture<T> answer) {
        try {
            return answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new LomiException(
                    ErrorCode.DEADLINE_EXCEEDED,
                    "the browser did not answer within " + timeout.toMillis() + " ms; wait for the page"
                            + " (lomi_browser_wait) and try again");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LomiException(ErrorCode.APP_CLOSING, "interrupted while waiting for the browser");
        } catch (ExecutionException e) {
            Throwable cause =
                    e.getCause() instanceof CompletionException c && c.getCause() != null ? c.getCause() : e.getCause();
            throw cause instanceof LomiException refusal
                    ? refusal
                    : new LomiException(
                            ErrorCode.TARGET_NOT_FOUND,
                            "the browser failed (" + cause + "); take a new lomi_browser_snapshot and try again, or"
                                    + " open a new browser if it keeps failing");
        }
    }

    /** Whether {@code future} completed within the timeout (false on a timeout, a failure or an interrupt). */
    static boolean completes(CompletableFuture<Void> future, Duration timeout) {
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

    /** The value of {@code function(argument)} (or of the expression {@code function} without one) in the main frame's page world. */
    JsonNode evaluate(String function, @Nullable String argument) {
        String expression =
                argument == null ? function : function + "(" + CdpConnection.JSON.writeValueAsString(argument) + ")";
        JsonNode answer =
                send("Runtime.evaluate", obj().put("expression", expression).put("returnByValue", true));
        return answer.path("result").path("value");
    }

    /** Evaluates in a frame's own world (an isolated world, so the page's scripts cannot interfere); the main frame uses the page's. */
    JsonNode evaluateIn(String frameId, boolean main, String expression) {
        ObjectNode params = obj().put("expression", expression).put("returnByValue", true);
        if (!main) {
            int context = send(
                            "Page.createIsolatedWorld",
                            obj().put("frameId", frameId).put("worldName", "lomi"))
                    .path("executionContextId")
                    .asInt();
            params.put("contextId", context);
        }
        return send("Runtime.evaluate", params).path("result").path("value");
    }

    /** Calls {@code function} with {@code this} = the element (and one string argument); STALE_SNAPSHOT when the element is gone. */
    JsonNode callOn(long backendNodeId, String function, @Nullable String argument) {
        String objectId;
        try {
            objectId = send("DOM.resolveNode", obj().put("backendNodeId", backendNodeId))
                    .path("object")
                    .path("objectId")
                    .asString("");
        } catch (LomiException e) {
            throw new LomiException(
                    ErrorCode.STALE_SNAPSHOT, "the element is no longer in the page; take a new snapshot");
        }
        if (objectId.isEmpty()) {
            throw new LomiException(
                    ErrorCode.STALE_SNAPSHOT, "the element is no longer in the page; take a new snapshot");
        }
        ObjectNode params = obj().put("objectId", objectId)
                .put("functionDeclaration", function)
                .put("returnByValue", true)
                .put("awaitPromise", true);
        if (argument != null) {
            params.putArray("arguments").addObject().put("value", argument);
        }
        JsonNode answer = send("Runtime.callFunctionOn", params);
        sendAndForget("Runtime.releaseObject", obj().put("objectId", objectId)); // nothing waits for the release
        if (answer.has("exceptionDetails")) {
            throw new LomiException(
                    ErrorCode.TARGET_NOT_FOUND,
                    "the page threw while the element was acted on ("
                            + answer.path("exceptionDetails").path("text").asString("no details")
                            + "); take a new lomi_browser_snapshot and act on the element it lists");
        }
        return answer.path("result").path("value");
    }

    private LomiException gone() {
        return new LomiException(ErrorCode.TARGET_NOT_FOUND, "browser " + generation + " is closed; open a new one");
    }

    static ObjectNode obj() {
        return JsonNodeFactory.instance.objectNode();
    }
}
