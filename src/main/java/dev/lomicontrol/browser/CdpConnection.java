package dev.lomicontrol.browser;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * One Chrome DevTools Protocol connection over Chromium's {@code --remote-debugging-pipe}: each
 * message is one JSON object terminated by a NUL byte, written to the browser's fd 3 and read from
 * its fd 4. Commands are matched to their answers by id; events go, in order, to one listener on a
 * single event thread (never the reader thread, so a listener may send commands and wait).
 * What a page can make Chromium send is bounded before it is read ({@link PipeMessages}: per-message
 * caps, the oversized skipped unread) and while it waits: an event is queued as its bytes and parsed
 * on the event thread, and log events beyond {@link #QUEUE_BYTES} or {@link #QUEUE_LOGS} queued are
 * dropped and counted (security review 2026-12-06, N3).
 */
final class CdpConnection implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(CdpConnection.class);
    static final JsonMapper JSON = JsonMapper.builder().build();
    /**
     * Answers are parsed with a string limit: the largest the broker asks for is a 4 MiB screenshot or
     * download, ~5.6 M base64 characters; a page's own longer string (an accessible name) fails the
     * request instead of taking the heap (security review 2026-12-06, N3).
     */
    private static final JsonMapper ANSWERS = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder()
                            .maxStringLength(8_000_000)
                            .build())
                    .build())
            .build();
    /** The events a page logs: dropped (and counted) when the event queue is full. */
    static final Set<String> LOG_EVENTS = Set.of("Runtime.consoleAPICalled", "Runtime.exceptionThrown");
    /** The event the listener gets for an event over its cap ({@code params}: method, bytes, cap, requestId, type). */
    static final String OVERSIZED = "lomi.oversized";
    /** The event the listener gets after log events were dropped ({@code params}: method, count). */
    static final String DROPPED = "lomi.eventsDropped";
    /** The event queue's bound for log events: their bytes (with everything queued before them) and their number. */
    static final int QUEUE_BYTES = 8 << 20;

    static final int QUEUE_LOGS = 1024;

    private final OutputStream toBrowser;
    private final AtomicLong ids = new AtomicLong();
    private final Map<Long, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
    private final ExecutorService events;
    private final Consumer<JsonNode> listener;
    private final Predicate<String> wanted;
    private final AtomicLong queuedBytes = new AtomicLong();
    private final AtomicInteger queuedLogs = new AtomicInteger();
    /** Log events dropped per method and session ("method\nsession"), until the event thread reports them. */
    private final Map<String, Long> dropped = new ConcurrentHashMap<>();

    private final AtomicLong oversizedTotal = new AtomicLong();
    private final Thread reader;
    private volatile boolean closed;

    /** {@code wanted}: the event methods the listener reads; the others are not parsed. */
    CdpConnection(
            InputStream fromBrowser,
            OutputStream toBrowser,
            Consumer<JsonNode> listener,
            Predicate<String> wanted,
            String name) {
        this.toBrowser = toBrowser;
        this.listener = listener;
        this.wanted = wanted;
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
        try {
            new PipeMessages().read(in, new PipeMessages.Sink() {
                @Override
                public void message(byte[] bytes, int length) {
                    dispatch(bytes, length);
                }

                @Override
                public void oversized(PipeMessages.Oversized message) {
                    refuse(message);
                }
            });
        } catch (IOException e) {
            log.debug("browser pipe closed: {}", e.toString());
        } catch (RuntimeException | OutOfMemoryError e) {
            log.warn("reading the browser pipe failed; closing the connection: {}", e.toString());
        } finally {
            closed = true;
            pending.values().forEach(f -> f.completeExceptionally(gone()));
            pending.clear();
            JsonNode disconnected = JsonNodeFactory.instance.objectNode().put("method", "lomi.disconnected");
            try {
                events.execute(() -> listener.accept(disconnected));
            } catch (RejectedExecutionException e) {
                listener.accept(disconnected); // closed by us: the event thread is already gone
            }
            events.shutdown();
        }
    }

    /** One message within its cap: an answer is parsed here and completes its command; an event is queued as bytes. */
    private void dispatch(byte[] bytes, int length) {
        Optional<String> method = PipeMessages.method(bytes, Math.min(length, 256));
        if (method.isEmpty()) {
            JsonNode message;
            try {
                message = ANSWERS.readTree(bytes, 0, length);
            } catch (RuntimeException e) {
                log.warn("unreadable browser message: {}", e.getClass().getSimpleName());
                return;
            }
            answer(message);
            return;
        }
        if (!wanted.test(method.get())) {
            return; // an event nothing here reads is not parsed
        }
        boolean logEvent = LOG_EVENTS.contains(method.get());
        if (logEvent && (queuedBytes.get() + length > QUEUE_BYTES || queuedLogs.get() >= QUEUE_LOGS)) {
            dropped.merge(method.get() + "\n" + sessionOf(bytes, length), 1L, Long::sum); // atomic with remove
            return;
        }
        byte[] copy = Arrays.copyOf(bytes, length);
        queuedBytes.addAndGet(length);
        if (logEvent) {
            queuedLogs.incrementAndGet();
        }
        deliver(() -> {
            try {
                JsonNode message = JSON.readTree(copy);
                listener.accept(message);
            } finally {
                queuedBytes.addAndGet(-length);
                if (logEvent) {
                    queuedLogs.decrementAndGet();
                }
            }
        });
    }

    private void answer(JsonNode message) {
        JsonNode id = message.get("id");
        if (id == null || !id.isIntegralNumber()) {
            if (wanted.test(message.path("method").asString(""))) {
                deliver(() -> listener.accept(message)); // an event written in another key order
            }
            return;
        }
        CompletableFuture<JsonNode> answer = pending.remove(id.asLong());
        if (answer == null) {
            return;
        }
        JsonNode error = message.get("error");
        if (error != null) {
            answer.completeExceptionally(new CdpError(
                    error.path("message").asString("error"), error.path("data").asString("")));
        } else {
            answer.complete(message.path("result"));
        }
    }

    /**
     * A message over its cap, skipped unread: an answer fails its command (RESOURCE_EXHAUSTED); an
     * event reaches the listener as {@code lomi.oversized} with its method, size, session and (for a
     * paused request) request id, so that the request can be refused and a log can say what was lost.
     */
    private void refuse(PipeMessages.Oversized message) {
        long count = oversizedTotal.incrementAndGet();
        if (count <= 3 || count % 1000 == 0) { // a page can send many: the log gets a few, and the count
            log.warn(
                    "a browser message of {} bytes ({}) is over the {} bytes the broker reads; skipped ({} so far)",
                    message.bytes(),
                    message.method().orElse(message.id().isPresent() ? "an answer" : "unknown"),
                    message.cap(),
                    count);
        }
        Optional<Long> id = message.id();
        if (id.isPresent()) {
            CompletableFuture<JsonNode> answer = pending.remove(id.get());
            if (answer != null) {
                answer.completeExceptionally(new LomiException(
                        ErrorCode.RESOURCE_EXHAUSTED,
                        "the browser's answer was " + message.bytes() + " bytes, more than the "
                                + (PipeMessages.ANSWER_CAP >> 20) + " MiB the broker reads; the page is too large"
                                + " for this request (navigate to a smaller page, or ask for less)"));
            }
            return;
        }
        Optional<String> method = message.method();
        Optional<String> session = message.sessionId();
        if (method.isEmpty() || session.isEmpty() || !wanted.test(method.get())) {
            return;
        }
        ObjectNode event = JsonNodeFactory.instance.objectNode().put("method", OVERSIZED);
        ObjectNode params = event.putObject("params")
                .put("method", method.get())
                .put("bytes", message.bytes())
                .put("cap", message.cap());
        message.requestId().ifPresent(r -> params.put("requestId", r));
        message.consoleType().ifPresent(t -> params.put("type", t));
        event.put("sessionId", session.get());
        deliver(() -> listener.accept(event));
    }

    /** Runs {@code work} on the event thread, then tells each session how many log events were dropped meanwhile. */
    private void deliver(Runnable work) {
        try {
            events.execute(() -> {
                try {
                    work.run();
                } catch (RuntimeException e) {
                    log.warn("a browser event failed: {}", e.toString());
                }
                reportDrops();
            });
        } catch (RejectedExecutionException e) {
            log.debug("event after close dropped");
        }
    }

    private void reportDrops() {
        if (dropped.isEmpty()) {
            return;
        }
        for (String key : List.copyOf(dropped.keySet())) {
            Long count = dropped.remove(key);
            String[] parts = key.split("\n", 2);
            if (count == null || parts[1].isEmpty()) {
                continue;
            }
            ObjectNode event = JsonNodeFactory.instance.objectNode().put("method", DROPPED);
            event.putObject("params").put("method", parts[0]).put("count", count);
            event.put("sessionId", parts[1]);
            try {
                listener.accept(event);
            } catch (RuntimeException e) {
                log.warn("reporting dropped browser events failed: {}", e.toString());
            }
        }
    }

    /** The session id a flat-mode message ends with ({@code ,"sessionId":"…"}}), or "". */
    private static String sessionOf(byte[] bytes, int length) {
        int from = Math.max(0, length - 128);
        String end = new String(bytes, from, length - from, StandardCharsets.UTF_8);
        int at = end.lastIndexOf("\"sessionId\":\"");
        if (at < 0 || !end.endsWith("\"}")) {
            return "";
        }
        return end.substring(at + 13, end.length() - 2);
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
