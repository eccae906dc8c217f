package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.testing.BrokerChildProcess;
import dev.lomicontrol.testing.McpHelperProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import tools.jackson.databind.JsonNode;

/**
 * An agent with one terminal, for the console's terminal-sharing tests: a real broker (child JVM,
 * YOLO on, one project) and the real {@code --mcp} helper pinned to it, which creates a terminal with
 * {@code lomi_terminal_create} and then types and runs through the helper like any client would.
 * Closing stops the helper, then the broker.
 */
final class ShellAgent implements AutoCloseable {

    final BrokerChildProcess broker;
    final McpHelperProcess helper;
    private final AtomicInteger ids = new AtomicInteger(100);
    private final AtomicInteger keys = new AtomicInteger();
    String workspace = "";
    String epoch = "";
    String panel = "";
    String terminal = "";
    String lease = "";
    long nextInput = 1;

    private ShellAgent(BrokerChildProcess broker, McpHelperProcess helper) {
        this.broker = broker;
        this.helper = helper;
    }

    /** A broker and a connected helper under {@code temp}, with a terminal created at the project root and a ready prompt. */
    static ShellAgent withTerminal(Path temp) throws Exception {
        Path project = Files.createDirectories(temp.resolve("project"));
        BrokerChildProcess broker = BrokerChildProcess.on(temp.resolve("data"))
                .log(temp.resolve("broker.err"))
                .emptyHome()
                .start()
                .withProjectAndYolo(project);
        ShellAgent agent;
        try {
            agent = new ShellAgent(
                    broker,
                    McpHelperProcess.pinnedTo(broker, temp.resolve("helper.err"))
                            .start());
        } catch (Exception | Error e) {
            broker.close();
            throw e;
        }
        try {
            agent.createTerminal();
            return agent;
        } catch (Exception | Error e) {
            agent.close();
            throw e;
        }
    }

    private void createTerminal() throws Exception {
        helper.initialize(McpHelperProcess.PROTOCOL);
        helper.awaitPhase("connected");
        JsonNode list = ok("lomi_workspace_list", "{}");
        workspace = list.at("/data/workspaces/0/workspaceId").asString();
        epoch = ok("lomi_connect", "{\"workspaceId\":\"" + workspace + "\"}")
                .at("/data/retryEpoch")
                .asString();
        String operation = ok(
                        "lomi_terminal_create",
                        "{\"workspaceId\":\"" + workspace + "\",\"cwdRelative\":\"\",\"title\":\"agent shell\","
                                + "\"expectedRevision\":\""
                                + list.at("/data/domainRevision").asString() + "\","
                                + keyed())
                .at("/data/operationId")
                .asString();
        JsonNode created = settled(operation).at("/data/result");
        panel = created.get("panelId").asString();
        terminal = created.get("terminalSessionId").asString();
        lease = created.get("leaseId").asString();
        awaitPrompt();
    }

    /** Runs {@code command} with {@code lomi_terminal_run} and waits until it settled; answers the settled operation. */
    JsonNode runs(String command) throws Exception {
        JsonNode answer = run(command);
        assertThat(answer.path("isError").asBoolean()).as(answer.toString()).isFalse();
        JsonNode settled =
                settled(answer.at("/structuredContent/data/operationId").asString());
        awaitPrompt();
        return settled;
    }

    /** One {@code lomi_terminal_run} call: its whole result ({@code isError}, {@code structuredContent}). */
    JsonNode run(String command) throws Exception {
        return call(
                "lomi_terminal_run",
                "{" + target() + ",\"leaseId\":\"" + lease + "\",\"command\":"
                        + McpHelperProcess.JSON.writeValueAsString(command) + "," + keyed());
    }

    /** One {@code lomi_terminal_input} of {@code text} with the next input sequence: its whole result. */
    JsonNode input(String text) throws Exception {
        JsonNode answer = call(
                "lomi_terminal_input",
                "{" + target() + ",\"leaseId\":\"" + lease + "\",\"inputSequence\":\"" + nextInput
                        + "\",\"input\":{\"type\":\"text\",\"text\":" + McpHelperProcess.JSON.writeValueAsString(text)
                        + "}}");
        if (!answer.path("isError").asBoolean()) {
            nextInput++;
        }
        return answer;
    }

    /** The last request key this agent used (for looking its receipt up). */
    String lastKey() {
        return "share-" + keys.get();
    }

    /** {@code lomi_operation_get} by this agent's retry epoch and {@code key}: its whole result. */
    JsonNode operationByKey(String tool, String key) throws Exception {
        return call(
                "lomi_operation_get",
                "{\"retryEpoch\":\"" + epoch + "\",\"requestKey\":\"" + key + "\",\"tool\":\"" + tool + "\"}");
    }

    /** The terminal's text as {@code lomi_terminal_read} pages it from the start. */
    String text() throws Exception {
        return ok("lomi_terminal_read", "{" + target() + ",\"cursor\":\"0\"}")
                .at("/data/text")
                .asString();
    }

    void awaitPrompt() {
        Awaitility.await("a ready prompt")
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(50))
                .until(
                        () -> ok("lomi_terminal_read", "{" + target() + "}")
                                .at("/data/prompt")
                                .asString(),
                        "ready"::equals);
    }

    private String target() {
        return "\"workspaceId\":\"" + workspace + "\",\"panelId\":\"" + panel + "\",\"terminalSessionId\":\"" + terminal
                + "\"";
    }

    private String keyed() {
        return "\"retryEpoch\":\"" + epoch + "\",\"requestKey\":\"share-" + keys.incrementAndGet() + "\"}";
    }

    private JsonNode settled(String operation) {
        return Awaitility.await("operation " + operation + " settles")
                .atMost(Duration.ofSeconds(60))
                .until(
                        () -> ok("lomi_operation_get", "{\"operationId\":\"" + operation + "\"}"),
                        answer -> !List.of("queued", "running")
                                .contains(answer.at("/data/state").asString()));
    }

    JsonNode call(String tool, String arguments) throws Exception {
        return helper.callTool(ids.incrementAndGet(), tool, arguments).get("result");
    }

    private JsonNode ok(String tool, String arguments) throws Exception {
        JsonNode result = call(tool, arguments);
        assertThat(result.path("isError").asBoolean()).as(tool + ": " + result).isFalse();
        return result.get("structuredContent");
    }

    @Override
    public void close() throws InterruptedException {
        try {
            helper.close();
        } finally {
            broker.close();
        }
    }
}
