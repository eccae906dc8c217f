package dev.lomicontrol.terminal.tools;

import static dev.lomicontrol.broker.BrokerCallsFixture.json;

import dev.lomicontrol.broker.BrokerCallsFixture;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A terminal a test created with lomi_terminal_create: the ids its result names, and the arguments
 * of the calls that name the terminal, as a client sends them.
 */
class CreatedTerminal {

    final String workspace;
    final String panel;
    final String id;
    final String lease;

    /** From lomi_terminal_create's result. */
    CreatedTerminal(JsonNode result) {
        workspace = result.path("workspaceId").asString();
        panel = result.path("panelId").asString();
        id = result.path("terminalSessionId").asString();
        lease = result.path("leaseId").asString();
    }

    /** lomi_terminal_read's arguments: this terminal and {@code pairs}. */
    String read(Object... pairs) {
        ObjectNode node = (ObjectNode) BrokerCallsFixture.JSON.readTree(json(pairs));
        node.put("workspaceId", workspace);
        node.put("panelId", panel);
        node.put("terminalSessionId", id);
        return node.toString();
    }

    /** lomi_terminal_input's arguments with this terminal's lease: text ({@code type} "text") or a key ("key"). */
    String input(long sequence, String type, String value) {
        ObjectNode node = (ObjectNode) BrokerCallsFixture.JSON.readTree(json(
                "workspaceId",
                workspace,
                "panelId",
                panel,
                "terminalSessionId",
                id,
                "leaseId",
                lease,
                "inputSequence",
                Long.toString(sequence)));
        node.set(
                "input",
                BrokerCallsFixture.JSON.readTree(json("type", type, type.equals("text") ? "text" : "key", value)));
        return node.toString();
    }
}
