package dev.lomicontrol.proof.fuzz;

import dev.lomicontrol.testing.McpHelperProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import tools.jackson.databind.JsonNode;

/**
 * Drives one helper: sends probes in bursts and, after each burst, proves the session still works
 * (a {@code ping} and a full {@code tools/list} are answered) and that every well-formed request of
 * the burst got its answer. Every stdout line goes through the {@link ReplyAudit}. A helper that
 * stops reading or whose stdout ends is reported with the last probes sent.
 */
final class HelperFuzzRun {

    static final int BURST = 250;
    static final Duration WAIT = Duration.ofSeconds(60);

    final ReplyAudit audit = new ReplyAudit();
    private final McpHelperProcess helper;
    private final Deque<String> recent = new ArrayDeque<>();
    private int toolCount = -1;
    private long controlIds;
    private long sent;
    private int checkpoints;

    HelperFuzzRun(McpHelperProcess helper) {
        this.helper = helper;
    }

    /** Starts {@code --mcp ARGS} with the given {@code -D} properties, its stdout read as raw bytes. */
    static McpHelperProcess helper(Path stderr, List<String> args, Map<String, String> properties) throws IOException {
        return McpHelperProcess.launch(stderr)
                .args(args)
                .properties(properties)
                .rawStdout()
                .fullJit(FuzzBroker.fullJit())
                .start();
    }

    /** initialize, notifications/initialized and tools/list; returns the published catalog. */
    List<HostileLines.Tool> open() throws Exception {
        initialize();
        helper.send(Probe.Lines.bytes("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"));
        JsonNode tools = call("tools/list", null).at("/result/tools");
        toolCount = tools.size();
        List<HostileLines.Tool> catalog = new ArrayList<>();
        tools.values()
                .forEach(tool ->
                        catalog.add(new HostileLines.Tool(tool.get("name").asString(), tool.get("inputSchema"))));
        if (catalog.isEmpty()) {
            throw new AssertionError("tools/list returned no tools");
        }
        return catalog;
    }

    /** Sends {@code count} probes with a checkpoint after every {@value #BURST} and at the end. */
    void run(HostileLines lines, int count) throws Exception {
        for (int i = 1; i <= count; i++) {
            Probe probe = lines.next();
            audit.expect(probe);
            remember(probe);
            try {
                helper.send(probe.bytes());
            } catch (IOException e) {
                throw died("writing to its stdin failed (" + e.getMessage() + ")");
            }
            sent++;
            if (i % BURST == 0 || i == count) {
                checkpoint();
            }
        }
    }

    /** A well-formed request with a fresh id, answered within {@link #WAIT}; returns the whole response. */
    JsonNode call(String method, String params) throws Exception {
        String id = "ctl-" + (++controlIds);
        IdKey key = IdKey.ofString(id);
        Probe probe = Probe.answer("control", HostileLines.request(JsonText.quote(id), method, params), key, method);
        audit.expect(probe);
        audit.watch(key);
        helper.send(probe.bytes());
        if (!pump(() -> audit.answered(key))) {
            throw died("no answer to " + method + " within " + WAIT.toSeconds() + " s");
        }
        return audit.watchedReply(key);
    }

    /** Negotiates 2025-11-25 again (probes may have negotiated an older revision, whose results carry no structuredContent). */
    void initialize() throws Exception {
        call(
                "initialize",
                "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"fuzz\",\"version\":\"1\"}}");
    }

    long sent() {
        return sent;
    }

    private void checkpoint() throws Exception {
        checkpoints++;
        call("ping", null);
        audit.checkpoint("checkpoint " + checkpoints + " after " + sent + " messages");
        JsonNode tools = call("tools/list", null).at("/result/tools");
        if (tools.size() != toolCount) {
            audit.fail("checkpoint " + checkpoints + ": tools/list listed " + tools.size() + " tools instead of "
                    + toolCount);
        }
        if (!pump(audit::nothingOutstanding)) {
            audit.finish("checkpoint " + checkpoints);
        }
        if (!helper.isAlive()) {
            throw died("the process ended");
        }
    }

    /** Feeds stdout lines to the audit until {@code done} holds (true) or {@link #WAIT} passes (false). */
    private boolean pump(BooleanSupplier done) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!done.getAsBoolean()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            byte[] line = helper.nextLine(Duration.ofNanos(left));
            if (line == McpHelperProcess.END) {
                throw died("its stdout ended");
            }
            if (line != null) {
                audit.reply(line);
            }
        }
        return true;
    }

    private void remember(Probe probe) {
        recent.addLast(probe.describe(300));
        if (recent.size() > 10) {
            recent.removeFirst();
        }
    }

    private AssertionError died(String what) throws IOException {
        String stderr = helper.stderrText();
        return new AssertionError("the helper broke: " + what + " after " + sent + " messages; alive="
                + helper.isAlive() + "\nlast probes:\n  "
                + String.join("\n  ", recent) + "\nfailures so far: " + audit.failures() + "\nstderr tail:\n"
                + stderr.substring(Math.max(0, stderr.length() - 4000)));
    }
}
