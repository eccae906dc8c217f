package dev.lomicontrol.proof.crash;

import dev.lomicontrol.LomiControl;
import dev.lomicontrol.testing.ChildJvm;
import dev.lomicontrol.testing.Eventually;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The real MCP helper ({@code lomi-control --mcp}) in a child JVM, spoken to as an MCP client
 * would: one JSON-RPC request per stdin line, answers matched by id from stdout. The helper lives
 * through every broker kill of the suite; only the broker dies.
 */
public final class HelperProcess implements AutoCloseable {

    public static final JsonMapper JSON = JsonMapper.builder().build();
    /** Longer than the helper's own 30 s call bound, so a missing answer is the helper's fault. */
    private static final Duration ANSWER_WAIT = Duration.ofSeconds(45);

    private final Process process;
    private final Path stderr;
    private final OutputStream stdin;
    private final Map<Long, JsonNode> answers = new ConcurrentHashMap<>();
    private final List<String> foreignLines = new ArrayList<>();
    private long nextId = 1;

    private HelperProcess(Process process, Path stderr) {
        this.process = process;
        this.stderr = stderr;
        this.stdin = process.getOutputStream();
        Thread reader = new Thread(this::readStdout, "crash-helper-stdout");
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts the helper pinned to the broker's discovery file and key, then runs {@code initialize}. */
    public static HelperProcess start(Path discoveryFile, String discoveryKey, Path stderr) throws Exception {
        List<String> command = new ArrayList<>(ChildJvm.builder(
                        LomiControl.class,
                        List.of("--mcp", "--discovery-file", discoveryFile.toString(), "--discovery-key", discoveryKey))
                .command());
        command.add(1, "-Dlomi.mcp.label-grace-ms=0");
        HelperProcess helper = new HelperProcess(
                new ProcessBuilder(command).redirectError(stderr.toFile()).start(), stderr);
        helper.request(
                "initialize",
                JSON.readTree("{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
                        + "\"clientInfo\":{\"name\":\"crash-suite\",\"version\":\"1.0\"}}"));
        helper.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        return helper;
    }

    /** One {@code tools/call}; answers the whole JSON-RPC response (a {@code result} or an {@code error}). */
    public JsonNode call(String tool, JsonNode arguments) throws Exception {
        ObjectNode params = JSON.createObjectNode();
        params.put("name", tool);
        params.set("arguments", arguments);
        return request("tools/call", params);
    }

    /** Lines the helper wrote to stdout that were not JSON-RPC (must stay empty). */
    synchronized List<String> foreignLines() {
        return new ArrayList<>(foreignLines);
    }

    private JsonNode request(String method, JsonNode params) throws Exception {
        long id;
        synchronized (this) {
            id = nextId++;
        }
        ObjectNode message = JSON.createObjectNode();
        message.put("jsonrpc", "2.0");
        message.put("id", id);
        message.put("method", method);
        message.set("params", params);
        send(JSON.writeValueAsString(message));
        Eventually.await(
                "an answer to " + method + " " + params,
                ANSWER_WAIT,
                Duration.ofMillis(2),
                () -> {
                    if (!answers.containsKey(id) && !process.isAlive()) {
                        throw new AssertionError("no answer to " + method + " " + params
                                + ": the helper exited; stderr:\n" + stderrTail());
                    }
                    return answers.containsKey(id);
                },
                Boolean.TRUE::equals,
                ignored -> "no answer; stderr:\n" + stderrTailQuietly());
        return answers.remove(id);
    }

    private synchronized void send(String line) throws IOException {
        stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        stdin.flush();
    }

    private void readStdout() {
        try (BufferedReader reader =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                JsonNode message = parse(line);
                if (message == null || !message.path("id").canConvertToLong()) {
                    synchronized (this) {
                        foreignLines.add(line);
                    }
                } else {
                    answers.put(message.path("id").asLong(), message);
                }
            }
        } catch (IOException e) {
            // the helper ended; a waiting request reports it
        }
    }

    private static JsonNode parse(String line) {
        try {
            JsonNode node = JSON.readTree(line);
            return node.path("jsonrpc").asString("").equals("2.0") ? node : null;
        } catch (RuntimeException e) {
            return null;
        }
    }

    String stderrTailQuietly() {
        try {
            return stderrTail();
        } catch (IOException e) {
            return "(stderr unreadable: " + e.getMessage() + ")";
        }
    }

    public String stderrTail() throws IOException {
        String text = Files.exists(stderr) ? Files.readString(stderr) : "";
        return text.length() <= 4000 ? text : text.substring(text.length() - 4000);
    }

    @Override
    public void close() throws InterruptedException {
        try {
            stdin.close();
        } catch (IOException e) {
            // already gone
        }
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
