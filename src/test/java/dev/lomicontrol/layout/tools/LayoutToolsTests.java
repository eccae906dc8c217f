package dev.lomicontrol.layout.tools;

import static dev.lomicontrol.broker.BrokerCallsFixture.json;
import static dev.lomicontrol.broker.BrokerCallsFixture.workspaceOf;
import static dev.lomicontrol.layout.tools.LayoutTestSupport.newWorkspace;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.broker.BrokerCallsFixture;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.RetryEpochId;
import dev.lomicontrol.pairing.Grant;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Project;
import dev.lomicontrol.testing.Agent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Workspaces, projects and panels over a real SQLite ledger: every layout mutation is a durable
 * operation that names its expectedRevision; a stale one is refused with no receipt; a retry
 * returns the same operation and changes nothing twice; the layout and its revision survive a restart.
 */
class LayoutToolsTests {

    @TempDir
    Path temp;

    @RegisterExtension
    final Agent agent = Agent.inProject("alpha");

    /** The agent's broker; the restart test replaces it with one of its own. */
    BrokerCallsFixture broker = agent.broker();

    final Session session = agent.session();
    final Project project = agent.project();
    final RetryEpochId epoch = agent.epoch();

    @Test
    void aNewWorkspaceStartsWithOneFocusedScratchPanelAndBumpsTheRevisionOnce() {
        long before = broker.projects.revision();
        JsonNode op =
                broker.ok(session, "lomi_workspace_create", op("workspaceId", workspaceOf(project), "name", "second"));

        assertThat(op.path("state").asString()).isEqualTo("succeeded");
        assertThat(op.path("effectState").asString()).isEqualTo("complete");
        JsonNode result = op.path("result");
        assertThat(result.path("kind").asString()).isEqualTo("workspace_created");
        assertThat(result.path("domainRevision").asString()).isEqualTo(Long.toString(before + 1));
        assertThat(broker.projects.revision()).isEqualTo(before + 1);

        JsonNode panels = broker.ok(
                session,
                "lomi_panel_list",
                json("workspaceId", result.path("workspaceId").asString()));
        assertThat(panels.path("kind").asString()).isEqualTo("panel_list");
        assertThat(panels.path("panels")).hasSize(1);
        JsonNode scratch = panels.path("panels").get(0);
        assertThat(scratch.path("kind").asString()).isEqualTo("scratch");
        assertThat(scratch.path("panelId").asString())
                .isEqualTo(result.path("panelId").asString());
        assertThat(scratch.path("focused").asBoolean()).isTrue();
        assertThat(panels.path("activePanelId").asString())
                .isEqualTo(scratch.path("panelId").asString());
        assertThat(panels.path("tabs")).hasSize(1);
    }

    @Test
    void aStaleRevisionIsRefusedOnEveryLayoutMutationAndLeavesNoReceipt() {
        String scratchWs = newWorkspace(agent, workspaceOf(project), "w2");
        JsonNode list = broker.ok(session, "lomi_panel_list", json("workspaceId", scratchWs));
        String panel = list.path("panels").get(0).path("panelId").asString();
        String tab = list.path("tabs").get(0).path("tabId").asString();
        String stale = Long.toString(broker.projects.revision() - 1);
        long workspacesBefore = workspaceCount();

        List<String[]> calls = List.of(
                new String[] {"lomi_workspace_create", json("workspaceId", scratchWs, "name", "x")},
                new String[] {"lomi_workspace_update", json("workspaceId", scratchWs, "name", "renamed")},
                new String[] {"lomi_workspace_update", json("workspaceId", scratchWs, "action", "select")},
                new String[] {"lomi_workspace_update", json("workspaceId", scratchWs, "action", "close")},
                new String[] {
                    "lomi_project_open",
                    json(
                            "workspaceId",
                            scratchWs,
                            "projectPath",
                            folder("other").toString(),
                            "name",
                            "other")
                },
                new String[] {
                    "lomi_project_close",
                    json(
                            "workspaceId",
                            workspaceOf(project),
                            "projectId",
                            project.id().value())
                },
                new String[] {"lomi_panel_focus", json("workspaceId", scratchWs, "panelId", panel)},
                new String[] {"lomi_panel_close", json("workspaceId", scratchWs, "panelId", panel)},
                new String[] {
                    "lomi_panel_move",
                    json(
                            "workspaceId",
                            scratchWs,
                            "movement",
                            BrokerCallsFixture.JSON.readTree(json("type", "reorder_tab", "tabId", tab)))
                },
                new String[] {"lomi_terminal_create", json("workspaceId", scratchWs)});
        for (String[] call : calls) {
            String key = agent.key("stale");
            String arguments = withOp(call[1], stale, key);
            assertThat(broker.refused(session, call[0], arguments)).as(call[0]).isEqualTo(ErrorCode.REVISION_CONFLICT);
            assertThat(broker.refused(
                            session,
                            "lomi_operation_get",
                            json("retryEpoch", epoch.value(), "requestKey", key, "tool", call[0])))
                    .as("no receipt for %s", call[0])
                    .isEqualTo(ErrorCode.TARGET_NOT_FOUND);
        }
        assertThat(workspaceCount()).isEqualTo(workspacesBefore);
        assertThat(broker.ok(session, "lomi_panel_list", json("workspaceId", scratchWs))
                        .path("panels"))
                .hasSize(1);
    }

