package dev.lomicontrol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.testing.McpHelperProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Seed 000's terminal flow through the real helper and the real broker (both child JVMs, YOLO on),
 * with the reference's arguments: {@code lomi_terminal_create} with {@code cwdRelative:""} starts
 * the shell at the project root, the screen honours {@code minimumParsedSequence}, and the Android
 * form of {@code lomi_panel_control} is HOST_UNQUALIFIED without adb and TARGET_NOT_FOUND for a terminal's panel with it. Every envelope conforms to the tool's
 * published outputSchema.
 */
class TerminalSeedFlowTests {

    @TempDir
    Path temp;

    SchemaCheckedCalls agent;

    @Test
    void theSeed000TerminalFlowRunsEndToEnd() throws Exception {
        try (YoloHelper yolo = YoloHelper.start(temp)) {
            flow(yolo.helper, yolo.project.toRealPath());
            assertThat(Files.readString(yolo.helper.stderr())).doesNotContain("does not match the output schema");
        }
    }

    private void flow(McpHelperProcess helper, Path root) throws Exception {
        agent = SchemaCheckedCalls.connected(helper);
        agent.call("lomi_status", "{}", true);
        JsonNode list = agent.call("lomi_workspace_list", "{}", true);
        String workspaceId = list.at("/data/workspaces/0/workspaceId").asString();
        String revision = list.at("/data/domainRevision").asString();
        String epoch = agent.call("lomi_connect", "{\"workspaceId\":\"" + workspaceId + "\"}", true)
                .at("/data/retryEpoch")
                .asString();

        // seed 000's example, its exact arguments
        String create = "{\"workspaceId\":\"" + workspaceId
                + "\",\"cwdRelative\":\"\",\"title\":\"Tests\",\"expectedRevision\":\"" + revision
                + "\",\"retryEpoch\":\"" + epoch + "\",\"requestKey\":\"create-test-terminal-1\"}";
        String operationId = agent.call("lomi_terminal_create", create, true)
                .at("/data/operationId")
                .asString();
        JsonNode created = settled(operationId);
        assertThat(created.at("/data/state").asString()).as("%s", created).isEqualTo("succeeded");
        JsonNode byKey = agent.call(
                "lomi_operation_get",
                "{\"retryEpoch\":\"" + epoch + "\",\"requestKey\":\"create-test-terminal-1\","
                        + "\"tool\":\"lomi_terminal_create\"}",
                true);
        assertThat(byKey.at("/data/operationId").asString())
                .as("read back by its key")
                .isEqualTo(operationId);
        assertThat(agent.call("lomi_terminal_create", create, true)
                        .at("/data/operationId")
                        .asString())
                .as("a retry answers the same operation")
                .isEqualTo(operationId);
        JsonNode terminal = created.at("/data/result");
        assertThat(terminal.get("kind").asString()).isEqualTo("terminal_created");
        String target = "\"workspaceId\":\"" + workspaceId + "\",\"panelId\":\""
                + terminal.get("panelId").asString() + "\",\"terminalSessionId\":\""
                + terminal.get("terminalSessionId").asString() + "\"";
        awaitPrompt(helper, target);

        JsonNode run = agent.call(
                "lomi_terminal_run",
                "{" + target + ",\"leaseId\":\"" + terminal.get("leaseId").asString() + "\",\"command\":\"pwd\","
                        + "\"retryEpoch\":\"" + epoch + "\",\"requestKey\":\"seed-000-pwd\"}",
                true);
        String runId = run.at("/data/operationId").asString();
        JsonNode settled = settled(runId);
        assertThat(settled.at("/data/state").asString()).isEqualTo("succeeded");
        JsonNode output = agent.call(
                "lomi_terminal_read",
                "{" + target + ",\"mode\":\"command\",\"operationId\":\"" + runId + "\",\"cursor\":null}",
                true);
        assertThat(output.at("/data/text").asString().lines().map(String::strip))
                .contains(root.toString());

        String stream = agent.call("lomi_terminal_read", "{" + target + "}", true)
                .at("/data/streamSequence")
                .asString();
        JsonNode screen = agent.call(
                "lomi_terminal_read",
                "{" + target + ",\"mode\":\"screen\",\"minimumParsedSequence\":\"" + stream + "\"}",
                true);
        assertThat(Long.parseLong(screen.at("/data/parsedSequence").asString()))
                .isGreaterThanOrEqualTo(Long.parseLong(stream));
        assertThat(screen.at("/data/text").asString()).contains(root.toString());

        JsonNode android = agent.call(
                "lomi_panel_control",
                "{\"workspaceId\":\"" + workspaceId + "\",\"panelId\":\""
                        + terminal.get("panelId").asString()
                        + "\",\"deviceId\":\"emulator-5554\",\"generation\":\"1\",\"action\":\"claim\",\"expectedRevision\":\""
                        + revision + "\",\"retryEpoch\":\""
                        + epoch + "\",\"requestKey\":\"seed-000-android\"}",
                false);
        assertThat(android.get("code").asString())
                .as(
                        "the Android form goes to the Android feature: without adb it says what is missing; with adb"
                                + " (as .ci/run installs it) the terminal's panel is no Android panel: %s",
                        android)
                .isEqualTo(
                        dev.lomicontrol.tools.HostProbe.current().adb().isPresent()
                                ? "TARGET_NOT_FOUND"
                                : "HOST_UNQUALIFIED");
    }

    /** Polls the operation (with lomi_operation_get) for up to a minute until it is neither queued nor running. */
    private JsonNode settled(String operationId) {
        return org.awaitility.Awaitility.await()
                .atMost(java.time.Duration.ofSeconds(60))
                .until(
                        () -> agent.call("lomi_operation_get", "{\"operationId\":\"" + operationId + "\"}", true),
                        answer -> !List.of("queued", "running")
                                .contains(answer.at("/data/state").asString()));
    }

    private void awaitPrompt(McpHelperProcess helper, String target) throws Exception {
        org.awaitility.Awaitility.await("a ready prompt")
                .atMost(java.time.Duration.ofSeconds(30))
                .pollInterval(java.time.Duration.ofMillis(25))
                .until(
                        () -> agent.call("lomi_terminal_read", "{" + target + "}", true)
                                .at("/data/prompt")
                                .asString(),
                        "ready"::equals);
    }
}
