package dev.lomicontrol.browser;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * One Chrome DevTools Protocol connection over Chromium's {@code --remote-debugging-pipe}: each
 * message is one JSON object terminated by a NUL byte, written to the browser's fd 3 and read from
 * its fd 4. Commands are matched to their answers by id; events go, in order, to one listener on a
 * single event thread (never the reader thread, so a listener may send commands and wait).
 */
final class CdpConnection implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(CdpConnection.class);
    static final JsonMapper JSON = JsonMapper.builder().build();
    /** Chromium's own limit for one pipe message is far above this; an answer over it is refused (a screenshot of 4 MiB is ~5.6 MB base64). */
    static final int MAX_MESSAGE = 64 << 20;

    private final OutputStream toBrowser;
    private final AtomicLong ids = new AtomicLong();
    private final Map<Long, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
    private final ExecutorService events;
    private final Consumer<JsonNode> listener;
    private final Thread reader;
    private volatile boolean closed;

    CdpConnection(InputStream fromBrowser, OutputStream toBrowser, Consumer<JsonNode> listener, String name) {
        this.toBrowser = toBrowser;
        this.listener = listener;
        this.events = Executors.newSingleThreadExecutor(r -> daemon(r, name + "-events"));
        this.reader = daemon(() -> read(fromBrowser), name + "-reader");
        reader.start();
    }

    /** Sends a command (to a page when {@code sessionId} is given) and waits for its result; a CDP error or a timeout is a LomiException. */
    JsonNode send(@Nullable String sessionId, String method, @Nullable ObjectNode params, Duration timeout) {
        try {
            return sendAsync(sessionId, method, params).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new LomiException(
                    ErrorCode.DEADLINE_EXCEEDED,
                    "the browser did not answer " + method + " within " + timeout.toMillis() + " ms; wait for the"
                            + " page (lomi_browser_wait) and try again");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LomiException(ErrorCode.APP_CLOSING, "interrupted while waiting for the browser");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof LomiException refusal) {
                throw refusal;
            }
            throw new LomiException(
                    ErrorCode.TARGET_NOT_FOUND,
                    "the browser failed (" + e.getCause() + "); try again, or open a new browser if it keeps"
                            + " failing");
        }
    }

    /** Sends without waiting; the future completes with the result or fails with a {@link CdpError}. */
    CompletableFuture<JsonNode> sendAsync(@Nullable String sessionId, String method, @Nullable ObjectNode params) {
        long id = ids.incrementAndGet();
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        if (closed) {
            answer.completeExceptionally(gone());
            return answer;
        }
        pending.put(id, answer);
        ObjectNode message = JsonNodeFactory.instance.objectNode();
        message.put("id", id);
        message.put("method", method);
        message.set("params", params == null ? JsonNodeFactory.instance.objectNode() : params);
        if (sessionId != null) {
            message.put("sessionId", sessionId);
        }
        byte[] bytes = JSON.writeValueAsBytes(message);
        try {
            synchronized (toBrowser) {
                toBrowser.write(bytes);
                toBrowser.write(0);
                toBrowser.flush();
            }
        } catch (IOException e) {
            pending.remove(id);
            answer.completeExceptionally(gone());
        }
        return answer;
    }

    boolean isOpen() {
        return !closed;
    }

    private void read(InputStream in) {
        ByteArrayOutputStream message = new ByteArrayOutputStream(8192);
        byte[] chunk = new byte[65536];
        try {
            int n;
            while ((n = in.read(chunk)) > 0) {
                int start = 0;
                for (int i = 0; i < n; i++) {
                    if (chunk[i] == 0) {
                        message.write(chunk, start, i - start);
                        dispatch(message.toByteArray());
                        message.reset();
                        start = i + 1;
                    }
                }
                message.write(chunk, start, n - start);
                if (message.size() > MAX_MESSAGE) {
                    log.warn("a browser message exceeded {} bytes; closing the connection", MAX_MESSAGE);
                    break;
                }
            }
        } catch (IOException e) {
            log.debug("browser pipe closed: {}", e.toString());
        } finally {
            closed = true;
            pending.values().forEach(f -> f.completeExceptionally(gone()));
            pending.clear();
            JsonNode disconnected = JsonNodeFactory.instance.objectNode().put("method", "lomi.disconnected");
            try {
                events.execute(() -> listener.accept(disconnected));
            } catch (java.util.concurrent.RejectedExecutionException e) {
                listener.accept(disconnected); // closed by us: the event thread is already gone
            }
            events.shutdown();
        }
    }

    private void dispatch(byte[] bytes) {
        JsonNode message;
        try {
            message = JSON.readTree(bytes);
        } catch (RuntimeException e) {
            log.warn("unreadable browser message: {}", e.toString());
            return;
        }
        JsonNode id = message.get("id");
        if (id != null && id.isIntegralNumber()) {
            CompletableFuture<JsonNode> answer = pending.remove(id.asLong());
            if (answer == null) {
                return;
            }
            JsonNode error = message.get("error");
            if (error != null) {
                answer.completeExceptionally(new CdpError(
                        error.path("message").asString("error"),
                        error.path("data").asString("")));
            } else {
                answer.complete(message.path("result"));
            }
            return;
        }
        try {
            events.execute(() -> {
                try {
                    listener.accept(message);
                } catch (RuntimeException e) {
                    log.warn(
                            "browser event {} failed: {}",
                            message.path("method").asString(),
                            e.toString());
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            log.debug("event after close dropped");
        }
    }

    private static LomiException gone() {
        return new LomiException(ErrorCode.TARGET_NOT_FOUND, "the browser process is gone; open a new browser");
    }

    @Override
    public void close() {
        closed = true;
        try {
            toBrowser.close();
        } catch (IOException e) {
            log.debug("closing the browser pipe: {}", e.toString());
        }
        events.shutdown();
    }

    private static Thread daemon(Runnable r, String name) {
        Thread thread = new Thread(r, name);
        thread.setDaemon(true);
        return thread;
    }

    /** An error answer of the protocol (e.g. "No node with given id found"). */
    static final class CdpError extends LomiException {
        CdpError(String message, String data) {
            super(
                    ErrorCode.TARGET_NOT_FOUND,
                    "the browser refused the request (" + message + (data.isEmpty() ? "" : ": " + data)
                            + "); take a new lomi_browser_snapshot and try again, or open a new browser if it"
                            + " keeps refusing");
        }
    }
}
