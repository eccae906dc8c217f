package dev.lomicontrol.layout.tools;

import static dev.lomicontrol.broker.BrokerCallsFixture.json;
import static dev.lomicontrol.broker.BrokerCallsFixture.workspaceOf;
import static dev.lomicontrol.layout.tools.LayoutTestSupport.firstPanel;
import static dev.lomicontrol.layout.tools.LayoutTestSupport.firstTab;
import static dev.lomicontrol.layout.tools.LayoutTestSupport.moveOp;
import static dev.lomicontrol.layout.tools.LayoutTestSupport.newWorkspace;
import static dev.lomicontrol.layout.tools.LayoutTestSupport.panelList;
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
            JsonNode list = transferFirstTab(created, ws);
            panels.add(list.path("panels").get(0).path("panelId").asString());
        }
        JsonNode list = panelList(agent, ws);
        assertThat(tabPanels(list))
                .containsExactly(List.of(panels.get(0)), List.of(panels.get(1)), List.of(panels.get(2)));
        String tab0 = list.path("tabs").get(0).path("tabId").asString();
        String tab1 = list.path("tabs").get(1).path("tabId").asString();
        String tab2 = list.path("tabs").get(2).path("tabId").asString();

        move(ws, "type", "reorder_tab", "tabId", tab2, "beforeTabId", tab0);
        assertThat(tabPanels(panelList(agent, ws)))
                .containsExactly(List.of(panels.get(2)), List.of(panels.get(0)), List.of(panels.get(1)));

        move(ws, "type", "dock_tab", "tabId", tab1, "targetTabId", tab0, "side", "left");
        JsonNode docked = panelList(agent, ws);
        assertThat(tabPanels(docked)).containsExactly(List.of(panels.get(2)), List.of(panels.get(1), panels.get(0)));
        assertThat(docked.path("tabs").get(1).path("layout").path("split").asString())
                .isEqualTo("row");

        move(ws, "type", "move_pane", "panelId", panels.get(2), "targetPanelId", panels.get(0), "side", "bottom");
        JsonNode moved = panelList(agent, ws);
        assertThat(tabPanels(moved)).containsExactly(List.of(panels.get(1), panels.get(0), panels.get(2)));
        assertThat(moved.path("tabs")
                        .get(0)
                        .path("layout")
                        .path("second")
                        .path("split")
                        .asString())
                .isEqualTo("column");

        assertThat(moveRefused(ws, "type", "dock_tab", "tabId", "tab-nope", "targetTabId", tab0, "side", "left"))
                .isEqualTo(ErrorCode.TARGET_NOT_FOUND);
        assertThat(moveRefused(ws, "type", "reorder_tab", "tabId", tab0, "side", "left"))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
    }

    @Test
    void focusAndCloseAPanelAndAWrongTerminalSessionIsStale() {
        String ws = newWorkspace(agent, workspaceOf(project), "w");
        String panel = firstPanel(agent, ws);

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
        JsonNode empty = panelList(agent, ws);
        assertThat(empty.path("panels")).isEmpty();
        assertThat(empty.path("activePanelId").isNull()).isTrue();
    }

    @Test
    void panelListCursorsAreBoundToTheRevision() {
        String ws = workspaceOf(project);
        for (int i = 0; i < 3; i++) {
            transferFirstTab(newWorkspace(agent, ws, "c" + i), ws);
        }
        JsonNode first = broker.ok(session, "lomi_panel_list", json("workspaceId", ws, "limit", 2));
        assertThat(first.path("panels")).hasSize(2);
        assertThat(first.path("hasMore").asBoolean()).isTrue();
        String pageTwo = json(
                "workspaceId",
                ws,
                "limit",
                2,
                "cursor",
                first.path("nextCursor").asString());
        JsonNode second = broker.ok(session, "lomi_panel_list", pageTwo);
        assertThat(second.path("panels")).hasSize(1);

        broker.ok(session, "lomi_workspace_update", op("workspaceId", ws, "name", "moved-on"));
        assertThat(broker.refused(session, "lomi_panel_list", pageTwo)).isEqualTo(ErrorCode.CURSOR_EXPIRED);
    }

    private String op(Object... pairs) {
        return LayoutTestSupport.op(agent, pairs);
    }

    private JsonNode move(String ws, Object... movement) {
        return broker.ok(session, "lomi_panel_move", moveOp(agent, ws, movement));
    }

    private ErrorCode moveRefused(String ws, Object... movement) {
        return broker.refused(session, "lomi_panel_move", moveOp(agent, ws, movement));
    }

    /** Moves workspace {@code from}'s first tab into workspace {@code to}; {@code from}'s panel list before the move. */
    private JsonNode transferFirstTab(String from, String to) {
        JsonNode list = panelList(agent, from);
        move(from, "type", "transfer_tab", "tabId", firstTab(list), "targetWorkspaceId", to);
        return list;
    }
}
