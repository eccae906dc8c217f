package dev.lomicontrol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.testing.BrokerChildProcess;
import dev.lomicontrol.testing.ChildJvm;
import dev.lomicontrol.testing.Machine;
import dev.lomicontrol.testing.McpHelperProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.StreamSupport;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The admin's own terminal and an agent's claim of it, end to end with real processes (the broker
 * and the MCP helper as child JVMs, the console as a child JVM per command, a real sandboxed bash):
 * {@code terminal new} run in the project's folder opens a panel the agent finds with
 * lomi_panel_list (owned by no session); before a claim the agent's input and runs are refused and
 * pointed to lomi_panel_control, and it may not close the panel; its claim waits in {@code decision list} (and shows in
 * {@code decision list --watch}) with a plan naming the admin's own terminal; approved, the agent
 * holds the lease and runs a command there whose output it reads back; a second claim rejected in
 * the console fails with SCOPE_DENIED and the agent holds nothing.
 */
class AdminTerminalClaimProcessTests {

    static final JsonMapper JSON = JsonMapper.builder().build();
    static final String NO_LEASE = "0123456789abcdef0123456789abcdef";

    @TempDir
    Path temp;

    SchemaCheckedCalls agent;
    String epoch;
    int keys;

    @Test
    void anAgentClaimsTheAdminsTerminalOnlyWithTheAdminsApproval() throws Exception {
        Machine.requireOnPath("bwrap", "--version", "bubblewrap");
        Path project = Files.createDirectories(temp.resolve("project")).toRealPath();
        try (BrokerChildProcess broker = BrokerChildProcess.on(temp.resolve("data"))
                        .log(temp.resolve("broker.err"))
                        .emptyHome()
                        .start();
                McpHelperProcess helper = McpHelperProcess.pinnedTo(broker, temp.resolve("helper.err"))
                        .start()) {
            broker.console().mergingStderr().ok("project", "add", project.toString());
            helper.initialize(McpHelperProcess.PROTOCOL);
            helper.approvedInTheConsole(broker);
            agent = SchemaCheckedCalls.listed(helper);
            String workspace = agent.call("lomi_workspace_list", "{}", true)
                    .at("/data/workspaces/0/workspaceId")
                    .asString();
            epoch = agent.call("lomi_connect", "{\"workspaceId\":\"" + workspace + "\"}", true)
                    .at("/data/retryEpoch")
                    .asString();

            JsonNode opened =
                    JSON.readTree(broker.console().in(project).ok("terminal", "new", "--json", "--title", "shared"));
            assertThat(opened.path("workspaceId").asString())
                    .as("the project of the console's working directory, its first workspace")
                    .isEqualTo(workspace);
            String panelId = opened.path("panelId").asString();
            String terminalId = opened.path("terminalSessionId").asString();
            JsonNode listed = panel(workspace, panelId);
            assertThat(listed.path("kind").asString()).isEqualTo("terminal");
            assertThat(listed.path("title").asString()).isEqualTo("shared");
            assertThat(listed.path("ownership").asString())
                    .as("no agent owns it")
                    .isEqualTo("none");
            assertThat(listed.path("terminalSessionId").asString()).isEqualTo(terminalId);
            assertThat(listed.path("inputControlled").asBoolean()).isFalse();
            String target = "\"workspaceId\":\"" + workspace + "\",\"panelId\":\"" + panelId
                    + "\",\"terminalSessionId\":\"" + terminalId + "\"";

            JsonNode typed = agent.call(
                    "lomi_terminal_input",
                    "{" + target + ",\"leaseId\":\"" + NO_LEASE
                            + "\",\"inputSequence\":\"1\",\"input\":{\"type\":\"text\",\"text\":\"echo typed\"}}",
                    false);
            assertThat(typed.path("code").asString()).as("%s", typed).isEqualTo("CONTROL_REVOKED");
            assertThat(typed.path("message").asString()).contains("lomi_panel_control", "claim", "the admin approves");
            JsonNode ran = agent.call("lomi_terminal_run", run(target, NO_LEASE, "echo early"), false);
            assertThat(ran.path("code").asString()).as("%s", ran).isEqualTo("CONTROL_REVOKED");
            assertThat(ran.path("message").asString()).contains("lomi_panel_control");

            JsonNode closed = agent.call(
                    "lomi_panel_close",
                    "{" + target + ",\"expectedRevision\":\""
                            + opened.path("domainRevision").asString() + "\",\"retryEpoch\":\"" + epoch
                            + "\",\"requestKey\":\"k-" + ++keys + "\"}",
                    false);
            assertThat(closed.path("code").asString()).as("%s", closed).isEqualTo("SCOPE_DENIED");
            assertThat(closed.path("message").asString()).contains("the admin's own running terminal");

            String claim = claim(target);
            assertThat(decisionWatchShows(broker, claim)).contains("lomi_panel_control", "your own terminal 'shared'");
            String pending = broker.console().mergingStderr().ok("decision", "list");
            assertThat(pending)
                    .contains(
                            claim,
                            "lomi_panel_control",
                            "\"owner\":\"the admin's own terminal (console terminal new)\"")
                    .contains("\"terminalSessionId\":\"" + terminalId + "\"", "\"currentHolder\":\"nobody\"");
            long approving = System.nanoTime();
            broker.console().mergingStderr().ok("decision", "approve", claim);
            JsonNode claimed = settled(claim);
            System.out.println("claim: approve (a console JVM) to the agent seeing it succeeded: "
                    + (System.nanoTime() - approving) / 1_000_000 + " ms");
            assertThat(claimed.at("/data/state").asString()).as("%s", claimed).isEqualTo("succeeded");
            String lease = claimed.at("/data/result/leaseId").asString();
            assertThat(claimed.at("/data/result/controlled").asBoolean()).isTrue();
            assertThat(panel(workspace, panelId).path("inputControlled").asBoolean())
                    .isTrue();

            awaitPrompt(target);
            String runId = agent.call("lomi_terminal_run", run(target, lease, "echo claimed-$((6*7))"), true)
                    .at("/data/operationId")
                    .asString();
            assertThat(settled(runId).at("/data/state").asString()).isEqualTo("succeeded");
            JsonNode output = agent.call(
                    "lomi_terminal_read",
                    "{" + target + ",\"mode\":\"command\",\"operationId\":\"" + runId + "\",\"cursor\":null}",
                    true);
            assertThat(output.at("/data/text").asString().lines().map(String::strip))
                    .contains("claimed-42");

            agent.call("lomi_panel_control", control(target, "release"), true);
            String second = claim(target);
            broker.console().mergingStderr().ok("decision", "reject", second);
            JsonNode rejected = settled(second);
            assertThat(rejected.at("/data/state").asString()).isEqualTo("failed");
            assertThat(rejected.at("/data/errorCode").asString())
                    .as("%s", rejected)
                    .isEqualTo("SCOPE_DENIED");
            assertThat(panel(workspace, panelId).path("inputControlled").asBoolean())
                    .as("a rejected claim gives nothing")
                    .isFalse();
            JsonNode refused = agent.call("lomi_terminal_run", run(target, lease, "echo again"), false);
            assertThat(refused.path("code").asString())
                    .as("the released lease is gone")
                    .isEqualTo("CONTROL_REVOKED");
        }
    }

