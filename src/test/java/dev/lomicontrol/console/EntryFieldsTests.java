package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/** How {@code client list} tells current, stale and hand-edited entries apart. */
class EntryFieldsTests {

    static final McpEntry WANTED = new McpEntry(
            "/opt/lomi/bin/lomi-control",
            List.of(
                    "--mcp",
                    "--discovery-file",
                    "/data/agent-control/discovery.json",
                    "--discovery-key",
                    "ab".repeat(32)));
    static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    @Test
    void anEntryForAnotherKeyOrLauncherIsStaleAndNamesWhatDiffers() {
        McpEntry otherKey = new McpEntry(
                WANTED.command(),
                List.of(
                        "--mcp",
                        "--discovery-file",
                        "/data/agent-control/discovery.json",
                        "--discovery-key",
                        "cd".repeat(32)));
        assertThat(judge(McpClient.Format.MCP_SERVERS, fields(McpClient.Format.MCP_SERVERS, otherKey)))
                .isEqualTo(new EntryFields.Verdict(EntryState.STALE, List.of("discovery key")));

        McpEntry jar = new McpEntry(
                "/usr/bin/java",
                List.of(
                        "-jar",
                        "/opt/lomi/lomi-control.jar",
                        "--mcp",
                        "--discovery-file",
                        "/data/agent-control/discovery.json",
                        "--discovery-key",
                        "ab".repeat(32)));
        assertThat(judge(McpClient.Format.OPENCODE, fields(McpClient.Format.OPENCODE, jar)))
                .isEqualTo(new EntryFields.Verdict(EntryState.STALE, List.of("launcher path")));
    }

    @Test
    void aFieldAnOlderVersionDidNotWriteIsStaleAndAChangedOneIsHandEdited() {
        Map<String, JsonNode> found = fields(McpClient.Format.VSCODE_SERVERS, WANTED);
        found.remove("type");
        assertThat(judge(McpClient.Format.VSCODE_SERVERS, found))
                .isEqualTo(new EntryFields.Verdict(EntryState.STALE, List.of("type missing")));

        found.put("type", NODES.stringNode("sse"));
        assertThat(judge(McpClient.Format.VSCODE_SERVERS, found))
                .isEqualTo(new EntryFields.Verdict(EntryState.HAND_EDITED, List.of("type")));

        Map<String, JsonNode> relative = fields(McpClient.Format.MCP_SERVERS, WANTED);
        relative.put("command", NODES.stringNode("lomi-control"));
        assertThat(judge(McpClient.Format.MCP_SERVERS, relative))
                .isEqualTo(new EntryFields.Verdict(EntryState.HAND_EDITED, List.of("command/args")));
    }

    @Test
    void theUsersOwnFieldsAndDefaultsNeverCountAndWithoutAKeyAnEntryIsJustPresent() {
        Map<String, JsonNode> found = fields(McpClient.Format.OPENCODE, WANTED);
        found.put("enabled", NODES.booleanNode(false));
        found.put("environment", NODES.objectNode().put("A", "1"));
        assertThat(judge(McpClient.Format.OPENCODE, found).state()).isEqualTo(EntryState.CURRENT);
        assertThat(EntryFields.judge(McpClient.Format.OPENCODE, found, Optional.empty())
                        .state())
                .isEqualTo(EntryState.PRESENT);
    }

    private static EntryFields.Verdict judge(McpClient.Format format, Map<String, JsonNode> found) {
        return EntryFields.judge(format, found, Optional.of(WANTED));
    }

    private static Map<String, JsonNode> fields(McpClient.Format format, McpEntry entry) {
        Map<String, JsonNode> fields = new LinkedHashMap<>();
        EntryFields.of(format, entry).forEach(f -> fields.put(f.name(), f.value()));
        return fields;
    }
}
