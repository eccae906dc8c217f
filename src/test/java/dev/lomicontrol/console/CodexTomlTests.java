package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.core.LomiException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Editing one TOML table while every other byte of config.toml stays as it was. */
class CodexTomlTests {

    static final Path FILE = Path.of("/home/u/.codex/config.toml");
    static final McpEntry ENTRY = new McpEntry("/opt/lomi/bin/lomi-control", List.of("--mcp", "--discovery-key", "a\"b\\c"));

    @Test
    void theTableIsAppendedToAFileWithoutIt() {
        assertThat(CodexToml.upsert(FILE, "", ENTRY)).contains(
                "[mcp_servers.lomi-control]\ncommand = \"/opt/lomi/bin/lomi-control\"\nargs = [\"--mcp\", \"--discovery-key\", \"a\\\"b\\\\c\"]\n");
        assertThat(CodexToml.upsert(FILE, "model = \"o3\"", ENTRY).orElseThrow()).startsWith("model = \"o3\"\n\n[mcp_servers.lomi-control]\n");
    }

    @Test
    void onlyTheTableIsReplacedAndItsSubTablesAndNeighboursStay() {
        String before = "a = 1\n\n[mcp_servers.\"lomi-control\"] # old\ncommand = \"x\"\nargs = [\n  \"[x]\", '''\n[fake]\n''',\n]\n";
        String after = "\n# about env\n[mcp_servers.lomi-control.env]\nK = \"v\"\n";
        String written = CodexToml.upsert(FILE, before + after, ENTRY).orElseThrow();

        assertThat(written).isEqualTo("a = 1\n\n" + CodexToml.render(ENTRY, "\n") + after);
        assertThat(CodexToml.state(FILE, written, java.util.Optional.of(ENTRY))).isEqualTo(EntryState.CURRENT);
        assertThat(CodexToml.upsert(FILE, written, ENTRY)).isEmpty();
    }

    @Test
    void otherFormsAndBrokenFilesAreRefused() {
        assertThatThrownBy(() -> CodexToml.upsert(FILE, "mcp_servers.lomi-control.command = \"x\"\n", ENTRY))
                .isInstanceOf(LomiException.class).hasMessageContaining("dotted keys");
        assertThatThrownBy(() -> CodexToml.upsert(FILE, "[[mcp_servers.lomi-control]]\n", ENTRY)).hasMessageContaining("array of tables");
        assertThatThrownBy(() -> CodexToml.upsert(FILE, "[mcp_servers.lomi-control]\n[mcp_servers.lomi-control]\n", ENTRY)).hasMessageContaining("twice");
        assertThatThrownBy(() -> CodexToml.upsert(FILE, "args = [1, 2\n", ENTRY)).hasMessageContaining("not terminated");
        assertThatThrownBy(() -> CodexToml.upsert(FILE, "name = \"open\n", ENTRY)).hasMessageContaining("unterminated string");
        assertThatThrownBy(() -> CodexToml.upsert(FILE, "[table\n", ENTRY)).hasMessageContaining("malformed table header");
    }
}
