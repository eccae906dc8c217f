package dev.lomicontrol.mcp;

import dev.lomicontrol.testing.Eventually;
import dev.lomicontrol.transport.Frames;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import tools.jackson.databind.JsonNode;

/** The real session wired to an in-memory stdout and a helper without discovery (phase app_unavailable). */
final class InProcessServer {

    private static final ExecutorService FORWARDS = Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "in-process-forward");
        thread.setDaemon(true);
        return thread;
    });

    private final ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    private int consumed;
    final Catalog catalog;
    final Connector connector = new Connector(Optional.empty(), Optional.empty(), Duration.ZERO);
    final McpServer server;

    InProcessServer() {
        this(Catalog.standard());
    }

    InProcessServer(Catalog catalog) {
        this.catalog = catalog;
        ToolCalls calls = new ToolCalls(
                catalog,
                new StatusReport(connector),
                new Bridge(connector, Duration.ofSeconds(5), Frames.MAX_FRAME_BYTES));
        server = new McpServer(catalog, calls, connector, new StdoutWriter(stdout), () -> {});
    }

    /** Feeds raw lines and returns every message written since the last call, waiting (up to 20 s, then failing) for {@code expected} of them. */
    List<JsonNode> send(int expected, String... lines) throws InterruptedException {
        for (String line : lines) {
            Runnable forward = server.accept(new LineReader.Line.Complete(line.getBytes(StandardCharsets.UTF_8)));
            if (forward != null) {
                FORWARDS.execute(forward); // as McpServer.serve does: the reading goes on while it waits
            }
        }
        List<JsonNode> messages = Eventually.await(
                expected + " messages written",
                Duration.ofSeconds(20),
                Duration.ofMillis(10),
                this::written,
                written -> written.size() >= expected,
                String::valueOf);
        consumed += messages.size();
        return messages;
    }

    /** One request, one response. */
    JsonNode call(String line) throws InterruptedException {
        List<JsonNode> messages = send(1, line);
        if (messages.size() != 1) {
            throw new AssertionError("expected one response to " + line + ", got " + messages);
        }
        return messages.get(0);
    }

    private synchronized List<JsonNode> written() {
        String[] lines = stdout.toString(StandardCharsets.UTF_8).split("\n", -1);
        List<JsonNode> messages = new ArrayList<>();
        for (int i = consumed; i < lines.length - 1; i++) {
            messages.add(McpMapper.MAPPER.readTree(lines[i]));
        }
        return messages;
    }
}
