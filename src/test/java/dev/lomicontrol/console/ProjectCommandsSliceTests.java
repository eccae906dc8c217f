package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.projects.Projects;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** Slice test of the project group ({@code project add|list|remove}): no broker runs. */
class ProjectCommandsSliceTests extends ConsoleSliceSupport {

    @Autowired
    Projects projects;

    @Test
    void theGroupIsRegisteredWithHelpForEachCommand() {
        assertGroupHelp("Projects", "project add", "project list", "project remove");
    }

    @Test
    void removeIsRefusedWithoutConfirmAndTheProjectStays() throws Exception {
        Path folder = Files.createDirectories(cwd.resolve("app"));
        assertThat(ok("project add app --name slice-app"))
                .contains(
                        "added project prj-", "'slice-app'", folder.toRealPath().toString());
        assertRefused("project add app", "already added");

        assertRefused("project remove slice-app", "repeat with --confirm");
        assertThat(projects.find("slice-app")).isPresent();
        assertThat(ok("project remove slice-app --confirm")).contains("removed project", "was not touched");
        assertThat(projects.find("slice-app")).isEmpty();
        assertRefused("project remove slice-app --confirm", "TARGET_NOT_FOUND");
    }

    @Test
    void argumentsAreParsedStrictly() {
        assertUsage("project list --verbose", "unknown option --verbose");
        assertUsage("project add /tmp --name", "--name needs a value");
        assertUsage("project remove", "takes 1 argument");
    }
}
