package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.core.LomiException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** Text-level merges of our entry into JSON and JSONC files: the user's layout and bytes stay, the result parses. */
class JsonMcpConfigTests {

    static final Path FILE = Path.of("/home/u/.config/zed/settings.json");
    static final McpEntry ENTRY = new McpEntry("/opt/lomi/bin/lomi-control", List.of("--mcp"));
    static final JsonMapper STRICT = JsonMapper.builder().build();
    static final JsonMcpConfig PLAIN = new JsonMcpConfig(McpClient.Format.MCP_SERVERS, false);
    static final JsonMcpConfig JSONC = new JsonMcpConfig(McpClient.Format.MCP_SERVERS, true);

    @Test
    void aNewEntryFollowsTheNeighboursIndentationAndTheFilesLineBreaks() {
        String tabs = "{\r\n\t\"mcpServers\": {\r\n\t\t\"other\": {\"command\": \"x\"}\r\n\t}\r\n}\r\n";

        String written = PLAIN.merge(FILE, Optional.of(tabs), ENTRY).orElseThrow();

        assertThat(written)
                .isEqualTo(
                        "{\r\n\t\"mcpServers\": {\r\n\t\t\"other\": {\"command\": \"x\"},\r\n\t\t\"lomi-control\": {\r\n"
                                + "\t\t\t\"command\": \"/opt/lomi/bin/lomi-control\",\r\n\t\t\t\"args\": [\r\n\t\t\t\t\"--mcp\"\r\n\t\t\t]\r\n\t\t}\r\n\t}\r\n}\r\n");
        assertThat(PLAIN.merge(FILE, Optional.of(written), ENTRY)).isEmpty();
    }

    @Test
    void aCommentAfterTheLastMemberStaysOnItsLineAndATrailingCommaStyleIsKept() {
        String noComma = "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\"} // note\n  }\n}\n";
        assertThat(JSONC.merge(FILE, Optional.of(noComma), ENTRY).orElseThrow())
                .startsWith(
                        "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\"}, // note\n    \"lomi-control\": {\n");

        String trailing = "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\"}, /* c */\n  },\n}\n";
        String written = JSONC.merge(FILE, Optional.of(trailing), ENTRY).orElseThrow();
        assertThat(written)
                .startsWith(
                        "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\"}, /* c */\n    \"lomi-control\": {\n")
                .endsWith("    },\n  },\n}\n");
        assertThat(JSONC.merge(FILE, Optional.of(written), ENTRY)).isEmpty();
    }

    @Test
    void emptyAndOneLineObjectsAndAMissingServerMapAreFilledIn() {
        assertThat(PLAIN.merge(FILE, Optional.of("{\"mcpServers\": {}}"), ENTRY).orElseThrow())
                .isEqualTo(
                        "{\"mcpServers\": {\n  \"lomi-control\": {\n    \"command\": \"/opt/lomi/bin/lomi-control\",\n    \"args\": [\n      \"--mcp\"\n    ]\n  }\n}}");
        String inline = PLAIN.merge(FILE, Optional.of("{\"theme\": 1, \"mcpServers\": {\"a\": {}}}"), ENTRY)
                .orElseThrow();
        assertThat(inline)
                .isEqualTo(
                        "{\"theme\": 1, \"mcpServers\": {\"a\": {}, \"lomi-control\": {\"command\":\"/opt/lomi/bin/lomi-control\",\"args\":[\"--mcp\"]}}}");
        String created = PLAIN.merge(FILE, Optional.of("{\n  \"theme\": \"dark\"\n}\n"), ENTRY)
                .orElseThrow();
        assertThat(created).startsWith("{\n  \"theme\": \"dark\",\n  \"mcpServers\": {\n    \"lomi-control\": {\n");
        STRICT.readTree(created);
    }

    @Test
    void onlyOurFieldsInOurEntryChangeAndTheUsersFieldsStayInPlace() {
        String user =
                "{\"mcpServers\": {\n  \"lomi-control\": {\n    \"env\": {\"A\": \"1\"},\n    \"command\": \"/old\", // was\n    \"autoApprove\": [\"x\"]\n  }\n}}";

        String written = JSONC.merge(FILE, Optional.of(user), ENTRY).orElseThrow();

        assertThat(written)
                .isEqualTo(
                        "{\"mcpServers\": {\n  \"lomi-control\": {\n    \"env\": {\"A\": \"1\"},\n"
                                + "    \"command\": \"/opt/lomi/bin/lomi-control\", // was\n    \"autoApprove\": [\"x\"],\n    \"args\": [\n      \"--mcp\"\n    ]\n  }\n}}");
    }

    @Test
    void aByteOrderMarkStaysFirst() {
        String written = JSONC.merge(FILE, Optional.of("\uFEFF{}"), ENTRY).orElseThrow();

        assertThat(written).startsWith("\uFEFF{\n  \"mcpServers\": {");
        assertThat(JSONC.state(FILE, written, Optional.of(ENTRY)).state()).isEqualTo(EntryState.CURRENT);
        assertThat(JSONC.merge(FILE, Optional.of(written), ENTRY)).isEmpty();
    }

    @Test
    void duplicateKeysAndNonObjectsAreRefused() {
        assertThatThrownBy(() -> PLAIN.merge(FILE, Optional.of("{\"mcpServers\": {}, \"mcpServers\": {}}"), ENTRY))
                .isInstanceOf(LomiException.class)
                .hasMessageContaining("Duplicate Object property")
                .hasMessageContaining("file left untouched");
        assertThatThrownBy(() -> PLAIN.merge(FILE, Optional.of("{\"mcpServers\": []}"), ENTRY))
                .hasMessageContaining("\"mcpServers\" is not a JSON object");
        assertThatThrownBy(() -> PLAIN.merge(FILE, Optional.of("{\"mcpServers\": {\"lomi-control\": \"x\"}}"), ENTRY))
                .hasMessageContaining("the lomi-control entry is not a JSON object");
        assertThatThrownBy(() -> PLAIN.merge(FILE, Optional.of("[1]"), ENTRY))
                .hasMessageContaining("is not a JSON object");
        assertThatThrownBy(() -> PLAIN.merge(FILE, Optional.of("{\"a\": 1,}"), ENTRY))
                .hasMessageContaining("trailing comma");
        assertThatThrownBy(() -> JSONC.merge(FILE, Optional.of("{\"a\": 1 /* open"), ENTRY))
                .hasMessageContaining("unterminated comment");
    }

    @Test
    void theLineEndAfterTriviaIsFoundOnlyWhenNothingElseFollows() {
        assertThat(JsoncEdits.lineEndAfterTrivia("1 // x\n2", 1)).isEqualTo(6);
        assertThat(JsoncEdits.lineEndAfterTrivia("1 /* a */ \r\n", 1)).isEqualTo(10);
        assertThat(JsoncEdits.lineEndAfterTrivia("1 }", 1)).isEqualTo(-1);
        assertThat(JsoncEdits.lineEndAfterTrivia("1 /* a\n */", 1)).isEqualTo(-1);
        assertThat(JsoncEdits.unit("{\n    \"a\": 1\n}")).isEqualTo("    ");
        assertThat(JsoncEdits.unit("{}")).isEqualTo("  ");
    }
}
