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
        assertThat(fails("project add app", ConsoleResult.REFUSED)).contains("already added");

        assertThat(fails("project remove slice-app", ConsoleResult.REFUSED)).contains("repeat with --confirm");
        assertThat(projects.find("slice-app")).isPresent();
        assertThat(ok("project remove slice-app --confirm")).contains("removed project", "was not touched");
        assertThat(projects.find("slice-app")).isEmpty();
        assertThat(fails("project remove slice-app --confirm", ConsoleResult.REFUSED))
                .contains("TARGET_NOT_FOUND");
    }

    @Test
    void argumentsAreParsedStrictly() {
        assertThat(fails("project list --verbose", ConsoleResult.USAGE)).contains("unknown option --verbose");
        assertThat(fails("project add /tmp --name", ConsoleResult.USAGE)).contains("--name needs a value");
        assertThat(fails("project remove", ConsoleResult.USAGE)).contains("takes 1 argument");
    }
}