    @Test
    void aRetryWithTheSameKeyReturnsTheSameOperationEvenAfterTheRevisionMovedAndCreatesNothingTwice() {
        String original = broker.revision();
        String arguments = withOp(json("workspaceId", workspaceOf(project), "name", "once"), original, "create-once");
        JsonNode first = broker.ok(session, "lomi_workspace_create", arguments);
        long workspaces = workspaceCount();

        JsonNode again = broker.ok(session, "lomi_workspace_create", arguments);

        assertThat(again.path("operationId").asString())
                .isEqualTo(first.path("operationId").asString());
        assertThat(again.path("state").asString()).isEqualTo("succeeded");
        assertThat(again.path("result")).isEqualTo(first.path("result"));
        assertThat(workspaceCount()).isEqualTo(workspaces);
        String changed =
                withOp(json("workspaceId", workspaceOf(project), "name", "different"), original, "create-once");
        assertThat(broker.refused(session, "lomi_workspace_create", changed)).isEqualTo(ErrorCode.IDEMPOTENCY_CONFLICT);
    }

    @Test
    void renameSelectAndCloseAWorkspaceButNeverItsProjectsLastOne() {
        String second = newWorkspace(agent, workspaceOf(project), "second");

        JsonNode renamed = broker.ok(session, "lomi_workspace_update", op("workspaceId", second, "name", "renamed"));
        assertThat(renamed.path("result").path("action").asString()).isEqualTo("rename");
        assertThat(names()).contains("renamed");
        assertThat(broker.ok(session, "lomi_workspace_update", op("workspaceId", second, "action", "select"))
                        .path("state")
                        .asString())
                .isEqualTo("succeeded");
        assertThat(broker.refused(
                        session,
                        "lomi_workspace_update",
                        op("workspaceId", second, "name", "both", "action", "select")))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);

        JsonNode closed = broker.ok(session, "lomi_workspace_update", op("workspaceId", second, "action", "close"));
        assertThat(closed.path("state").asString()).isEqualTo("succeeded");
        assertThat(names()).doesNotContain("renamed");
        assertThat(broker.refused(
                        session, "lomi_workspace_update", op("workspaceId", workspaceOf(project), "action", "close")))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(Files.isDirectory(project.root())).isTrue();
    }

    @Test
    void theLayoutAndItsRevisionSurviveARestart() {
        // a broker of this test's own, in a folder that outlives closing it, so that it can open again
        broker = new BrokerCallsFixture(temp);
        try {
            Project alpha = broker.project("alpha");
            Session first = broker.session();
            RetryEpochId firstEpoch = broker.connect(first, alpha);
            String ws = broker.ok(
                            first,
                            "lomi_workspace_create",
                            LayoutTestSupport.withOp(
                                    json("workspaceId", workspaceOf(alpha), "name", "kept"),
                                    broker.revision(),
                                    agent.key("key"),
                                    firstEpoch))
                    .path("result")
                    .path("workspaceId")
                    .asString();
            long revision = broker.projects.revision();
            broker.close();

            broker = new BrokerCallsFixture(temp);
            Session later = broker.session();
            assertThat(broker.projects.revision()).isEqualTo(revision);
            JsonNode list = broker.ok(later, "lomi_panel_list", json("workspaceId", ws));
            assertThat(list.path("domainRevision").asString()).isEqualTo(Long.toString(revision));
            assertThat(list.path("panels")).hasSize(1);
            assertThat(names()).contains("kept");
        } finally {
            broker.close();
        }
    }

    @Test
    void aSessionWithoutTheScopeIsRefused() {
        Session reader = broker.session(new Grant(true, Set.of(), Set.of("workspace.read")));
        RetryEpochId readerEpoch = broker.connect(reader, project);
        assertThat(broker.refused(
                        reader,
                        "lomi_workspace_create",
                        LayoutTestSupport.withOp(
                                json("workspaceId", workspaceOf(project), "name", "x"),
                                broker.revision(),
                                "k1",
                                readerEpoch)))
                .isEqualTo(ErrorCode.SCOPE_DENIED);
        assertThat(broker.refused(
                        reader,
                        "lomi_terminal_create",
                        LayoutTestSupport.withOp(
                                json("workspaceId", workspaceOf(project)), broker.revision(), "k2", readerEpoch)))
                .isEqualTo(ErrorCode.SCOPE_DENIED);
        assertThat(broker.ok(reader, "lomi_panel_list", json("workspaceId", workspaceOf(project)))
                        .path("kind")
                        .asString())
                .isEqualTo("panel_list");
    }

    private String op(Object... pairs) {
        return LayoutTestSupport.op(agent, pairs);
    }

    private String withOp(String arguments, String revision, String key) {
        return LayoutTestSupport.withOp(arguments, revision, key, epoch);
    }

    private long workspaceCount() {
        return broker.projects.list().stream()
                .mapToLong(p -> p.workspaces().size())
                .sum();
    }

    private List<String> names() {
        List<String> names = new ArrayList<>();
        broker.projects.list().forEach(p -> p.workspaces().forEach(w -> names.add(w.name())));
        return names;
    }

    private Path folder(String name) {
        return LayoutTestSupport.folder(temp, name);
    }
}
