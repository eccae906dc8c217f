package dev.lomicontrol.terminal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sandbox placeholders a killed broker left in a project (empty 0500 directories such as
 * {@code .mcp.json}, which break the client that reads it) are gone after the next start, and a
 * user's own directory of the same kind is not (security review 2026-12-06, N10).
 */
class SandboxPlaceholderSweepTests {

    @TempDir
    Path temp;

    @Test
    void aNewStartRemovesThePlaceholdersAKilledBrokerRecordedAndNothingElse() throws Exception {
        Path data = Files.createDirectories(temp.resolve("data"));
        Path project = Files.createDirectories(temp.resolve("project"));
        // what a broker killed while a terminal ran leaves: the placeholders, and its record of them
        Path mcpJson = placeholder(project.resolve(".mcp.json"));
        Path opencode = placeholder(project.resolve("opencode.json"));
        Path filledSince = placeholder(project.resolve(".cursor"));
        Files.setPosixFilePermissions(filledSince, PosixFilePermissions.fromString("rwx------"));
        Files.writeString(filledSince.resolve("mcp.json"), "{}");
        Files.setPosixFilePermissions(filledSince, PosixFilePermissions.fromString("r-x------"));
        Path userChangedMode = placeholder(project.resolve(".gemini"));
        Files.setPosixFilePermissions(userChangedMode, PosixFilePermissions.fromString("rwx------"));
        Path record = data.resolve(Terminals.placeholderRecordName());
        Files.writeString(
                record,
                String.join(
                                "\n",
                                mcpJson.toString(),
                                opencode.toString(),
                                filledSince.toString(),
                                userChangedMode.toString())
                        + "\n");
        // the user's own empty directory, the same mode, that no broker recorded
        Path usersOwn = placeholder(project.resolve(".vscode"));

        try (Terminals next = TerminalTesting.engine(temp, TerminalOptions.defaults(temp.resolve("shell")), Map.of())) {
            int removed = next.recordPlaceholdersIn(record);

            assertThat(removed).isEqualTo(2);
        }
        assertThat(mcpJson).doesNotExist();
        assertThat(opencode).doesNotExist();
        assertThat(filledSince.resolve("mcp.json")).hasContent("{}");
        assertThat(userChangedMode).isDirectory();
        assertThat(usersOwn).isDirectory();
        assertThat(record).doesNotExist();
    }

    private static Path placeholder(Path path) throws Exception {
        return Files.createDirectory(
                path, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("r-x------")));
    }
}
