package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.core.LomiException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Editing the keys we own in one TOML table while every other byte of config.toml stays as it was. */
class CodexTomlTests {

    static final Path FILE = Path.of("/home/u/.codex/config.toml");
    static final McpEntry ENTRY =
            new McpEntry("/opt/lomi/bin/lomi-control", List.of("--mcp", "--discovery-key", "a\"b\\c"));

    @Test
    void theTableIsAppendedToAFileWithoutIt() {
        assertThat(CodexToml.upsert(FILE, "", ENTRY))
                .contains(
                        "[mcp_servers.lomi-control]\ncommand = \"/opt/lomi/bin/lomi-control\"\n"
                                + "args = [\"--mcp\", \"--discovery-key\", \"a\\\"b\\\\c\"]\nstartup_timeout_sec = 30\ntool_timeout_sec = 60\n");
        assertThat(CodexToml.upsert(FILE, "model = \"o3\"", ENTRY).orElseThrow())
                .startsWith("model = \"o3\"\n\n[mcp_servers.lomi-control]\n");
    }

    @Test
    void onlyOurKeysAreSetAndTheTablesOtherKeysSubTablesAndNeighboursStay() {
        String before =
                "a = 1\r\n\r\n[mcp_servers.\"lomi-control\"] # old\r\ncommand = \"x\"\r\nenabled = true # mine\r\nargs = [\r\n  \"[x]\", '''\r\n[fake]\r\n''',\r\n]\r\n";
        String after = "\r\n# about env\r\n[mcp_servers.lomi-control.env]\r\nK = \"v\"\r\n";
        String written = CodexToml.upsert(FILE, before + after, ENTRY).orElseThrow();

        assertThat(written)
                .isEqualTo(
                        "a = 1\r\n\r\n[mcp_servers.\"lomi-control\"] # old\r\ncommand = \"/opt/lomi/bin/lomi-control\"\r\nenabled = true # mine\r\n"
                                + "args = [\"--mcp\", \"--discovery-key\", \"a\\\"b\\\\c\"]\r\nstartup_timeout_sec = 30\r\ntool_timeout_sec = 60\r\n"
                                + after);
        assertThat(CodexToml.state(FILE, written, Optional.of(ENTRY)).state()).isEqualTo(EntryState.CURRENT);
        assertThat(CodexToml.upsert(FILE, written, ENTRY)).isEmpty();
    }

    @Test
    void aLargerTimeoutOfTheUsersStaysAndASmallerOneIsRaised() {
        String table = CodexToml.render(ENTRY, "\n");
        String user = table.replace("startup_timeout_sec = 30", "startup_timeout_sec = 1_20")
                .replace("tool_timeout_sec = 60", "tool_timeout_sec = 0x14 # short");

        assertThat(CodexToml.state(FILE, user, Optional.of(ENTRY)))
                .isEqualTo(new EntryFields.Verdict(EntryState.HAND_EDITED, List.of("tool_timeout_sec")));
        assertThat(CodexToml.upsert(FILE, user, ENTRY))
                .contains(table.replace("startup_timeout_sec = 30", "startup_timeout_sec = 1_20"));
    }

    @Test
    void valuesCompareByMeaningNotSpelling() {
        String respelled =
                "[mcp_servers.lomi-control]\ncommand = '/opt/lomi/bin/lomi-control'\nargs = [ # ours\n  \"--mcp\",\n  \"\\u002D-discovery-key\",\n"
                        + "  'a\"b\\c',\n]\nstartup_timeout_sec = +30\ntool_timeout_sec = 60\n";

        assertThat(CodexToml.state(FILE, respelled, Optional.of(ENTRY)).state()).isEqualTo(EntryState.CURRENT);
        assertThat(CodexToml.upsert(FILE, respelled, ENTRY)).isEmpty();
        assertThat(TomlValue.parse(" 1.5")).isEmpty();
        assertThat(TomlValue.parse(" \"\"\"\nmulti\\\n   line\"\"\"\n")
                        .orElseThrow()
                        .asString())
                .isEqualTo("multiline");
    }

    @Test
    void otherFormsAndBrokenFilesAreRefused() {
        assertThatThrownBy(() -> CodexToml.upsert(FILE, "mcp_servers.lomi-control.command = \"x\"\n", ENTRY))
                .isInstanceOf(LomiException.class)
                .hasMessageContaining("dotted keys");
        assertThatThrownBy(() -> CodexToml.upsert(FILE, "[[mcp_servers.lomi-control]]\n", ENTRY))
                .hasMessageContaining("array of tables");
        assertThatThrownBy(
                        () -> CodexToml.upsert(FILE, "[mcp_servers.lomi-control]\n[mcp_servers.lomi-control]\n", ENTRY))
                .hasMessageContaining("twice");
        assertThatThrownBy(() -> CodexToml.upsert(FILE, "args = [1, 2\n", ENTRY))
                .hasMessageContaining("not terminated");
        assertThatThrownBy(() -> CodexToml.upsert(FILE, "name = \"open\n", ENTRY))
                .hasMessageContaining("unterminated string");
        assertThatThrownBy(() -> CodexToml.upsert(FILE, "[table\n", ENTRY))
                .hasMessageContaining("malformed table header");
    }
}
