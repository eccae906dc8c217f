package dev.lomicontrol.layout.tools;

import static dev.lomicontrol.broker.BrokerCallsFixture.json;
import static dev.lomicontrol.broker.BrokerCallsFixture.workspaceOf;
import static dev.lomicontrol.layout.tools.LayoutTestSupport.firstPanel;
import static dev.lomicontrol.layout.tools.LayoutTestSupport.firstTab;
import static dev.lomicontrol.layout.tools.LayoutTestSupport.moveOp;
import static dev.lomicontrol.layout.tools.LayoutTestSupport.newWorkspace;
import static dev.lomicontrol.layout.tools.LayoutTestSupport.panelList;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.broker.BrokerCallsFixture;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.RetryEpochId;
import dev.lomicontrol.pairing.Grant;
import dev.lomicontrol.pairing.Scopes;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Project;
import dev.lomicontrol.testing.Agent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The reference-shaped calls of the session, workspace/project and panel tools (catalog.md §7, issue
 * 12 item 2) through the broker's real dispatch: {@code null} for an optional field means absent,
 * {@code browserGeneration} is known to focus/close, the untagged workspace_update forms, and what
 * stays refused as intended (both update forms at once, a foreign movement field, {@code limit:0}).
 */
class LayoutReferenceCallsTests {

    @TempDir
    Path temp;

    @RegisterExtension
    final Agent agent = Agent.inProject("alpha");

    final BrokerCallsFixture broker = agent.broker();
    final Session session = agent.session();
    final Project project = agent.project();
    final RetryEpochId epoch = agent.epoch();

    @Test
    void workspaceListTakesANullCursorAsTheFirstPageAndRefusesLimitZero() {
        JsonNode page = broker.ok(session, "lomi_workspace_list", json("limit", 100, "cursor", null));

        assertThat(page.path("kind").asString()).isEqualTo("workspace_list");
        assertThat(page.path("workspaces")).hasSize(1);
        assertThat(page.path("workspaces").get(0).path("workspaceId").asString())
                .isEqualTo(workspaceOf(project));
        assertThat(page.path("nextCursor").isNull()).isTrue();
        assertThat(broker.refused(session, "lomi_workspace_list", json("limit", 0)))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(broker.refused(session, "lomi_workspace_list", json("limit", 5, "x", 1)))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
    }

    @Test
    void connectTakesTheReferenceInput() {
        JsonNode connection = broker.ok(session, "lomi_connect", json("workspaceId", workspaceOf(project)));

        assertThat(connection.path("kind").asString()).isEqualTo("connection");
        assertThat(connection.path("retryEpoch").asString()).isEqualTo(epoch.value());
        assertThat(connection.path("projectId").asString())
                .isEqualTo(project.id().value());
    }

    @Test
    void panelListTakesANullCursorAndNamesNoBrowserGeneration() {
        String ws = newWorkspace(agent, workspaceOf(project), "listed");
        JsonNode list = broker.ok(session, "lomi_panel_list", json("workspaceId", ws, "cursor", null));

        assertThat(list.path("kind").asString()).isEqualTo("panel_list");
        assertThat(list.path("panels").size()).isPositive();
        assertThat(list.path("panels").get(0).has("browserGeneration")).isTrue();
        assertThat(list.path("panels").get(0).path("browserGeneration").isNull())
                .isTrue();
        assertThat(list.path("nextCursor").isNull()).isTrue();
    }

    @Test
    void focusWithNullGenerationsFocusesAndABrowserGenerationIsStaleWithNoReceipt() {
        String ws = newWorkspace(agent, workspaceOf(project), "second");
        String panel = firstPanel(agent, ws);

        JsonNode focused = withNullGenerations("lomi_panel_focus", ws, panel, "panel_focused");
        assertThat(focused.path("result").path("panelId").asString()).isEqualTo(panel);

        for (String tool : new String[] {"lomi_panel_focus", "lomi_panel_close"}) {
            String key = agent.key("stale");
            String arguments =
                    withOp(json("workspaceId", ws, "panelId", panel, "browserGeneration", "7"), broker.revision(), key);
            assertThat(broker.refused(session, tool, arguments)).as(tool).isEqualTo(ErrorCode.STALE_GENERATION);
            assertThat(broker.refused(
                            session,
                            "lomi_operation_get",
                            json("retryEpoch", epoch.value(), "requestKey", key, "tool", tool)))
                    .as("no receipt for %s", tool)
                    .isEqualTo(ErrorCode.TARGET_NOT_FOUND);
        }
        assertThat(broker.refused(
                        session,
                        "lomi_panel_focus",
                        op(json("workspaceId", ws, "panelId", "no-such-panel", "browserGeneration", "7"))))
                .isEqualTo(ErrorCode.TARGET_NOT_FOUND);
        assertThat(broker.refused(
                        session,
                        "lomi_panel_focus",
                        op(json("workspaceId", ws, "panelId", panel, "terminalSessionId", "0".repeat(32)))))
                .isEqualTo(ErrorCode.STALE_GENERATION);
    }

    @Test
    void closeWithNullGenerationsClosesThePanel() {
        String ws = newWorkspace(agent, workspaceOf(project), "closing");
        String panel = firstPanel(agent, ws);

        withNullGenerations("lomi_panel_close", ws, panel, "panel_closed");

        assertThat(panelList(agent, ws).path("panels")).isEmpty();
    }