    /** The agent's claim of the terminal: parked for the admin; answers its operation id. */
    private String claim(String target) throws Exception {
        JsonNode parked = agent.call("lomi_panel_control", control(target, "claim"), true);
        assertThat(parked.at("/data/state").asString()).isEqualTo("awaiting_user");
        return parked.at("/data/operationId").asString();
    }

    private String control(String target, String action) {
        return "{" + target + ",\"action\":\"" + action + "\",\"retryEpoch\":\"" + epoch + "\",\"requestKey\":\"k-"
                + ++keys + "\"}";
    }

    private String run(String target, String lease, String command) {
        return "{" + target + ",\"leaseId\":\"" + lease + "\",\"command\":\"" + command + "\",\"retryEpoch\":\"" + epoch
                + "\",\"requestKey\":\"k-" + ++keys + "\"}";
    }

    /** The panel as the agent's lomi_panel_list shows it. */
    private JsonNode panel(String workspace, String panelId) throws Exception {
        JsonNode panels = agent.call("lomi_panel_list", "{\"workspaceId\":\"" + workspace + "\"}", true)
                .at("/data/panels");
        return StreamSupport.stream(panels.spliterator(), false)
                .filter(p -> p.path("panelId").asString().equals(panelId))
                .findFirst()
                .orElseThrow(() -> new AssertionError("lomi_panel_list does not show " + panelId + ": " + panels));
    }

    /** What {@code decision list --watch} (a console child JVM, stopped after) printed once it showed {@code operation}. */
    private static String decisionWatchShows(BrokerChildProcess broker, String operation) throws Exception {
        Path out = Files.createTempFile(broker.data().getParent(), "watch", ".out");
        Process watch = ChildJvm.builder(
                        dev.lomicontrol.LomiControl.class,
                        List.of("console", "--data-dir", broker.data().toString(), "decision", "list", "--watch"))
                .redirectOutput(out.toFile())
                .redirectErrorStream(true)
                .start();
        try {
            return Awaitility.await("decision list --watch shows " + operation)
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> Files.readString(out), text -> text.contains("decision " + operation));
        } finally {
            watch.destroy();
            watch.waitFor();
        }
    }

    /** Polls the operation until it is neither queued, running nor awaiting the admin. */
    private JsonNode settled(String operationId) {
        return Awaitility.await("operation " + operationId + " settles")
                .atMost(Duration.ofSeconds(60))
                .until(
                        () -> agent.call("lomi_operation_get", "{\"operationId\":\"" + operationId + "\"}", true),
                        answer -> !List.of("queued", "running", "awaiting_user")
                                .contains(answer.at("/data/state").asString()));
    }

    private void awaitPrompt(String target) {
        Awaitility.await("a ready prompt")
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(50))
                .until(
                        () -> agent.call("lomi_terminal_read", "{" + target + "}", true)
                                .at("/data/prompt")
                                .asString(),
                        "ready"::equals);
    }
}
