package dev.lomicontrol.layout.tools;

import dev.lomicontrol.broker.BrokerCallsFixture;
import dev.lomicontrol.core.RetryEpochId;
import dev.lomicontrol.testing.Agent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What the layout tool tests share: a layout mutation's durable fields, a movement, a panel list and
 * its first panel and tab, a list's tabs, and folders to open as projects.
 */
final class LayoutTestSupport {

    private LayoutTestSupport() {}

    /** The name/value pairs as a mutation at the broker's current revision, with the agent's epoch and a fresh key. */
    static String op(Agent agent, Object... pairs) {
        return withOp(BrokerCallsFixture.json(pairs), agent.broker().revision(), agent.key("key"), agent.epoch());
    }

    /** {@code arguments} with {@code expectedRevision}, {@code retryEpoch} and {@code requestKey} set. */
    static String withOp(String arguments, String revision, String key, RetryEpochId epoch) {
        ObjectNode node = (ObjectNode) BrokerCallsFixture.JSON.readTree(arguments);
        node.put("expectedRevision", revision);
        node.put("retryEpoch", epoch.value());
        node.put("requestKey", key);
        return node.toString();
    }

    /** A panel_move movement from name/value pairs. */
    static JsonNode movement(Object... pairs) {
        return BrokerCallsFixture.JSON.readTree(BrokerCallsFixture.json(pairs));
    }

    /** The arguments of a panel_move in workspace {@code ws}: the movement's name/value pairs, as {@link #op}. */
    static String moveOp(Agent agent, String ws, Object... movement) {
        return op(agent, "workspaceId", ws, "movement", movement(movement));
    }

    /** The first page of workspace {@code ws}'s panel_list (a call that must succeed). */
    static JsonNode panelList(Agent agent, String ws) {
        return agent.ok("lomi_panel_list", "workspaceId", ws);
    }

    /** The id of the first panel of workspace {@code ws}. */
    static String firstPanel(Agent agent, String ws) {
        return panelList(agent, ws).path("panels").get(0).path("panelId").asString();
    }

    /** The id of the first tab of a panel_list answer. */
    static String firstTab(JsonNode list) {
        return list.path("tabs").get(0).path("tabId").asString();
    }

    /** Each tab's panel ids, in order, of a panel_list answer. */
    static List<List<String>> tabPanels(JsonNode list) {
        List<List<String>> tabs = new ArrayList<>();
        for (JsonNode tab : list.path("tabs")) {
            List<String> ids = new ArrayList<>();
            tab.path("panelIds").forEach(id -> ids.add(id.asString()));
            tabs.add(ids);
        }
        return tabs;
    }

    /** A new folder {@code name} under {@code temp}, by its real path. */
    static Path folder(Path temp, String name) {
        try {
            return Files.createDirectories(temp.resolve("folders").resolve(name))
                    .toRealPath();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes a one-byte file. */
    static void write(Path file) {
        try {
            Files.writeString(file, "x");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Creates a workspace named {@code name} in the project of workspace {@code in} (a durable call that must succeed); its id. */
    static String newWorkspace(Agent agent, String in, String name) {
        return agent.broker()
                .ok(agent.session(), "lomi_workspace_create", op(agent, "workspaceId", in, "name", name))
                .path("result")
                .path("workspaceId")
                .asString();
    }
}