    @Test
    void workspaceUpdateTakesEachUntaggedFormAndRefusesBothOrNeither() {
        String ws = newWorkspace(agent, workspaceOf(project), "second");

        JsonNode renamed = broker.ok(session, "lomi_workspace_update", op(json("workspaceId", ws, "name", "renamed")));
        assertThat(renamed.path("result").path("kind").asString()).isEqualTo("workspace_updated");
        assertThat(renamed.path("result").path("action").asString()).isEqualTo("rename");
        JsonNode selected =
                broker.ok(session, "lomi_workspace_update", op(json("action", "select", "workspaceId", ws)));
        assertThat(selected.path("result").path("action").asString()).isEqualTo("select");

        assertThat(broker.refused(
                        session,
                        "lomi_workspace_update",
                        op(json("workspaceId", ws, "action", "select", "name", "both"))))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(broker.refused(session, "lomi_workspace_update", op(json("workspaceId", ws))))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(broker.refused(session, "lomi_workspace_update", op(json("workspaceId", ws, "action", "rename"))))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);

        JsonNode closed = broker.ok(session, "lomi_workspace_update", op(json("action", "close", "workspaceId", ws)));
        assertThat(closed.path("state").asString()).isEqualTo("succeeded");
        assertThat(closed.path("result").path("action").asString()).isEqualTo("close");
        assertThat(broker.projects.list().get(0).workspaces()).hasSize(1);
    }

    @Test
    void closingAWorkspaceStillNeedsTheCloseScope() {
        Set<String> scopes = new HashSet<>(Scopes.all());
        scopes.remove("workspace.close");
        scopes.remove("project.close");
        Session limited = broker.session(new Grant(false, Set.of(project.id()), scopes));
        RetryEpochId limitedEpoch = broker.connect(limited, project);
        String ws = broker.ok(
                        limited,
                        "lomi_workspace_create",
                        limitedOp(limitedEpoch, "k-create", "workspaceId", workspaceOf(project), "name", "kept"))
                .path("result")
                .path("workspaceId")
                .asString();

        assertThat(broker.refused(
                        limited,
                        "lomi_workspace_update",
                        limitedOp(limitedEpoch, "k-close", "workspaceId", ws, "action", "close")))
                .isEqualTo(ErrorCode.SCOPE_DENIED);
        assertThat(broker.ok(
                                limited,
                                "lomi_workspace_update",
                                limitedOp(limitedEpoch, "k-select", "workspaceId", ws, "action", "select"))
                        .path("state")
                        .asString())
                .isEqualTo("succeeded");
    }

    @Test
    void panelMoveTakesANullBeforeTabIdAndRefusesAForeignMovementField() {
        String ws = newWorkspace(agent, workspaceOf(project), "moving");
        String tab = firstTab(panelList(agent, ws));

        JsonNode moved = broker.ok(
                session,
                "lomi_panel_move",
                moveOp(agent, ws, "type", "reorder_tab", "tabId", tab, "beforeTabId", null));
        assertThat(moved.path("state").asString()).isEqualTo("succeeded");
        assertThat(moved.path("result").path("kind").asString()).isEqualTo("panel_moved");
        assertThat(moved.path("result").path("movement").asString()).isEqualTo("reorder_tab");

        assertThat(broker.refused(
                        session,
                        "lomi_panel_move",
                        moveOp(agent, ws, "type", "reorder_tab", "tabId", tab, "side", "left")))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(broker.refused(session, "lomi_panel_move", moveOp(agent, ws, "type", "spin", "tabId", tab)))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
    }

    @Test
    void projectOpenTakesTheReferenceInputAndWaitsForTheAdmin() throws Exception {
        Path folder =
                Files.createDirectories(temp.resolve("folders").resolve("beta")).toRealPath();

        JsonNode op = broker.ok(
                session,
                "lomi_project_open",
                op(json("workspaceId", workspaceOf(project), "projectPath", folder.toString(), "name", "beta")));

        assertThat(op.path("state").asString()).isEqualTo("awaiting_user");
        assertThat(op.path("result").isNull()).isTrue();
    }

    @Test
    void detachWithANullExternalIdClosesTheCallersOwnEpisode() {
        broker.ok(session, "lomi_session_attach", json("externalId", "thread-1"));

        JsonNode closed = broker.ok(session, "lomi_session_detach", json("externalId", null));

        assertThat(closed.path("kind").asString()).isEqualTo("episode");
        assertThat(closed.path("externalId").asString()).isEqualTo("thread-1");
        assertThat(closed.path("state").asString()).isEqualTo("closed");
        assertThat(broker.refused(session, "lomi_session_attach", json("externalId", "   ")))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(broker.refused(session, "lomi_episodes", json("x", 1))).isEqualTo(ErrorCode.INVALID_ARGUMENT);
    }

    /**
     * A focus or close of the panel with {@code null} for both generations (a durable call that must
     * succeed): it succeeded with a result of {@code kind}.
     */
    private JsonNode withNullGenerations(String tool, String ws, String panel, String kind) {
        JsonNode done = broker.ok(
                session,
                tool,
                op(json("workspaceId", ws, "panelId", panel, "terminalSessionId", null, "browserGeneration", null)));
        assertThat(done.path("state").asString()).isEqualTo("succeeded");
        assertThat(done.path("result").path("kind").asString()).isEqualTo(kind);
        return done;
    }

    /** The pairs as a mutation at the broker's current revision under another session's epoch and this key. */
    private String limitedOp(RetryEpochId limitedEpoch, String key, Object... pairs) {
        return LayoutTestSupport.withOp(json(pairs), broker.revision(), key, limitedEpoch);
    }

    private String op(String arguments) {
        return withOp(arguments, broker.revision(), agent.key("key"));
    }

    private String withOp(String arguments, String revision, String key) {
        return LayoutTestSupport.withOp(arguments, revision, key, epoch);
    }
}
