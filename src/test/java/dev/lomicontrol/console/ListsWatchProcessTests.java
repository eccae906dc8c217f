package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.lomicontrol.LomiControl;
import dev.lomicontrol.mcp.Conformance;
import dev.lomicontrol.testing.BrokerChildProcess;
import dev.lomicontrol.testing.ChildJvm;
import dev.lomicontrol.testing.ConsoleRun;
import dev.lomicontrol.testing.McpHelperProcess;
import dev.lomicontrol.tools.RecordSchemas;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Real processes (a broker, the real {@code --mcp} helper as the agent, console clients): {@code
 * lomi-control console panel list --workspace W --watch} prints the terminal panel an agent creates
 * within 2 s of its creation, and {@code gone:} once the agent closes it; the {@code --json}
 * documents of {@code workspace list}, {@code panel list} and {@code episodes list} conform to the
 * schemas derived from their records.
 */
class ListsWatchProcessTests {

    static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path temp;

    @Test
    void aWatchedPanelListPrintsAnAgentsNewTerminalWithinTwoSecondsAndGoneWhenItCloses() throws Exception {
        Path work = Files.createDirectories(temp.resolve("work"));
        try (BrokerChildProcess broker =
                BrokerChildProcess.start(temp.resolve("run").resolve("data"))) {
            broker.console().in(work).mergingStderr().ok("project", "add", work.toString());
            try (McpHelperProcess helper = McpHelperProcess.pinnedTo(broker, temp.resolve("helper.err"))
                    .start()) {
                helper.initialize(McpHelperProcess.PROTOCOL, "watched agent");
                helper.approvedInTheConsole(broker);
                String workspace = data(helper, "lomi_workspace_list", JSON.createObjectNode())
                        .at("/workspaces/0/workspaceId")
                        .asString();
                ObjectNode inWorkspace = JSON.createObjectNode().put("workspaceId", workspace);
                String epoch = data(helper, "lomi_connect", inWorkspace)
                        .path("retryEpoch")
                        .asString();

                Path watchOut = temp.resolve("watch.out");
                Process watch = ChildJvm.builder(
                                LomiControl.class,
                                List.of(
                                        "console",
                                        "--data-dir",
                                        broker.data().toString(),
                                        "panel",
                                        "list",
                                        "--workspace",
                                        workspace,
                                        "--watch"))
                        .redirectOutput(watchOut.toFile())
                        .redirectError(temp.resolve("watch.err").toFile())
                        .start();
                try {
                    await().atMost(Duration.ofSeconds(60))
                            .until(() -> Files.exists(watchOut)
                                    && Files.readString(watchOut)
                                            .contains("watching panel list --workspace " + workspace));
                    String revision = data(helper, "lomi_panel_list", inWorkspace)
                            .path("domainRevision")
                            .asString();

                    long asked = System.nanoTime();
                    JsonNode created = data(
                            helper,
                            "lomi_terminal_create",
                            inWorkspace
                                    .deepCopy()
                                    .put("title", "watched shell")
                                    .put("expectedRevision", revision)
                                    .put("retryEpoch", epoch)
                                    .put("requestKey", "create-watched"));
                    long createdAt = System.nanoTime();
                    assertThat(created.path("state").asString())
                            .as("%s", created)
                            .isEqualTo("succeeded");
                    String panel = created.at("/result/panelId").asString();
                    String shown = "panel " + panel + " in " + workspace + ": terminal 'watched shell'";
                    // the bound is measured from the creation (the call's answer: the panel is in the layout)
                    await().atMost(Duration.ofSeconds(2))
                            .pollInterval(Duration.ofMillis(20))
                            .until(() -> Files.readString(watchOut).contains(shown));
                    System.out.println("panel list --watch showed the new terminal "
                            + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - createdAt) + " ms after its creation ("
                            + TimeUnit.NANOSECONDS.toMillis(createdAt - asked) + " ms for the create call)");
                    assertThat(Files.readString(watchOut))
                            .as("the owner: the agent's session, with its client label")
                            .doesNotContain("owner -")
                            .containsPattern("owner [0-9a-f]{32} \\(lomi-control");

                    documents(broker, work);

                    String now = data(helper, "lomi_panel_list", inWorkspace)
                            .path("domainRevision")
                            .asString();
                    JsonNode closed = data(
                            helper,
                            "lomi_panel_close",
                            inWorkspace
                                    .deepCopy()
                                    .put("panelId", panel)
                                    .put("expectedRevision", now)
                                    .put("retryEpoch", epoch)
                                    .put("requestKey", "close-watched"));
                    assertThat(closed.path("state").asString()).as("%s", closed).isEqualTo("succeeded");
                    await().atMost(Duration.ofSeconds(10))
                            .until(() -> Files.readString(watchOut).contains("gone: " + panel + " (closed)"));
                    assertThat(watch.isAlive())
                            .as("the watch goes on until Ctrl-C")
                            .isTrue();
                } finally {
                    watch.destroy();
                    watch.waitFor(30, TimeUnit.SECONDS);
                }
            }
        }
    }

    /** The three lists' --json documents: status 0, each conforming to the schema of its record, naming the terminal. */
    private static void documents(BrokerChildProcess broker, Path work) throws Exception {
        JsonNode workspaces = document(broker, work, ConsoleJson.WorkspaceList.class, "workspace", "list", "--json");
        assertThat(workspaces.at("/workspaces/0/panels").asInt()).isEqualTo(1);
        JsonNode panels = document(broker, work, ConsoleJson.PanelList.class, "panel", "list", "--json");
        assertThat(panels.at("/panels/0/kind").asString()).isEqualTo("terminal");
        assertThat(panels.at("/panels/0/ownerClient").asString()).startsWith("lomi-control");
        document(broker, work, ConsoleJson.EpisodeList.class, "episodes", "list", "--json");
    }

    private static JsonNode document(
            BrokerChildProcess broker, Path work, Class<? extends Record> type, String... command) throws Exception {
        ConsoleRun.Result run = broker.console().in(work).run(command);
        assertThat(run.exitCode()).as(run.toString()).isZero();
        JsonNode document = JSON.readTree(run.stdout());
        assertThat(Conformance.violation(RecordSchemas.output(type), document))
                .as(String.join(" ", command) + ": " + run.stdout())
                .isEmpty();
        return document;
    }

    private static JsonNode data(McpHelperProcess helper, String tool, ObjectNode arguments) throws Exception {
        JsonNode result = helper.call(tool, arguments).path("result");
        assertThat(result.path("isError").asBoolean()).as(tool + ": " + result).isFalse();
        return result.path("structuredContent").path("data");
    }
}
