package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.tools.ToolSelection;
import dev.lomicontrol.tools.Toolset;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/** How {@code client list} tells current, stale and hand-edited entries apart. */
class EntryFieldsTests {

    static final McpEntry WANTED = entry("/opt/lomi/bin/lomi-control", "ab".repeat(32));
    /** The wanted entry but for another discovery key. */
    static final McpEntry OTHER_KEY = entry(WANTED.command(), "cd".repeat(32));

    static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    static final Optional<ToolSelection> ALL = Optional.of(ToolSelection.all());

    @Test
    void anEntryForAnotherKeyOrLauncherIsStaleAndNamesWhatDiffers() {
        McpEntry otherKey = OTHER_KEY;
        assertThat(judge(McpClient.Format.MCP_SERVERS, fields(McpClient.Format.MCP_SERVERS, otherKey)))
                .isEqualTo(new EntryFields.Verdict(EntryState.STALE, List.of("discovery key"), ALL));

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
                .isEqualTo(new EntryFields.Verdict(EntryState.STALE, List.of("launcher path"), ALL));
    }

    @Test
    void aFieldAnOlderVersionDidNotWriteIsStaleAndAChangedOneIsHandEdited() {
        Map<String, JsonNode> found = fields(McpClient.Format.VSCODE_SERVERS, WANTED);
        found.remove("type");
        assertThat(judge(McpClient.Format.VSCODE_SERVERS, found))
                .isEqualTo(new EntryFields.Verdict(EntryState.STALE, List.of("type missing"), ALL));

        found.put("type", NODES.stringNode("sse"));
        assertThat(judge(McpClient.Format.VSCODE_SERVERS, found))
                .isEqualTo(new EntryFields.Verdict(EntryState.HAND_EDITED, List.of("type"), ALL));

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

    @Test
    void theSelectionIsTheUsersChoiceAnEntryWithOrWithoutOneIsCurrentAndReportsIt() {
        ToolSelection gitReadOnly = new ToolSelection(EnumSet.of(Toolset.GIT), true);
        McpEntry chosen = WANTED.with(gitReadOnly);
        assertThat(chosen.args()).endsWith("--discovery-key", "ab".repeat(32), "--toolsets", "core,git", "--read-only");
        for (McpClient.Format format : McpClient.Format.values()) {
            assertThat(judge(format, fields(format, chosen)))
                    .as("%s with a selection", format)
                    .isEqualTo(new EntryFields.Verdict(EntryState.CURRENT, List.of(), Optional.of(gitReadOnly)));
            assertThat(judge(format, fields(format, WANTED)))
                    .as("%s as older versions wrote it: every tool", format)
                    .isEqualTo(new EntryFields.Verdict(EntryState.CURRENT, List.of(), ALL));
            assertThat(EntryFields.judge(format, fields(format, chosen), Optional.of(WANTED.with(ToolSelection.all()))))
                    .as("%s compared with an entry register would write with another selection", format)
                    .isEqualTo(new EntryFields.Verdict(EntryState.CURRENT, List.of(), Optional.of(gitReadOnly)));
        }
        McpEntry otherKey = OTHER_KEY.with(gitReadOnly);
        assertThat(judge(McpClient.Format.CODEX_TOML, fields(McpClient.Format.CODEX_TOML, otherKey)))
                .isEqualTo(
                        new EntryFields.Verdict(EntryState.STALE, List.of("discovery key"), Optional.of(gitReadOnly)));
    }

    @Test
    void optionsAfterTheKeyThatAreNotASelectionAreAHandEdit() {
        for (List<String> tail : List.of(
                List.of("--toolsets", "core,nope"),
                List.of("--toolsets"),
                List.of("--read-only", "--read-only"),
                List.of("--verbose"))) {
            List<String> args = new java.util.ArrayList<>(WANTED.args());
            args.addAll(tail);
            McpEntry edited = new McpEntry(WANTED.command(), args);
            assertThat(judge(McpClient.Format.MCP_SERVERS, fields(McpClient.Format.MCP_SERVERS, edited)))
                    .as("%s", tail)
                    .isEqualTo(new EntryFields.Verdict(EntryState.HAND_EDITED, List.of("command/args")));
        }
        assertThat(McpEntry.selection(List.of("--read-only", "--toolsets", "files")))
                .contains(new ToolSelection(EnumSet.of(Toolset.FILES), true));
        assertThat(WANTED.with(new ToolSelection(EnumSet.of(Toolset.FILES), false))
                        .with(ToolSelection.all()))
                .as("a new selection replaces the old one")
                .isEqualTo(WANTED);
    }

    private static EntryFields.Verdict judge(McpClient.Format format, Map<String, JsonNode> found) {
        return EntryFields.judge(format, found, Optional.of(WANTED));
    }

    private static Map<String, JsonNode> fields(McpClient.Format format, McpEntry entry) {
        Map<String, JsonNode> fields = new LinkedHashMap<>();
        EntryFields.of(format, entry).forEach(f -> fields.put(f.name(), f.value()));
        return fields;
    }

    /** The entry {@code client register} writes for {@code command} and the discovery key {@code key}. */
    private static McpEntry entry(String command, String key) {
        return new McpEntry(
                command,
                List.of("--mcp", "--discovery-file", "/data/agent-control/discovery.json", "--discovery-key", key));
    }
}
