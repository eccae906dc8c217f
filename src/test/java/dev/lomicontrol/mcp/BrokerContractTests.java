package dev.lomicontrol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.testing.BrokerChildProcess;
import dev.lomicontrol.testing.Eventually;
import dev.lomicontrol.testing.McpHelperProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The contract between the two halves: the real broker ({@code serve}, YOLO on via the console) and
 * the real helper, both child JVMs. Every answer of every broker tool in the catalog conforms to the
 * output schema the helper publishes in {@code tools/list}.
 */
class BrokerContractTests {

    static final String NO_OPERATION = "{\"operationId\":\"" + "0".repeat(40) + "\"}";

    @TempDir
    Path temp;

    SchemaCheckedCalls agent;

    @Test
    void everyBrokerAnswerConformsToThePublishedOutputSchema() throws Exception {
        try (YoloHelper yolo = YoloHelper.start(temp)) {
            exerciseEveryBrokerTool(yolo.helper);
            assertThat(Files.readString(yolo.helper.stderr())).doesNotContain("does not match the output schema");
        }
    }

    private void exerciseEveryBrokerTool(McpHelperProcess helper) throws Exception {
        agent = SchemaCheckedCalls.connected(helper);
        String workspaceId = agent.call("lomi_workspace_list", "{\"limit\":1}", true)
                .at("/data/workspaces/0/workspaceId")
                .asString();
        String workspace = "{\"workspaceId\":\"" + workspaceId + "\"}";
        String epoch = agent.call("lomi_connect", workspace, true)
                .at("/data/retryEpoch")
                .asString();
        agent.call("lomi_events_read", workspace, true);
        agent.call("lomi_operation_get", NO_OPERATION, false);
        agent.call("lomi_operation_cancel", NO_OPERATION, false);
        agent.call("lomi_session_attach", "{\"externalId\":\"thread-1\"}", true);
        agent.call("lomi_episodes", "{}", true);
        agent.call("lomi_session_detach", "{}", true);
        exerciseLayoutAndTerminalTools(helper, workspaceId, epoch);
        exerciseFileEditorArtifactAndSettingsTools(helper, workspaceId, epoch);
        exerciseGitTools(helper, workspaceId, epoch);
        assertThat(agent.outputSchemas.keySet())
                .as("every catalog tool was listed")
                .hasSize(Catalog.standard().all().size());
    }

    /**
     * Without YOLO, end to end with real processes: the admin approves the client's pairing in the
     * console, the agent asks to open a folder, the operation waits in awaiting_user with its exact
     * plan in {@code decision list}, and {@code decision approve} lets it run once.
     */
    @Test
    void aProjectOpenWaitsForTheAdminsDecisionInTheConsole() throws Exception {
        Path data = temp.resolve("data");
        try (BrokerChildProcess broker = BrokerChildProcess.on(data)
                .log(temp.resolve("broker.err"))
                .emptyHome()
                .start()) {
            console(
                    broker,
                    "project",
                    "add",
                    Files.createDirectories(temp.resolve("project")).toString());
            try (McpHelperProcess helper = McpHelperProcess.pinnedTo(broker, temp.resolve("helper.err"))
                    .start()) {
                helper.initialize("2025-11-25");
                helper.approvedInTheConsole(broker);
                agent = SchemaCheckedCalls.listed(helper);
                String workspaceId = agent.call("lomi_workspace_list", "{}", true)
                        .at("/data/workspaces/0/workspaceId")
                        .asString();
                JsonNode connection = agent.call("lomi_connect", "{\"workspaceId\":\"" + workspaceId + "\"}", true);
                String revision = agent.call("lomi_panel_list", "{\"workspaceId\":\"" + workspaceId + "\"}", true)
                        .at("/data/domainRevision")
                        .asString();
                Path folder = Files.createDirectories(temp.resolve("asked-for")).toRealPath();
                String request = "{\"workspaceId\":\"" + workspaceId + "\",\"projectPath\":\"" + folder
                        + "\",\"name\":\"asked\",\"expectedRevision\":\"" + revision + "\",\"retryEpoch\":\""
                        + connection.at("/data/retryEpoch").asString() + "\",\"requestKey\":\"open-1\"}";
                JsonNode parked = agent.call("lomi_project_open", request, true);
                assertThat(parked.at("/data/state").asString()).isEqualTo("awaiting_user");
                String operation = parked.at("/data/operationId").asString();

                String pending = console(broker, "decision", "list");
                assertThat(pending)
                        .contains(operation)
                        .contains("lomi_project_open")
                        .contains(folder.toString());
                console(broker, "decision", "approve", operation);

                JsonNode done = agent.call("lomi_operation_get", "{\"operationId\":\"" + operation + "\"}", true);
                assertThat(done.at("/data/state").asString()).isEqualTo("succeeded");
                assertThat(agent.call("lomi_project_open", request, true)
                                .at("/data/operationId")
                                .asString())
                        .as("a retry answers the same operation")
                        .isEqualTo(operation);
                assertThat(agent.call("lomi_workspace_list", "{}", true)
                                .at("/data/workspaces")
                                .size())
                        .isEqualTo(2);
                assertThat(console(broker, "project", "list")).contains(folder.toString());
            }
        }
    }

