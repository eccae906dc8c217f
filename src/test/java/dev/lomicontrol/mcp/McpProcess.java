package dev.lomicontrol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.JsonNode;

/**
 * The real helper ({@code lomi-control --mcp}) in a child JVM, spoken to over its stdin and stdout.
 * Every stdout line is kept so a test can check that nothing but JSON-RPC ever appeared there.
 */
final class McpProcess implements AutoCloseable {

    static final Duration WAIT = Duration.ofSeconds(60);

    final Process process;
    final long startedNanos;
    final Path stderr;
    private final OutputStream stdin;
    private final List<String> stdoutLines = new CopyOnWriteArrayList<>();
    private final BlockingQueue<JsonNode> arrivals = new LinkedBlockingQueue<>();
    private final Map<String, JsonNode> byId = new HashMap<>();

    private McpProcess(Process process, long startedNanos, Path stderr) {
        this.process = process;
        this.startedNanos = startedNanos;
        this.stderr = stderr;
        this.stdin = process.getOutputStream();
        Thread reader = new Thread(this::readStdout, "mcp-test-stdout");
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts the helper with {@code args} after {@code --mcp} and {@code -D} system properties. */
    static McpProcess start(Path stderr, List<String> args, Map<String, String> properties) throws IOException {
        return start(stderr, args, properties, List.of());
    }

    /** As {@link #start(Path, List, Map)} with extra JVM options (e.g. a class-load log). */
    static McpProcess start(Path stderr, List<String> args, Map<String, String> properties, List<String> jvmOptions)
            throws IOException {
        List<String> helperArgs = new ArrayList<>(List.of("--mcp"));
        helperArgs.addAll(args);
        List<String> command =
                new ArrayList<>(ChildJvm.builder(LomiControl.class, helperArgs).command());
        properties.forEach((name, value) -> command.add(1, "-D" + name + "=" + value));
        jvmOptions.forEach(option -> command.add(1, option));
        long started = System.nanoTime();
        Process process =
                new ProcessBuilder(command).redirectError(stderr.toFile()).start();
        return new McpProcess(process, started, stderr);
    }

    void sendLine(String line) throws IOException {
        sendBytes((line + "\n").getBytes(StandardCharsets.UTF_8));
    }

    void sendBytes(byte[] bytes) throws IOException {
        stdin.write(bytes);
        stdin.flush();
    }

    /** Sends a request and waits for the response with its id. */
    JsonNode request(Object id, String method, String params) throws Exception {
        String idJson = id instanceof String ? "\"" + id + "\"" : String.valueOf(id);
        sendLine("{\"jsonrpc\":\"2.0\",\"id\":" + idJson + ",\"method\":\"" + method + "\""
                + (params == null ? "" : ",\"params\":" + params) + "}");
        return response(idJson);
    }

    JsonNode callTool(Object id, String tool, String arguments) throws Exception {
        return request(id, "tools/call", "{\"name\":\"" + tool + "\",\"arguments\":" + arguments + "}");
    }

    JsonNode initialize(String version) throws Exception {
        JsonNode response = request(
                0,
                "initialize",
                "{\"protocolVersion\":\"" + version + "\",\"capabilities\":{},"
                        + "\"clientInfo\":{\"name\":\"process-test\",\"version\":\"1.0\"}}");
        sendLine("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        return response;
    }

    /** Waits for the response whose id serializes as {@code idJson} ({@code null} for id-less errors). */
    JsonNode response(String idJson) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!byId.containsKey(idJson)) {
            JsonNode next = arrivals.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (next == null) {
                throw new AssertionError("no response with id " + idJson + "; stderr:\n" + Files.readString(stderr));
            }
            byId.put(next.path("id").toString(), next);
        }
        return byId.remove(idJson);
    }

    /** Polls lomi_status until its phase is {@code phase}. */
    JsonNode awaitPhase(String phase) {
        AtomicInteger id = new AtomicInteger(100_000);
        return Eventually.await(
                "lomi_status reports " + phase,
                WAIT,
                Duration.ofMillis(100),
                () -> callTool(id.getAndIncrement(), "lomi_status", "{}").at("/result/structuredContent/data"),
                data -> data.path("phase").asString().equals(phase),
                JsonNode::toString);
    }

    /** Closes stdin and returns the exit status. */
    int closeAndWait() throws Exception {
        stdin.close();
        assertThat(process.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS))
                .as("exits after stdin closes")
                .isTrue();
        return process.exitValue();
    }

    /** Every line the helper wrote to stdout so far. */
    List<String> stdoutLines() {
        return stdoutLines;
    }

    private void readStdout() {
        try (BufferedReader reader =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                stdoutLines.add(line);
                try {
                    arrivals.add(McpJson.MAPPER.readTree(line));
                } catch (RuntimeException e) {
                    // kept in stdoutLines; the "only JSON-RPC on stdout" assertion reports it
                }
            }
        } catch (IOException e) {
            // the process ended
        }
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }
}
