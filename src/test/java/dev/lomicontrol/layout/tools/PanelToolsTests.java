package dev.lomicontrol.layout.tools;

import static dev.lomicontrol.broker.BrokerCallsFixture.json;
import static dev.lomicontrol.broker.BrokerCallsFixture.workspaceOf;
import static dev.lomicontrol.layout.tools.LayoutTestSupport.movement;
import static dev.lomicontrol.layout.tools.LayoutTestSupport.newWorkspace;
import static dev.lomicontrol.layout.tools.LayoutTestSupport.tabPanels;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.broker.BrokerCallsFixture;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Project;
import dev.lomicontrol.testing.Agent;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

/**
 * Panels over a real SQLite ledger: moving tabs and panes as each movement says, focusing and
 * closing a panel (a terminal session the panel does not show is stale), and list cursors bound
 * to the layout's revision.
 */
class PanelToolsTests {

    @RegisterExtension
    final Agent agent = Agent.inProject("alpha");

    final BrokerCallsFixture broker = agent.broker();
    final Session session = agent.session();
    final Project project = agent.project();

    @Test
    void panelsReorderDockMoveAndTransferAsTheMovementSays() {
        String ws = workspaceOf(project);
        List<String> panels = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            String created = newWorkspace(agent, ws, "tmp" + i);
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
        String ws = newWorkspace(agent, workspaceOf(project), "w");
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
    void panelListCursorsAreBoundToTheRevision() {
        String ws = workspaceOf(project);
        for (int i = 0; i < 3; i++) {
            String created = newWorkspace(agent, ws, "c" + i);
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
        return LayoutTestSupport.op(agent, pairs);
    }
}