    /** The layout and terminal tools through the real helper and broker, with a real bash behind the terminal. */
    private void exerciseLayoutAndTerminalTools(McpHelperProcess helper, String workspaceId, String epoch)
            throws Exception {
        String ws = "\"workspaceId\":\"" + workspaceId + "\"";
        String revision = agent.call("lomi_panel_list", "{" + ws + "}", true)
                .at("/data/domainRevision")
                .asString();
        JsonNode created = agent.call(
                "lomi_workspace_create", "{" + ws + ",\"name\":\"second\"" + op(revision, epoch) + "}", true);
        String second = created.at("/data/result/workspaceId").asString();
        revision = created.at("/data/result/domainRevision").asString();
        JsonNode renamed = agent.call(
                "lomi_workspace_update",
                "{\"workspaceId\":\"" + second + "\",\"name\":\"renamed\"" + op(revision, epoch) + "}",
                true);
        revision = renamed.at("/data/result/domainRevision").asString();
        agent.call("lomi_workspace_update", "{" + ws + ",\"name\":\"stale\"" + op("1", epoch) + "}", false);

        JsonNode terminal = agent.call("lomi_terminal_create", "{" + ws + op(revision, epoch) + "}", true)
                .at("/data/result");
        revision = terminal.get("domainRevision").asString();
        String target = ws + ",\"panelId\":\"" + terminal.get("panelId").asString() + "\",\"terminalSessionId\":\""
                + terminal.get("terminalSessionId").asString() + "\"";
        String lease = ",\"leaseId\":\"" + terminal.get("leaseId").asString() + "\"";
        awaitPrompt(helper, target);
        JsonNode run = agent.call(
                "lomi_terminal_run",
                "{" + target + lease + ",\"command\":\"echo contract\"" + op(null, epoch) + "}",
                true);
        String runId = run.at("/data/operationId").asString();
        Eventually.await(
                "the run " + runId + " succeeds",
                Duration.ofSeconds(30),
                () -> agent.call("lomi_operation_get", "{\"operationId\":\"" + runId + "\"}", true),
                settled -> settled.at("/data/state").asString().equals("succeeded"));
        assertThat(agent.call(
                                "lomi_terminal_read",
                                "{" + target + ",\"mode\":\"command\",\"operationId\":\"" + runId + "\"}",
                                true)
                        .at("/data/text")
                        .asString())
                .contains("contract");
        agent.call("lomi_terminal_read", "{" + target + ",\"mode\":\"raw\",\"cursor\":\"0\"}", true);
        agent.call("lomi_terminal_read", "{" + target + ",\"mode\":\"screen\"}", true);
        agent.call(
                "lomi_terminal_input",
                "{" + target + lease + ",\"inputSequence\":\"1\",\"input\":{\"type\":\"key\",\"key\":\"enter\"}}",
                true);
        agent.call(
                "lomi_terminal_interrupt",
                "{" + target + lease + ",\"operationId\":\"" + runId + "\"" + op(null, epoch) + "}",
                false);
        awaitPrompt(helper, target);

        JsonNode list = agent.call("lomi_panel_list", "{" + ws + "}", true);
        revision = list.at("/data/domainRevision").asString();
        String firstTab = list.at("/data/tabs/0/tabId").asString();
        JsonNode moved = agent.call(
                "lomi_panel_move",
                "{" + ws + ",\"movement\":{\"type\":\"reorder_tab\",\"tabId\":\"" + firstTab + "\"}"
                        + op(revision, epoch) + "}",
                true);
        revision = moved.at("/data/result/domainRevision").asString();
        JsonNode focused = agent.call("lomi_panel_focus", "{" + target + op(revision, epoch) + "}", true);
        revision = focused.at("/data/result/domainRevision").asString();
        agent.call("lomi_panel_control", "{" + target + ",\"action\":\"release\"" + op(null, epoch) + "}", true);
        JsonNode closed = agent.call("lomi_panel_close", "{" + target + op(revision, epoch) + "}", true);
        assertThat(closed.at("/data/state").asString()).isEqualTo("succeeded");
        revision = closed.at("/data/result/domainRevision").asString();

        Path folder = Files.createDirectories(temp.resolve("opened"));
        JsonNode opened = agent.call(
                "lomi_project_open",
                "{" + ws + ",\"projectPath\":\"" + folder.toRealPath() + "\",\"name\":\"opened\"" + op(revision, epoch)
                        + "}",
                true);
        assertThat(opened.at("/data/state").asString())
                .as("YOLO approves at once")
                .isEqualTo("succeeded");
        revision = opened.at("/data/result/domainRevision").asString();
        String openedWs = opened.at("/data/result/workspaceId").asString();
        String openedProject = opened.at("/data/result/projectId").asString();
        JsonNode projectClosed = agent.call(
                "lomi_project_close",
                "{\"workspaceId\":\"" + openedWs + "\",\"projectId\":\"" + openedProject + "\"" + op(revision, epoch)
                        + "}",
                true);
        assertThat(projectClosed.at("/data/state").asString()).isEqualTo("succeeded");
        assertThat(Files.isDirectory(folder)).isTrue();
    }

