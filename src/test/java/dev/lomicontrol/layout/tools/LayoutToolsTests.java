package dev.lomicontrol.layout.tools;

import static dev.lomicontrol.broker.BrokerCallsFixture.json;
import static dev.lomicontrol.broker.BrokerCallsFixture.workspaceOf;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.broker.BrokerCallsFixture;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.OperationId;
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
        String scratchWs = broker.ok(
                        session, "lomi_workspace_create", op("workspaceId", workspaceOf(project), "name", "w2"))
                .path("result")
                .path("workspaceId")
                .asString();
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
        String second = broker.ok(
                        session, "lomi_workspace_create", op("workspaceId", workspaceOf(project), "name", "second"))
                .path("result")
                .path("workspaceId")
                .asString();

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
    void theAdminApprovesTheCanonicalFolderNotTheTextTheAgentSent() throws Exception {
        Path folder = folder("gamma");
        Files.createDirectories(folder.resolve("sub"));
        String sneaky = folder + "/sub/..";
        JsonNode parked = broker.ok(
                session,
                "lomi_project_open",
                op("workspaceId", workspaceOf(project), "projectPath", sneaky, "name", "gamma"));

        assertThat(broker.decisions.list()).singleElement().satisfies(d -> {
            assertThat(d.summary()).startsWith("open " + folder + " (requested as " + sneaky + ")");
            assertThat(d.plan()).contains("\"folder\":\"" + folder + "\"");
        });
        broker.decisions.decide(new OperationId(parked.path("operationId").asString()), false);
    }

    @Test
    void openingAProjectWaitsForTheAdminAndAnApprovalGrantsItToTheSession() {
        Path folder = folder("beta");
        JsonNode parked = broker.ok(
                session,
                "lomi_project_open",
                op("workspaceId", workspaceOf(project), "projectPath", folder.toString(), "name", "beta"));
        assertThat(parked.path("state").asString()).isEqualTo("awaiting_user");
        assertThat(broker.decisions.list()).singleElement().satisfies(d -> {
            assertThat(d.plan()).contains(folder.toString());
            assertThat(d.tool()).isEqualTo("lomi_project_open");
        });
        Session limited = broker.session(new Grant(false, Set.of(project.id()), dev.lomicontrol.pairing.Scopes.all()));
        assertThat(broker.ok(limited, "lomi_workspace_list", "{}").path("workspaces"))
                .hasSize(1);

        broker.decisions.decide(new OperationId(parked.path("operationId").asString()), true);

        JsonNode done = broker.ok(
                session,
                "lomi_operation_get",
                json("operationId", parked.path("operationId").asString()));
        assertThat(done.path("state").asString()).isEqualTo("succeeded");
        assertThat(done.path("result").path("kind").asString()).isEqualTo("project_opened");
        assertThat(done.path("result").path("projectPath").asString()).isEqualTo(folder.toString());
        assertThat(broker.projects.list()).extracting(Project::root).contains(folder);
    }

    @Test
    void aLimitedSessionIsGrantedTheProjectItOpened() {
        Session limited = broker.session(new Grant(false, Set.of(project.id()), dev.lomicontrol.pairing.Scopes.all()));
        RetryEpochId limitedEpoch = broker.connect(limited, project);
        Path folder = folder("gamma");
        JsonNode parked = broker.ok(
                limited,
                "lomi_project_open",
                withOp(
                        json("workspaceId", workspaceOf(project), "projectPath", folder.toString(), "name", "gamma"),
                        broker.revision(),
                        "open-gamma",
                        limitedEpoch));
        broker.decisions.decide(new OperationId(parked.path("operationId").asString()), true);

        assertThat(broker.ok(limited, "lomi_workspace_list", "{}").path("workspaces"))
                .hasSize(2);
    }

    @Test
    void aRejectedOrYoloProjectOpenSettlesWithoutTheAdminWaiting() {
        JsonNode parked = broker.ok(
                session,
                "lomi_project_open",
                op(
                        "workspaceId",
                        workspaceOf(project),
                        "projectPath",
                        folder("rej").toString(),
                        "name",
                        "rej"));
        broker.decisions.decide(new OperationId(parked.path("operationId").asString()), false);
        JsonNode rejected = broker.ok(
                session,
                "lomi_operation_get",
                json("operationId", parked.path("operationId").asString()));
        assertThat(rejected.path("state").asString()).isEqualTo("failed");
        assertThat(rejected.path("effectState").asString()).isEqualTo("none");
        assertThat(rejected.path("errorCode").asString()).isEqualTo("SCOPE_DENIED");
        assertThat(broker.projects.list()).hasSize(1);

        broker.yolo.set(true);
        JsonNode yolo = broker.ok(
                session,
                "lomi_project_open",
                op(
                        "workspaceId",
                        workspaceOf(project),
                        "projectPath",
                        folder("yes").toString(),
                        "name",
                        "yes"));
        assertThat(yolo.path("state").asString()).isEqualTo("succeeded");
        assertThat(broker.decisions.list()).isEmpty();
        assertThat(broker.projects.list()).hasSize(2);
    }

    @Test
    void anAwaitingProjectOpenCancelledByItsOwnerLeavesTheAdminsList() {
        JsonNode parked = broker.ok(
                session,
                "lomi_project_open",
                op(
                        "workspaceId",
                        workspaceOf(project),
                        "projectPath",
                        folder("c").toString(),
                        "name",
                        "c"));
        JsonNode cancelled = broker.ok(
                session,
                "lomi_operation_cancel",
                json("operationId", parked.path("operationId").asString()));
        assertThat(cancelled.path("state").asString()).isEqualTo("cancelled");
        assertThat(broker.decisions.list()).isEmpty();
    }

    @Test
    void badProjectPathsAreRefusedBeforeAnyReceipt() {
        Path file = folder("f").resolve("file.txt");
        write(file);
        for (String path : List.of(
                "relative/path",
                file.toString(),
                temp.resolve("missing").toString(),
                project.root().toString())) {
            assertThat(broker.refused(
                            session,
                            "lomi_project_open",
                            op("workspaceId", workspaceOf(project), "projectPath", path, "name", "n")))
                    .as(path)
                    .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        }
        assertThat(broker.decisions.list()).isEmpty();
    }

    @Test
    void closingAProjectRemovesItsWorkspacesAndNeverTheFolder() {
        broker.ok(session, "lomi_workspace_create", op("workspaceId", workspaceOf(project), "name", "extra"));
        JsonNode closed = broker.ok(
                session,
                "lomi_project_close",
                op(
                        "workspaceId",
                        workspaceOf(project),
                        "projectId",
                        project.id().value()));

        assertThat(closed.path("state").asString()).isEqualTo("succeeded");
        assertThat(closed.path("result").path("closedWorkspaceIds")).hasSize(2);
        assertThat(broker.projects.list()).isEmpty();
        assertThat(Files.isDirectory(project.root())).isTrue();
        assertThat(broker.refused(session, "lomi_panel_list", json("workspaceId", workspaceOf(project))))
                .isEqualTo(ErrorCode.TARGET_NOT_FOUND);
    }

    @Test
    void panelsReorderDockMoveAndTransferAsTheMovementSays() {
        String ws = workspaceOf(project);
        List<String> panels = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            String created = broker.ok(session, "lomi_workspace_create", op("workspaceId", ws, "name", "tmp" + i))
                    .path("result")
                    .path("workspaceId")
                    .asString();
            // move each new workspace's scratch tab into the default workspace
            JsonNode list = broker.ok(session, "lomi_panel_list", json("workspaceId", created));
            panels.add(list.path("panels").get(0).path("panelId").asString());
            broker.ok(
                    session,
                    "lomi_panel_move",
                    op(
                            "workspaceId",
                            created,
                            "movement",
                            movement(
                                    "type",
                                    "transfer_tab",
                                    "tabId",
                                    list.path("tabs").get(0).path("tabId").asString(),
                                    "targetWorkspaceId",
                                    ws)));
        }
        JsonNode list = broker.ok(session, "lomi_panel_list", json("workspaceId", ws));
        assertThat(tabPanels(list))
                .containsExactly(List.of(panels.get(0)), List.of(panels.get(1)), List.of(panels.get(2)));
        String tab0 = list.path("tabs").get(0).path("tabId").asString();
        String tab1 = list.path("tabs").get(1).path("tabId").asString();
        String tab2 = list.path("tabs").get(2).path("tabId").asString();

        broker.ok(
                session,
                "lomi_panel_move",
                op("workspaceId", ws, "movement", movement("type", "reorder_tab", "tabId", tab2, "beforeTabId", tab0)));
        assertThat(tabPanels(broker.ok(session, "lomi_panel_list", json("workspaceId", ws))))
                .containsExactly(List.of(panels.get(2)), List.of(panels.get(0)), List.of(panels.get(1)));

        broker.ok(
                session,
                "lomi_panel_move",
                op(
                        "workspaceId",
                        ws,
                        "movement",
                        movement("type", "dock_tab", "tabId", tab1, "targetTabId", tab0, "side", "left")));
        JsonNode docked = broker.ok(session, "lomi_panel_list", json("workspaceId", ws));
        assertThat(tabPanels(docked)).containsExactly(List.of(panels.get(2)), List.of(panels.get(1), panels.get(0)));
        assertThat(docked.path("tabs").get(1).path("layout").path("split").asString())
                .isEqualTo("row");

        broker.ok(
                session,
                "lomi_panel_move",
                op(
                        "workspaceId",
                        ws,
                        "movement",
                        movement(
                                "type",
                                "move_pane",
                                "panelId",
                                panels.get(2),
                                "targetPanelId",
                                panels.get(0),
                                "side",
                                "bottom")));
        JsonNode moved = broker.ok(session, "lomi_panel_list", json("workspaceId", ws));
        assertThat(tabPanels(moved)).containsExactly(List.of(panels.get(1), panels.get(0), panels.get(2)));
        assertThat(moved.path("tabs")
                        .get(0)
                        .path("layout")
                        .path("second")
                        .path("split")
                        .asString())
                .isEqualTo("column");

        assertThat(broker.refused(
                        session,
                        "lomi_panel_move",
                        op(
                                "workspaceId",
                                ws,
                                "movement",
                                movement(
                                        "type", "dock_tab", "tabId", "tab-nope", "targetTabId", tab0, "side", "left"))))
                .isEqualTo(ErrorCode.TARGET_NOT_FOUND);
        assertThat(broker.refused(
                        session,
                        "lomi_panel_move",
                        op(
                                "workspaceId",
                                ws,
                                "movement",
                                movement("type", "reorder_tab", "tabId", tab0, "side", "left"))))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
    }

    @Test
    void focusAndCloseAPanelAndAWrongTerminalSessionIsStale() {
        String ws = broker.ok(session, "lomi_workspace_create", op("workspaceId", workspaceOf(project), "name", "w"))
                .path("result")
                .path("workspaceId")
                .asString();
        String panel = broker.ok(session, "lomi_panel_list", json("workspaceId", ws))
                .path("panels")
                .get(0)
                .path("panelId")
                .asString();

        assertThat(broker.ok(session, "lomi_panel_focus", op("workspaceId", ws, "panelId", panel))
                        .path("result")
                        .path("kind")
                        .asString())
                .isEqualTo("panel_focused");
        assertThat(broker.refused(
                        session,
                        "lomi_panel_focus",
                        op("workspaceId", ws, "panelId", panel, "terminalSessionId", "ab".repeat(16))))
                .isEqualTo(ErrorCode.STALE_GENERATION);
        assertThat(broker.refused(session, "lomi_panel_focus", op("workspaceId", ws, "panelId", "pnl-unknown")))
                .isEqualTo(ErrorCode.TARGET_NOT_FOUND);

        broker.ok(session, "lomi_panel_close", op("workspaceId", ws, "panelId", panel));
        JsonNode empty = broker.ok(session, "lomi_panel_list", json("workspaceId", ws));
        assertThat(empty.path("panels")).isEmpty();
        assertThat(empty.path("activePanelId").isNull()).isTrue();
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
                            withOp(
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
                        withOp(
                                json("workspaceId", workspaceOf(project), "name", "x"),
                                broker.revision(),
                                "k1",
                                readerEpoch)))
                .isEqualTo(ErrorCode.SCOPE_DENIED);
        assertThat(broker.refused(
                        reader,
                        "lomi_terminal_create",
                        withOp(json("workspaceId", workspaceOf(project)), broker.revision(), "k2", readerEpoch)))
                .isEqualTo(ErrorCode.SCOPE_DENIED);
        assertThat(broker.ok(reader, "lomi_panel_list", json("workspaceId", workspaceOf(project)))
                        .path("kind")
                        .asString())
                .isEqualTo("panel_list");
    }

    @Test
    void panelListCursorsAreBoundToTheRevision() {
        String ws = workspaceOf(project);
        for (int i = 0; i < 3; i++) {
            String created = broker.ok(session, "lomi_workspace_create", op("workspaceId", ws, "name", "c" + i))
                    .path("result")
                    .path("workspaceId")
                    .asString();
            JsonNode list = broker.ok(session, "lomi_panel_list", json("workspaceId", created));
            broker.ok(
                    session,
                    "lomi_panel_move",
                    op(
                            "workspaceId",
                            created,
                            "movement",
                            movement(
                                    "type",
                                    "transfer_tab",
                                    "tabId",
                                    list.path("tabs").get(0).path("tabId").asString(),
                                    "targetWorkspaceId",
                                    ws)));
        }
        JsonNode first = broker.ok(session, "lomi_panel_list", json("workspaceId", ws, "limit", 2));
        assertThat(first.path("panels")).hasSize(2);
        assertThat(first.path("hasMore").asBoolean()).isTrue();
        JsonNode second = broker.ok(
                session,
                "lomi_panel_list",
                json(
                        "workspaceId",
                        ws,
                        "limit",
                        2,
                        "cursor",
                        first.path("nextCursor").asString()));
        assertThat(second.path("panels")).hasSize(1);

        broker.ok(session, "lomi_workspace_update", op("workspaceId", ws, "name", "moved-on"));
        assertThat(broker.refused(
                        session,
                        "lomi_panel_list",
                        json(
                                "workspaceId",
                                ws,
                                "limit",
                                2,
                                "cursor",
                                first.path("nextCursor").asString())))
                .isEqualTo(ErrorCode.CURSOR_EXPIRED);
    }

    private String op(Object... pairs) {
        return withOp(json(pairs), broker.revision(), agent.key("key"));
    }

    private String withOp(String arguments, String revision, String key) {
        return withOp(arguments, revision, key, epoch);
    }

    private static String withOp(String arguments, String revision, String key, RetryEpochId epoch) {
        tools.jackson.databind.node.ObjectNode node =
                (tools.jackson.databind.node.ObjectNode) BrokerCallsFixture.JSON.readTree(arguments);
        node.put("expectedRevision", revision);
        node.put("retryEpoch", epoch.value());
        node.put("requestKey", key);
        return node.toString();
    }

    private static JsonNode movement(Object... pairs) {
        return BrokerCallsFixture.JSON.readTree(json(pairs));
    }

    private static List<List<String>> tabPanels(JsonNode list) {
        List<List<String>> tabs = new ArrayList<>();
        for (JsonNode tab : list.path("tabs")) {
            List<String> ids = new ArrayList<>();
            tab.path("panelIds").forEach(id -> ids.add(id.asString()));
            tabs.add(ids);
        }
        return tabs;
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
        try {
            return Files.createDirectories(temp.resolve("folders").resolve(name))
                    .toRealPath();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void write(Path file) {
        try {
            Files.writeString(file, "x");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
