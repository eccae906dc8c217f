package dev.lomicontrol.testing;

import dev.lomicontrol.LomiControl;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The real MCP helper ({@code lomi-control --mcp}) in a child JVM, spoken to as an MCP client would:
 * one JSON-RPC message per stdin line, answers matched by id from stdout. The one helper driver of
 * the test suite. Its stdout is split only at {@code \n}; every line is kept ({@link #stdoutLines()})
 * so a test can check that nothing but JSON-RPC ever appeared there ({@link #foreignLines()}).
 *
 * <p>With {@link McpHelperLaunch#rawStdout()} the driver does not read JSON at all: the lines come as bytes,
 * exactly as written, from {@link #nextLine} (for clients that judge every byte themselves).
 */
public final class McpHelperProcess implements AutoCloseable {

    /** Marks the end of the helper's stdout in raw mode (the process ended or closed it). */
    public static final byte[] END = new byte[0];

    /** Strict JSON, as the helper itself reads: duplicate keys and trailing tokens are not JSON. */
    public static final JsonMapper JSON = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    /** The MCP revision the tests speak unless they say otherwise. */
    public static final String PROTOCOL = "2025-11-25";

    /** The default wait for an answer or an exit: longer than the helper's own 30 s call bound. */
    public static final Duration WAIT = Duration.ofSeconds(60);

    private final Process process;
    private final long startedNanos;
    private final Path stderr;
    private final OutputStream stdin;
    private final BlockingQueue<byte[]> rawLines;
    private final List<String> stdoutLines = new ArrayList<>();
    private final List<String> foreignLines = new ArrayList<>();
    private final Map<String, JsonNode> answers = new ConcurrentHashMap<>();
    private final AtomicLong nextId = new AtomicLong(1_000_000);
    private final Thread reader;
    private volatile boolean stdoutEnded;

    McpHelperProcess(Process process, long startedNanos, Path stderr, boolean raw) {
        this.process = process;
        this.startedNanos = startedNanos;
        this.stderr = stderr;
        this.rawLines = raw ? new LinkedBlockingQueue<>() : null;
        this.stdin = process.getOutputStream();
        this.reader = new Thread(this::readStdout, "mcp-helper-stdout");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Starts a helper pinned to {@code discoveryFile} and {@code key}, with no label grace (it pairs at
     * once under its client's name), and initializes MCP as {@code clientName}.
     */
    public static McpHelperProcess startPinned(Path discoveryFile, String key, Path stderr, String clientName)
            throws Exception {
        return launch(stderr)
                .discovery(discoveryFile, key)
                .property("lomi.mcp.label-grace-ms", "0")
                .startInitialized(clientName);
    }

    /** A helper paired with {@code broker}, with no label grace (it pairs at once); more options may follow. */
    public static McpHelperLaunch pinnedTo(BrokerChildProcess broker, Path stderr) {
        return launch(stderr).pairedWith(broker).property("lomi.mcp.label-grace-ms", "0");
    }

    /** The command line of a helper paired with {@code broker}, for clients that start the helper themselves. */
    public static List<String> command(BrokerChildProcess broker) {
        return commandLine(List.of(), broker.helperArgs());
    }

    /** The command line of a helper with {@code args} after {@code --mcp}, for clients that start the helper themselves. */
    public static List<String> command(List<String> args) {
        return commandLine(List.of(), args);
    }

    static List<String> commandLine(List<String> jvmOptions, List<String> args) {
        List<String> helperArgs = new ArrayList<>(List.of("--mcp"));
        helperArgs.addAll(args);
        return ChildJvm.builder(jvmOptions, LomiControl.class, helperArgs).command();
    }

    /** A helper whose stderr goes to {@code stderr}; arguments and options follow. */
    public static McpHelperLaunch launch(Path stderr) {
        return new McpHelperLaunch(stderr);
    }

    public Process process() {
        return process;
    }

    /** {@link System#nanoTime()} just before the process started. */
    public long startedNanos() {
        return startedNanos;
    }

    public Path stderr() {
        return stderr;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public void sendLine(String line) throws IOException {
        send((line + "\n").getBytes(StandardCharsets.UTF_8));
    }

    /** Writes {@code bytes} to the helper's stdin as they are (no newline added). */
    public synchronized void send(byte[] bytes) throws IOException {
        stdin.write(bytes);
        stdin.flush();
    }

    /** Sends a request with {@code id} ({@code params}: JSON text or null) and waits for the response with that id. */
    public JsonNode request(Object id, String method, String params) throws Exception {
        return response(sendRequest(id, method, params));
    }

    /** Sends a request with {@code id} ({@code params}: JSON text or null) without waiting; answers the id as JSON. */
    public String sendRequest(Object id, String method, String params) throws IOException {
        String idJson = id instanceof String ? "\"" + id + "\"" : String.valueOf(id);
        sendLine("{\"jsonrpc\":\"2.0\",\"id\":" + idJson + ",\"method\":\"" + method + "\""
                + (params == null ? "" : ",\"params\":" + params) + "}");
        return idJson;
    }

    /** Sends a request under a fresh id and waits for its whole JSON-RPC response. */
    public JsonNode request(String method, JsonNode params) throws Exception {
        long id = nextId.getAndIncrement();
        ObjectNode message =
                JSON.createObjectNode().put("jsonrpc", "2.0").put("id", id).put("method", method);
        if (params != null) {
            message.set("params", params);
        }
        sendLine(JSON.writeValueAsString(message));
        return response(String.valueOf(id));
    }

    /** One {@code tools/call} under {@code id}; answers the whole JSON-RPC response. */
    public JsonNode callTool(Object id, String tool, String arguments) throws Exception {
        return response(sendToolCall(id, tool, arguments));
    }

    /** One {@code tools/call} under {@code id}, sent without waiting; answers the id as JSON (for {@link #response}). */
    public String sendToolCall(Object id, String tool, String arguments) throws IOException {
        return sendRequest(id, "tools/call", "{\"name\":\"" + tool + "\",\"arguments\":" + arguments + "}");
    }

    /** One {@code tools/call} under a fresh id; answers the whole response (a {@code result} or an {@code error}). */
    public JsonNode call(String tool, JsonNode arguments) throws Exception {
        ObjectNode params = JSON.createObjectNode().put("name", tool);
        params.set("arguments", arguments);
        return request("tools/call", params);
    }

    /** {@code initialize} with {@code version}, then {@code notifications/initialized}; answers the initialize response. */
    public JsonNode initialize(String version) throws Exception {
        return initialize(version, "process-test");
    }

    public JsonNode initialize(String version, String clientName) throws Exception {
        ObjectNode params =
                JSON.createObjectNode().put("protocolVersion", version).set("capabilities", JSON.createObjectNode());
        params.set("clientInfo", JSON.createObjectNode().put("name", clientName).put("version", "1.0"));
        JsonNode response = request("initialize", params);
        sendLine("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        return response;
    }

    /** Waits for the response whose id serializes as {@code idJson} ({@code null} for id-less errors). */
    public JsonNode response(String idJson) {
        Eventually.await(
                "an answer with id " + idJson,
                WAIT,
                Duration.ofMillis(2),
                () -> {
                    if (!answers.containsKey(idJson) && stdoutEnded && !process.isAlive()) {
                        throw new AssertionError("no answer with id " + idJson + ": the helper exited "
                                + process.exitValue() + "; stderr:\n" + stderrTail());
                    }
                    return answers.containsKey(idJson);
                },
                Boolean.TRUE::equals,
                ignored -> "no answer; stderr:\n" + stderrTail());
        return answers.remove(idJson);
    }

    /** Polls {@code lomi_status} until its phase is {@code phase}; answers its data. */
    public JsonNode awaitPhase(String phase) {
        return Eventually.await(
                "lomi_status reports " + phase,
                WAIT,
                Duration.ofMillis(100),
                () -> call("lomi_status", JSON.createObjectNode()).at("/result/structuredContent/data"),
                data -> data.path("phase").asString().equals(phase),
                JsonNode::toString);
    }

    /**
     * Waits for this helper's pairing request, has the admin approve it with {@code console pairing
     * approve <id>} (plus {@code options}, e.g. {@code --scopes …}), and waits until it is connected.
     */
    public void approvedInTheConsole(BrokerChildProcess broker, String... options) throws Exception {
        String pairing = awaitPhase("pairing_required").path("pairingRequestId").asString();
        List<String> approve = new ArrayList<>(List.of("pairing", "approve", pairing));
        approve.addAll(List.of(options));
        broker.console().mergingStderr().ok(approve.toArray(String[]::new));
        awaitPhase("connected");
    }

    /** The next stdout line without its {@code \n} (raw mode), {@link #END} after the last, or null after {@code wait}. */
    public byte[] nextLine(Duration wait) throws InterruptedException {
        byte[] line = rawLines.poll(wait.toNanos(), TimeUnit.NANOSECONDS);
        if (line == END) {
            rawLines.add(END); // stays at the end for every later caller
        }
        return line;
    }

    /** Every line the helper wrote to stdout so far. */
    public synchronized List<String> stdoutLines() {
        return new ArrayList<>(stdoutLines);
    }

    /** Lines the helper wrote to stdout that were not a JSON-RPC 2.0 answer with an id (must stay empty). */
    public synchronized List<String> foreignLines() {
        return new ArrayList<>(foreignLines);
    }

    /** How many times this helper connected to a broker so far (its stderr says so on every connection). */
    public long brokerConnections() throws IOException {
        return stderrText()
                .lines()
                .filter(line -> line.contains("broker connection: connected"))
                .count();
    }

    /** Everything the helper wrote on stderr so far, byte for byte. */
    public String stderrText() throws IOException {
        return Files.exists(stderr) ? Files.readString(stderr, StandardCharsets.ISO_8859_1) : "";
    }

    /** The last 4000 characters of stderr, for failure messages (never throws). */
    public String stderrTail() {
        try {
            String text = stderrText();
            return text.substring(Math.max(0, text.length() - 4000));
        } catch (IOException e) {
            return "(stderr unreadable: " + e.getMessage() + ")";
        }
    }

    /**
     * Closes stdin and answers the exit status, or -1 when the helper did not exit within {@code wait}.
     * After an exit, everything it wrote on stdout has been read.
     */
    public int closeAndWait(Duration wait) throws IOException, InterruptedException {
        stdin.close();
        if (!process.waitFor(wait.toMillis(), TimeUnit.MILLISECONDS)) {
            return -1;
        }
        reader.join(TimeUnit.SECONDS.toMillis(10));
        return process.exitValue();
    }

    /** Closes stdin and answers the exit status; fails when the helper does not exit within {@link #WAIT}. */
    public int closeAndWait() throws IOException, InterruptedException {
        int status = closeAndWait(WAIT);
        if (status == -1 && process.isAlive()) {
            throw new AssertionError("the helper did not exit within " + WAIT + " after stdin closed");
        }
        return status;
    }

    /** SIGKILL, and a wait for the process to be gone. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    /** End of stdin, as an MCP client that goes away; SIGKILL if the helper has not exited within 10 s. */
    @Override
    public void close() throws InterruptedException {
        try {
            stdin.close();
        } catch (IOException e) {
            // already gone
        }
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            kill();
        }
    }

    private void readStdout() {
        try (InputStream in = process.getInputStream()) {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            byte[] chunk = new byte[64 * 1024];
            for (int read = in.read(chunk); read >= 0; read = in.read(chunk)) {
                int start = 0;
                for (int i = 0; i < read; i++) {
                    if (chunk[i] == '\n') {
                        line.write(chunk, start, i - start);
                        accept(line.toByteArray());
                        line.reset();
                        start = i + 1;
                    }
                }
                line.write(chunk, start, read - start);
            }
            if (line.size() > 0) {
                accept(line.toByteArray()); // an unterminated last line is still seen
            }
        } catch (IOException e) {
            // the process ended; a waiting request reports it
        } finally {
            stdoutEnded = true;
            if (rawLines != null) {
                rawLines.add(END);
            }
        }
    }

    private void accept(byte[] bytes) {
        if (rawLines != null) {
            rawLines.add(bytes);
            return;
        }
        String line = new String(bytes, StandardCharsets.UTF_8);
        JsonNode message = parse(line);
        synchronized (this) {
            stdoutLines.add(line);
            if (message == null
                    || !message.path("jsonrpc").asString("").equals("2.0")
                    || message.path("id").isNull()
                    || message.path("id").isMissingNode()) {
                foreignLines.add(line);
            }
        }
        if (message != null && message.has("id")) {
            answers.put(message.get("id").toString(), message);
        }
    }

    private static JsonNode parse(String line) {
        try {
            JsonNode node = JSON.readTree(line);
            return node.isObject() ? node : null;
        } catch (RuntimeException e) {
            return null;
        }
    }
}