    /** Files, editor, artifacts and settings through the real helper and broker on a real project folder. */
    private void exerciseFileEditorArtifactAndSettingsTools(McpHelperProcess helper, String workspaceId, String epoch)
            throws Exception {
        Path root = temp.resolve("project");
        Files.writeString(root.resolve("notes.txt"), "alpha\r\nbeta\r\n");
        Files.writeString(root.resolve(".env"), "SECRET=1");
        String ws = "\"workspaceId\":\"" + workspaceId + "\"";
        JsonNode list = agent.call("lomi_files_list", "{" + ws + "}", true);
        assertThat(list.at("/data/filtered").asBoolean()).isTrue();
        String parent = list.at("/data/directoryRevision").asString();
        JsonNode read = agent.call("lomi_files_read", "{" + ws + ",\"relativePath\":\"notes.txt\"}", true);
        String disk = read.at("/data/diskRevision").asString();
        agent.call("lomi_files_read", "{" + ws + ",\"relativePath\":\".env\"}", false);
        agent.call("lomi_files_search", "{" + ws + ",\"query\":{\"text\":\"beta\"}}", true);
        String revision = agent.call("lomi_panel_list", "{" + ws + "}", true)
                .at("/data/domainRevision")
                .asString();
        JsonNode created = agent.call(
                "lomi_files_mutate",
                "{" + ws + ",\"operation\":{\"type\":\"create\",\"relativePath\":\"made.txt\",\"kind\":\"file\","
                        + "\"expectedParentRevision\":\"" + parent + "\"}" + op(revision, epoch) + "}",
                true);
        assertThat(created.at("/data/state").asString()).isEqualTo("succeeded");

        JsonNode opened = agent.call(
                "lomi_editor_open", "{" + ws + ",\"relativePath\":\"notes.txt\"" + op(revision, epoch) + "}", true);
        JsonNode doc = opened.at("/data/result");
        revision = doc.get("domainRevision").asString();
        String target = ws + ",\"panelId\":\"" + doc.get("panelId").asString() + "\",\"relativePath\":\"notes.txt\"";
        String ids = ",\"documentId\":\"" + doc.get("documentId").asString() + "\",\"expectedDiskRevision\":\"" + disk
                + "\"";
        agent.call("lomi_editor_read", "{" + target + "}", true);
        JsonNode edited = agent.call(
                "lomi_editor_apply_edits",
                "{" + target + ids + ",\"expectedBufferRevision\":\""
                        + doc.get("bufferRevision").asString()
                        + "\",\"edits\":[{\"fromUtf16\":0,\"toUtf16\":5,\"insert\":\"ALPHA\"}]" + op(revision, epoch)
                        + "}",
                true);
        JsonNode saved = agent.call(
                "lomi_editor_save",
                "{" + target + ids + ",\"expectedBufferRevision\":\""
                        + edited.at("/data/result/bufferRevision").asString() + "\"" + op(revision, epoch) + "}",
                true);
        assertThat(saved.at("/data/state").asString()).isEqualTo("succeeded");
        assertThat(Files.readString(root.resolve("notes.txt"))).isEqualTo("ALPHA\r\nbeta\r\n");

        byte[] bytes = Files.readAllBytes(root.resolve("notes.txt"));
        String sha = java.util.HexFormat.of()
                .formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(bytes));
        JsonNode imported = agent.call(
                "lomi_artifact_import",
                "{" + ws + ",\"relativePath\":\"notes.txt\",\"kind\":\"file\",\"expectedByteLength\":" + bytes.length
                        + ",\"expectedSha256\":\"" + sha + "\"" + op(revision, epoch) + "}",
                true);
        String artifact = imported.at("/data/result/artifactId").asString();
        agent.call("lomi_artifact_read", "{" + ws + ",\"artifactId\":\"" + artifact + "\"}", true);
        String parentNow = agent.call("lomi_files_list", "{" + ws + "}", true)
                .at("/data/directoryRevision")
                .asString();
        JsonNode exported = agent.call(
                "lomi_artifact_export",
                "{" + ws + ",\"artifactId\":\"" + artifact + "\",\"expectedSha256\":\"" + sha
                        + "\",\"relativePath\":\"copy.txt\",\"expectedParentRevision\":\"" + parentNow + "\""
                        + op(revision, epoch) + "}",
                true);
        assertThat(exported.at("/data/state").asString()).isEqualTo("succeeded");

