package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.ClientConfiguration;
import dev.lomicontrol.files.ClientConfigurationPaths;
import dev.lomicontrol.files.RelativePath;
import dev.lomicontrol.terminal.SandboxPolicy;
import org.junit.jupiter.api.Test;

/**
 * Every MCP client file {@code client register} may write — and its backup — stays out of an
 * agent's sandboxed terminal: the home files hidden, the project entries read-only. The terminal
 * module cannot see the console's client table, so this test keeps the two lists equal.
 */
class ClientFilesSandboxedTests {

    @Test
    void everyClientFileAndBackupIsHiddenFromTerminals() {
        assertThat(SandboxPolicy.CLIENT_FILES).containsAll(McpClient.defaultUserFiles());
    }

    @Test
    void everyProjectClientEntryIsReadOnlyInTerminals() {
        assertThat(SandboxPolicy.PROJECT_CLIENT_FILES).containsAll(McpClient.projectEntries());
    }

    @Test
    void theFileToolsRefuseToWriteExactlyTheEntriesTheSandboxKeepsReadOnly() {
        assertThat(SandboxPolicy.PROJECT_CLIENT_FILES).isSameAs(ClientConfiguration.PROJECT_ENTRIES);
        for (String entry : McpClient.projectEntries()) {
            assertThat(ClientConfigurationPaths.isClientConfiguration(RelativePath.parse(entry)))
                    .as(entry)
                    .isTrue();
        }
        assertThat(ClientConfigurationPaths.isClientConfiguration(RelativePath.parse("web/.VSCode/tasks.json")))
                .as("any component, any case")
                .isTrue();
        assertThat(ClientConfigurationPaths.isClientConfiguration(RelativePath.parse("docs/mcp.json")))
                .isFalse();
        assertThat(ClientConfigurationPaths.isClientConfiguration(RelativePath.parse("vscode/settings.json")))
                .isFalse();
    }
}
