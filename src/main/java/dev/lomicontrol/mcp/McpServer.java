package dev.lomicontrol.mcp;

import dev.lomicontrol.core.ErrorCode;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.NullNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The MCP session over one stdin/stdout pair. Everything except forwarded tool calls is answered
 * on the thread that read it. A forwarded call is sent by the thread that read it too: that thread
 * first hands the reading of stdin to a worker, so a call waiting for the broker never delays
 * {@code ping}, {@code tools/list} or {@code lomi_status}, and the call itself passes through no
 * other thread (the hand-over is off its path). At most {@link #MAX_IN_FLIGHT} calls are forwarded
 * at once; responses go out whole, one per line, in completion order. Notifications are never
 * answered.
 *
 * <p>Versions: {@code initialize} negotiates a legacy revision for the session; a request whose
 * {@code params._meta} names {@code io.modelcontextprotocol/protocolVersion} is handled under that
 * version without initialize (an unknown one gets -32022 with {@code data.supported/requested}).
 * A legacy request sent before initialize is served under 2025-11-25 rather than refused.
 */
final class McpServer {

    static final int MAX_LINE_BYTES = 8 * 1024 * 1024;
    static final int MAX_IN_FLIGHT = 64;

    private final Catalog catalog;
    private final ToolCalls calls;
    private final Connector connector;
    private final StdoutWriter out;
    private final Runnable onInitialized;
    private final Semaphore inFlight = new Semaphore(MAX_IN_FLIGHT);
    private final ExecutorService workers = Executors.newCachedThreadPool(daemonThreads());
    private final CountDownLatch stdinEnded = new CountDownLatch(1);
    private volatile ProtocolVersion sessionVersion = ProtocolVersion.LATEST_LEGACY;

    /** {@code onInitialized} runs on the reader thread after each {@code initialize} answer is written. */
    McpServer(Catalog catalog, ToolCalls calls, Connector connector, StdoutWriter out, Runnable onInitialized) {
        this.catalog = catalog;
        this.calls = calls;
        this.connector = connector;
        this.out = out;
        this.onInitialized = onInitialized;
    }

    /**
     * Reads {@code lines} to their end, then returns. The reading moves between threads: whichever
     * thread reads a forwarded call gives the reading to a worker and then sends the call itself.
     */
    void serve(LineReader lines) throws InterruptedException {
        read(lines);
        stdinEnded.await();
    }

    private void read(LineReader lines) {
        try {
            for (LineReader.Line line = lines.next(); line != null; line = lines.next()) {
                Runnable forward = accept(line);
                if (forward == null) {
                    continue;
                }
                boolean handedOver = handOver(lines); // false while stopping: then this thread reads on
                forward.run();
                if (handedOver) {
                    return;
                }
            }
            Diagnostics.info("stdin closed; stopping");
        } catch (IOException e) {
            Diagnostics.warn("cannot read stdin (" + e.getMessage() + "); stopping");
        } catch (RuntimeException e) {
            // a failure on a worker must still end serve(), as it ended the helper when only main read stdin
            Diagnostics.warn("stopped reading stdin after an unexpected failure: " + e);
        }
        stdinEnded.countDown();
    }

    private boolean handOver(LineReader lines) {
        try {
            workers.execute(() -> read(lines));
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }

    /**
     * Handles one line from stdin; blank lines are ignored, an oversized one is answered and skipped.
     * A tool call for the broker is not sent here: it is returned, holding one of the
     * {@link #MAX_IN_FLIGHT} places, for the caller to run (which answers it and frees the place).
     */
    @Nullable
    Runnable accept(LineReader.Line line) {
        if (line instanceof LineReader.Line.Oversized) {
            long length = ((LineReader.Line.Oversized) line).length();
            Diagnostics.warn("skipped a line of " + length + " bytes (limit " + MAX_LINE_BYTES + ")");
            error(
                    NullNode.instance,
                    RpcError.of(
                            RpcError.INVALID_REQUEST,
                            "Invalid Request: payload too large: the message has " + length + " bytes and the limit is "
                                    + MAX_LINE_BYTES + "; it was skipped"));
            return null;
        }
        byte[] bytes = ((LineReader.Line.Complete) line).bytes();
        return isBlank(bytes) ? null : handle(Inbound.parse(bytes));
    }

    private @Nullable Runnable handle(Inbound message) {
        if (message instanceof Inbound.Request) {
            return request((Inbound.Request) message);
        } else if (message instanceof Inbound.Invalid) {
            error(((Inbound.Invalid) message).id(), ((Inbound.Invalid) message).error());
        } else if (message instanceof Inbound.Notification) {
            notification((Inbound.Notification) message);
        } else if (message instanceof Inbound.Response) {
            Diagnostics.info("ignored a response from the client (id " + ((Inbound.Response) message).id()
                    + "); this server sends no requests");
        } else {
            throw new IllegalStateException("unknown inbound message " + message);
        }
        return null;
    }

    /** Stops taking work and waits up to {@code wait} for forwarded calls to be answered. */
    void drain(Duration wait) throws InterruptedException {
        workers.shutdown();
        if (!workers.awaitTermination(wait.toMillis(), TimeUnit.MILLISECONDS)) {
            Diagnostics.warn(
                    (MAX_IN_FLIGHT - inFlight.availablePermits()) + " call(s) still waiting for the broker at exit");
        }
    }

    private @Nullable Runnable request(Inbound.Request request) {
        JsonNode declared = request.params().path("_meta").get(Protocol.META_PROTOCOL_VERSION);
        Optional<ProtocolVersion> version =
                declared == null ? Optional.of(sessionVersion) : ProtocolVersion.fromWire(declared.asString(null));
        if (version.isEmpty()) {
            error(request.id(), unsupported(declared));
            return null;
        }
        offerClientInfo(request.params().path("_meta").path(Protocol.META_CLIENT_INFO));
        return route(request, version.get());
    }

    private @Nullable Runnable route(Inbound.Request request, ProtocolVersion version) {
        switch (request.method()) {
            case "initialize":
                initialize(request);
                return null;
            case "ping":
                reply(request.id(), Reply.success(McpJson.object()), version);
                return null;
            case "server/discover":
                reply(
                        request.id(),
                        Reply.success(Protocol.cacheable(Protocol.discoverResult(), ProtocolVersion.V2026_07_28)),
                        ProtocolVersion.V2026_07_28);
                return null;
            case "tools/list":
                reply(
                        request.id(),
                        request.params().has("cursor")
                                ? Reply.failure(
                                        RpcError.INVALID_PARAMS,
                                        "Invalid params: tools/list is not paginated; send it without a cursor")
                                : Reply.success(Protocol.cacheable(catalog.listResult(version), version)),
                        version);
                return null;
            case "tools/call":
                return call(request, version);
            default:
                reply(
                        request.id(),
                        Reply.failure(RpcError.METHOD_NOT_FOUND, "Method not found: " + request.method()),
                        version);
                return null;
        }
    }

    private void initialize(Inbound.Request request) {
        JsonNode requested = request.params().get("protocolVersion");
        if (requested == null || !requested.isString()) {
            reply(
                    request.id(),
                    Reply.failure(
                            RpcError.INVALID_PARAMS,
                            "Invalid params: initialize needs params.protocolVersion (a string)"),
                    sessionVersion);
            return;
        }
        ProtocolVersion negotiated = ProtocolVersion.negotiate(requested.asString());
        sessionVersion = negotiated;
        offerClientInfo(request.params().path("clientInfo"));
        reply(request.id(), Reply.success(Protocol.initializeResult(negotiated)), negotiated);
        onInitialized.run();
    }

    /** Answers a call the helper serves; for one the broker serves, takes a place and returns its forward. */
    private @Nullable Runnable call(Inbound.Request request, ProtocolVersion version) {
        ToolCalls.Plan plan = calls.plan(request.params(), version);
        if (plan instanceof ToolCalls.Plan.Done) {
            reply(request.id(), ((ToolCalls.Plan.Done) plan).reply(), version);
            return null;
        }
        ToolCalls.Plan.Forward forward = (ToolCalls.Plan.Forward) plan;
        if (!inFlight.tryAcquire()) {
            reply(
                    request.id(),
                    Reply.success(CallResults.error(
                            ErrorCode.RESOURCE_EXHAUSTED,
                            MAX_IN_FLIGHT + " calls are already waiting for the broker; this one was not sent",
                            version)),
                    version);
            return null;
        }
        return () -> forward(request.id(), forward, version);
    }

    private void forward(JsonNode id, ToolCalls.Plan.Forward forward, ProtocolVersion version) {
        try {
            reply(id, calls.forward(id, forward, version), version);
        } catch (RuntimeException e) {
            Diagnostics.warn(forward.tool().name() + " failed inside the helper: " + e);
            reply(
                    id,
                    new Reply.Failure(
                            forward.tool().effect().mayResendAfterLostAnswer()
                                    ? RpcError.of(RpcError.INTERNAL_ERROR, "Internal error: " + e.getMessage())
                                    : ToolCalls.outcomeUnknown(
                                            id, forward.tool().name(), "the helper failed: " + e)),
                    version);
        } finally {
            inFlight.release();
        }
    }

    private void notification(Inbound.Notification notification) {
        if (!notification.method().equals("notifications/initialized")
                && !notification.method().equals("notifications/cancelled")) {
            Diagnostics.info("ignored notification " + notification.method());
        }
    }

    private void offerClientInfo(JsonNode clientInfo) {
        if (clientInfo.isObject() && clientInfo.path("name").isString()) {
            connector.offerClientInfo(
                    clientInfo.path("name").asString(),
                    clientInfo.path("version").asString(""));
        }
    }

    private static RpcError unsupported(JsonNode declared) {
        ObjectNode data = McpJson.object();
        data.set("supported", ProtocolVersion.supported());
        data.set("requested", declared);
        return new RpcError(RpcError.UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version: " + declared, data);
    }

    private void reply(JsonNode id, Reply reply, ProtocolVersion version) {
        if (reply instanceof Reply.Failure) {
            error(id, ((Reply.Failure) reply).error());
            return;
        }
        ObjectNode response = envelope(id);
        response.set("result", Protocol.decorate(((Reply.Success) reply).result(), version));
        out.write(response);
    }

    private void error(JsonNode id, RpcError error) {
        ObjectNode response = envelope(id);
        response.set("error", error.toJson());
        out.write(response);
    }

    private static ObjectNode envelope(JsonNode id) {
        ObjectNode response = McpJson.object();
        response.put("jsonrpc", "2.0");
        response.set("id", id);
        return response;
    }

    private static boolean isBlank(byte[] bytes) {
        for (byte b : bytes) {
            if (b != ' ' && b != '\t' && b != '\r') {
                return false;
            }
        }
        return true;
    }

    private static ThreadFactory daemonThreads() {
        AtomicInteger number = new AtomicInteger();
        return task -> {
            Thread thread = new Thread(task, "lomi-mcp-call-" + number.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