        String settingsRevision = agent.call("lomi_settings_read", "{" + ws + ",\"section\":\"editor\"}", true)
                .at("/data/settingsRevision")
                .asString();
        agent.call("lomi_settings_read", "{" + ws + ",\"section\":\"agentControl\"}", true);
        JsonNode updated = agent.call(
                "lomi_settings_update",
                "{" + ws + ",\"patch\":{\"type\":\"editor_tab_size\",\"value\":2},\"expectedSettingsRevision\":\""
                        + settingsRevision + "\"" + op(revision, epoch) + "}",
                true);
        assertThat(updated.at("/data/state").asString()).as("YOLO approves").isEqualTo("succeeded");
        agent.call("lomi_settings_open", "{" + ws + ",\"page\":\"editor\"" + op(revision, epoch) + "}", true);
    }

    private void exerciseGitTools(McpHelperProcess helper, String workspaceId, String epoch) throws Exception {
        Path root = temp.resolve("project");
        String head;
        try (org.eclipse.jgit.api.Git git = org.eclipse.jgit.api.Git.init()
                .setDirectory(root.toFile())
                .setInitialBranch("main")
                .call()) {
            var config = git.getRepository().getConfig();
            config.setString("user", null, "name", "Contract");
            config.setString("user", null, "email", "contract@example.com");
            config.setString("remote", "origin", "url", "https://user:s3cret-token@example.com/team/repo.git");
            config.save();
            git.add().addFilepattern("notes.txt").call();
            head = git.commit().setMessage("first").call().name();
        }
        Files.writeString(root.resolve("notes.txt"), "changed\n");
        String ws = "\"workspaceId\":\"" + workspaceId + "\"";
        JsonNode status = agent.call("lomi_git_status", "{" + ws + "}", true);
        String observed = status.at("/data/observationRevision").asString();
        assertThat(status.toString()).doesNotContain(".env");
        JsonNode diff = agent.call(
                "lomi_git_diff",
                "{" + ws + ",\"relativePath\":\"notes.txt\",\"expectedObservationRevision\":\"" + observed + "\"}",
                true);
        assertThat(diff.at("/data/text").asString()).contains("+changed");
        agent.call(
                "lomi_git_diff",
                "{" + ws + ",\"relativePath\":\".env\",\"expectedObservationRevision\":\"" + observed + "\"}",
                false);
        agent.call("lomi_git_history", "{" + ws + "}", true);
        agent.call("lomi_git_commit", "{" + ws + ",\"commit\":\"" + head + "\"}", true);
        assertThat(agent.call("lomi_git_remotes", "{" + ws + "}", true).toString())
                .doesNotContain("s3cret-token");
        String revision = agent.call("lomi_panel_list", "{" + ws + "}", true)
                .at("/data/domainRevision")
                .asString();
        JsonNode opened = agent.call(
                "lomi_git_open",
                "{" + ws + ",\"view\":{\"type\":\"commit\",\"commit\":\"" + head + "\"}" + op(revision, epoch) + "}",
                true);
        assertThat(opened.at("/data/state").asString()).isEqualTo("succeeded");
        revision = opened.at("/data/result/domainRevision").asString();
        JsonNode staged = agent.call(
                "lomi_git_mutate",
                "{" + ws + ",\"repositoryRelative\":\"\",\"operation\":\"stage\",\"paths\":[\"notes.txt\"],"
                        + "\"expectedObservationRevision\":\"" + observed + "\"" + op(revision, epoch) + "}",
                true);
        assertThat(staged.at("/data/state").asString())
                .as("YOLO approves: " + staged)
                .isEqualTo("succeeded");
        assertThat(staged.at("/data/result/plan/paths/0").asString()).isEqualTo("notes.txt");
    }

    private void awaitPrompt(McpHelperProcess helper, String target) {
        Eventually.await(
                "the terminal's prompt is ready",
                Duration.ofSeconds(20),
                () -> agent.call("lomi_terminal_read", "{" + target + "}", true)
                        .at("/data/prompt")
                        .asString(),
                "ready"::equals);
    }

    private String op(String revision, String epoch) {
        return (revision == null ? "" : ",\"expectedRevision\":\"" + revision + "\"") + ",\"retryEpoch\":\"" + epoch
                + "\",\"requestKey\":\"contract-" + agent.nextId() + "\"";
    }

    private static String console(BrokerChildProcess broker, String... args) throws Exception {
        return broker.console().mergingStderr().ok(args);
    }
}
